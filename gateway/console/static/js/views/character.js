// Screen 5b: one character: the sheet editor (the server's field errors next to each field)
// and the aftermath (immunities, bans, cooldowns counting down, vigor), lifted or shortened by
// a moderator with a reason, and the history of every change.
import { ApiError, api, get, idempotency, openapi, post, requestSchema, session, unionMembers } from "../api.js";
import { clear, countdown, fmtTime, h } from "../dom.js";
import { buildForm } from "../form.js";
import { t, word } from "../i18n.js";
import { openStream } from "../stream.js";
import { rememberCharacter } from "./characters.js";
import { section, statusLine } from "./shared.js";
import { TEMPLATES } from "./templates.js";

export async function characterView(main, ctx, id, fresh) {
  document.title = `${id} · ${t("chars.title")}`;
  const doc = await openapi();
  let sheet;
  let isNew = false;
  try {
    const { id: _ignored, ...stored } = await get(`/v1/characters/${id}`);
    sheet = stored;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404 && fresh)) throw err;
    sheet = TEMPLATES[fresh](id.charAt(0).toUpperCase() + id.slice(1));
    isNew = true;
  }
  const editor = h("div", { id: "sheet-editor" });
  const status = h("div", { id: "status" });
  const history = h("div", { id: "history" });
  clear(
    main,
    h("h1", {}, sheet.name ? `${sheet.name} (@${id})` : id),
    h(
      "div",
      { class: "columns wide-first" },
      section(t("sheet.title"), "h-sheet", editor),
      h("div", {}, section(t("after.title"), "h-after", status), section(t("after.history"), "h-history", history)),
    ),
  );
  sheetEditor(editor, doc, id, sheet, ctx);
  if (isNew) {
    clear(status, h("p", { class: "empty" }, t("after.unsaved")));
    return null;
  }
  const refresh = () => Promise.all([statusPanel(status, id, refresh), historyPanel(history, id)]).catch(() => {});
  await refresh();
  const stream = openStream(
    {},
    { onEvent: (event) => (event.data?.character === id || event.room === `character:${id}`) && refresh() },
  );
  return () => stream.close();
}

function sheetEditor(box, doc, id, sheet, ctx) {
  const members = unionMembers(doc, requestSchema(doc, "/v1/characters/{character_id}", "put"));
  const schema = members[sheet.ruleset];
  if (!schema) return clear(box, h("p", { class: "error" }, t("sheet.unknown_ruleset")));
  const form = buildForm(doc, schema, sheet, { labels: "field" });
  const status = statusLine();
  const button = h("button", { type: "submit", class: "primary", id: "sheet-save" }, t("sheet.save"));
  const el = h("form", { id: "sheet-form", novalidate: true }, form.el, button, status.el);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    form.clearErrors();
    button.disabled = true;
    try {
      const saved = await api("PUT", `/v1/characters/${id}`, { body: form.read() });
      rememberCharacter(id, saved);
      status.ok(t("sheet.saved"));
      ctx.announce(t("sheet.saved"));
    } catch (err) {
      status.fail(err);
      form.showErrors(err.fieldErrors || []);
    } finally {
      button.disabled = false;
    }
  });
  clear(box, el);
}

// Each timed state of the aftermath: [kind for /status/adjust, key, label, until].
function timedStates(s) {
  const rows = [];
  if (s.immune_until) rows.push(["immunity", null, t("after.immunity"), s.immune_until]);
  for (const ban of s.room_bans || []) rows.push(["room_ban", ban.room, t("after.room_ban_of", { room: ban.room }), ban.until]);
  if (s.intrude_banned_until) rows.push(["irrumpir_ban", null, t("after.irrumpir_ban"), s.intrude_banned_until]);
  for (const [name, until] of Object.entries(s.cooldowns || {})) rows.push(["flee_cooldown", name, t("after.cooldown_of", { name }), until]);
  if (s.imprisoned_until) rows.push(["imprisonment", null, t("after.imprisonment"), s.imprisoned_until]);
  for (const p of s.post_combat_states || []) rows.push(["post_combat_state", p.state, t("after.state_of", { state: p.state }), p.until]);
  if (s.vigor_lost) rows.push(["vigor", null, t("after.vigor_lost", { n: s.vigor_lost }), s.vigor_recovers_at]);
  return rows;
}

async function statusPanel(box, id, refresh) {
  const s = await get(`/v1/characters/${id}/status`);
  const rows = timedStates(s);
  const adjust = statusLine();
  clear(
    box,
    s.in_combat ? h("p", {}, t("after.in_combat"), " ", h("a", { href: `#/combat/${s.in_combat}` }, s.in_combat)) : null,
    rows.length
      ? h(
          "ul",
          { class: "plain timed" },
          rows.map(([kind, key, label, until]) =>
            h(
              "li",
              { "data-kind": kind },
              h("strong", {}, label),
              until ? [" · ", countdown(until, { label }), h("small", {}, ` (${fmtTime(until)})`)] : null,
              session.isModerator ? adjustForm(id, kind, key, adjust, refresh) : null,
            ),
          ),
        )
      : h("p", { class: "empty" }, t("after.nothing")),
    Object.keys(s.weekly_uses || {}).length
      ? h("p", { class: "facts" }, `${t("after.weekly")}: ${Object.entries(s.weekly_uses).map(([k, v]) => `${k} ${v}`).join(", ")}`)
      : null,
    (s.requirements_earned || []).length
      ? h("p", { class: "facts" }, `${t("after.requirements")}: ${s.requirements_earned.map((r) => word("enum", r.kind) + (r.name ? ` ${r.name}` : "")).join(", ")}`)
      : null,
    adjust.el,
  );
}

// A moderator lifts a state now, or brings its end sooner, always with a reason.
function adjustForm(id, kind, key, status, refresh) {
  const base = `adj-${kind}-${(key || "x").replace(/[^\w-]/g, "_")}`;
  const reason = h("input", { id: `${base}-reason`, type: "text", required: true, maxlength: 500 });
  const until = h("input", { id: `${base}-until`, type: "datetime-local" });
  const lift = h("button", { type: "submit", class: "small danger", value: "lift", id: `${base}-lift` }, t("after.lift"));
  const shorten = h("button", { type: "submit", class: "small", value: "shorten" }, t("after.shorten"));
  const form = h(
    "form",
    { class: "adjust" },
    h("label", { for: reason.id }, t("after.reason")),
    reason,
    h("label", { for: until.id }, t("after.until")),
    until,
    lift,
    shorten,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!reason.value.trim()) return reason.focus();
    const body = { kind, reason: reason.value.trim() };
    if (key) body.key = key;
    if (event.submitter === shorten) {
      if (!until.value) return until.focus();
      body.until = new Date(until.value).toISOString();
    } else body.lift = true;
    try {
      await post(`/v1/characters/${id}/status/adjust`, body, { headers: idempotency() });
      status.ok(t("after.adjusted"));
      await refresh();
    } catch (err) {
      status.fail(err);
    }
  });
  return form;
}

async function historyPanel(box, id) {
  const { history } = await get(`/v1/characters/${id}/history`);
  clear(
    box,
    history.length
      ? h(
          "ol",
          { class: "history" },
          [...history].reverse().map((item) =>
            h(
              "li",
              {},
              h("time", { datetime: item.at }, fmtTime(item.at)),
              " ",
              h("strong", {}, word("change", item.change)),
              item.rule ? ` (${item.rule})` : "",
              item.reason ? ` · ${word("reason", item.reason)}` : "",
            ),
          ),
        )
      : h("p", { class: "empty" }, t("after.no_history")),
  );
}
