// Screen 1b (moderators): frontend and moderator keys, and viewer links for the player view.
import { api, known, listPage, post } from "../api.js";
import { clear, fmtTime, h } from "../dom.js";
import { t } from "../i18n.js";
import { emptyNote, section, statusLine } from "./shared.js";

export async function keysView(main) {
  document.title = t("keys.title");
  const list = h("div", { id: "keys-list" });
  const created = h("div", { id: "key-created", "aria-live": "polite" });
  const status = statusLine();
  const scope = h("select", { id: "key-scope" }, ["frontend", "moderator"].map((s) => h("option", { value: s }, t(`scope.${s}`))));
  const create = h(
    "form",
    { id: "key-form", class: "inline" },
    h("div", { class: "field" }, h("label", { for: "key-scope" }, t("keys.scope")), scope),
    h("button", { type: "submit", class: "primary" }, t("keys.create")),
  );
  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const key = await post("/v1/keys", { scope: scope.value });
      known.add("keys", { key_id: key.key_id, scope: key.scope, created_at: new Date().toISOString() });
      clear(created, shownOnce(t("keys.created", { scope: t(`scope.${key.scope}`) }), key.api_key, "new-key"));
      await load();
    } catch (err) {
      status.fail(err);
    }
  });

  const combat = h("input", { id: "viewer-combat", type: "text", required: true, pattern: "c_[0-9a-f]{32}" });
  const viewer = h(
    "form",
    { id: "viewer-form", class: "inline" },
    h("div", { class: "field" }, h("label", { for: "viewer-combat" }, t("keys.combat")), combat),
    h("button", { type: "submit", class: "primary" }, t("keys.viewer")),
  );
  viewer.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!combat.checkValidity()) return combat.reportValidity();
    try {
      const { link, until } = await viewerLink(combat.value);
      const help = until ? t("keys.viewer_until", { until: fmtTime(until) }) : t("keys.viewer_help");
      clear(created, shownOnce(t("keys.viewer_created"), link, "viewer-link"), h("p", { class: "help" }, help));
      await load();
    } catch (err) {
      status.fail(err.status === 422 ? t("keys.no_viewer_scope") : err);
    }
  });

  async function load() {
    const page = await listPage("/v1/keys", ["keys", "items"], { limit: 100 });
    const items = page ? page.items : known.all().keys;
    clear(
      list,
      page ? null : h("p", { class: "help" }, t("keys.local_list")),
      items.length
        ? h(
            "ul",
            { class: "plain keys" },
            items.map((k) => {
              const revoke = h("button", { type: "button", class: "small danger" }, t("keys.revoke"));
              revoke.addEventListener("click", async () => {
                if (!confirm(t("keys.confirm_revoke", { id: k.key_id }))) return;
                try {
                  await api("DELETE", `/v1/keys/${k.key_id}`);
                  status.ok(t("keys.revoked"));
                  await load();
                } catch (err) {
                  status.fail(err);
                }
              });
              const when = k.created_at || (k.created_at_ms && new Date(k.created_at_ms).toISOString());
              const primary = k.primary ? ` · ${t("keys.primary")}` : "";
              return h("li", {}, h("code", {}, k.key_id), ` · ${t(`scope.${k.scope}`)}${primary}`, when ? ` · ${fmtTime(when)}` : "", " ", revoke);
            }),
          )
        : emptyNote(t("keys.none")),
    );
  }

  clear(
    main,
    h("h1", {}, t("keys.title")),
    status.el,
    created,
    section(t("keys.new"), "h-newkey", create),
    section(t("keys.viewer_title"), "h-viewer", h("p", { class: "help" }, t("keys.viewer_intro")), viewer),
    section(t("keys.list"), "h-keys", list),
  );
  await load();
  return null;
}

// A viewer link for the player view, in the link's fragment (never sent to a server): a
// short-lived read-only stream token bound to the combat (POST /v1/stream-tokens, one hour),
// or, where the server has no such tokens, a key of scope viewer (revoke it when done).
export async function viewerLink(combatId) {
  const url = new URL("player.html", location.href);
  try {
    const minted = await post("/v1/stream-tokens", { view: "player", combat: combatId, ttl_seconds: 3600 });
    url.hash = new URLSearchParams({ combat: combatId, token: minted.token }).toString();
    return { link: url.toString(), until: minted.expires_at };
  } catch (err) {
    if (![404, 405].includes(err.status)) throw err;
  }
  const key = await post("/v1/keys", { scope: "viewer" });
  known.add("keys", { key_id: key.key_id, scope: "viewer", created_at: new Date().toISOString() });
  url.hash = new URLSearchParams({ combat: combatId, key: key.api_key }).toString();
  return { link: url.toString(), until: null };
}

export function shownOnce(title, secret, id) {
  const input = h("input", { id, type: "text", readonly: true, value: secret, class: "secret" });
  const copy = h("button", { type: "button", class: "small" }, t("keys.copy"));
  copy.addEventListener("click", () => {
    input.select();
    navigator.clipboard?.writeText(secret).catch(() => {});
  });
  return h("div", { class: "card shown-once", role: "status" }, h("label", { for: id }, title), input, copy, h("p", { class: "help" }, t("keys.once")));
}
