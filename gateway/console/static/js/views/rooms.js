// Screen 2: the community's rooms and combats, live from the event stream; start a combat.
import { get, idempotency, listPage, openapi, post, requestSchema } from "../api.js";
import { clear, h } from "../dom.js";
import { buildForm } from "../form.js";
import { t, word } from "../i18n.js";
import { openStream } from "../stream.js";
import { characterList, emptyNote, phaseBadge, section, statusLine } from "./shared.js";

const CHANGES = new Set([
  "combat.started",
  "combat.ended",
  "combat.phase_changed",
  "round.started",
  "turn.started",
  "combatant.joined",
  "combatant.down",
  "combatant.fled",
]);

export async function roomsView(main, ctx) {
  document.title = t("rooms.title");
  const live = h("span", { class: "live-state", "aria-live": "polite" }, t("stream.connecting"));
  const rooms = h("div", { id: "rooms-list" });
  const active = h("div", { id: "active-list" });
  const ended = h("div", { id: "ended-list" });
  const starter = h("div", { id: "start-combat" });
  clear(
    main,
    h("div", { class: "title-row" }, h("h1", {}, t("rooms.title")), live),
    h(
      "div",
      { class: "columns" },
      section(t("rooms.active"), "h-active", active),
      section(t("rooms.rooms"), "h-rooms", rooms),
    ),
    section(t("rooms.start"), "h-start", starter),
    section(t("rooms.ended"), "h-ended", ended),
  );

  async function refresh() {
    const [current, finished] = await Promise.all([
      get("/v1/combats", { query: { active: true, limit: 50 } }),
      get("/v1/combats", { query: { active: false, limit: 10 } }),
    ]);
    clear(active, combatTable(current.combats, t("rooms.none_active")));
    clear(ended, combatTable(finished.combats, t("rooms.none_ended")));
    const listed = await listPage("/v1/rooms", ["rooms", "items"], { limit: 100 });
    clear(rooms, roomList(listed ? listed.items : roomsOf(current.combats)));
  }

  let timer = null;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => refresh().catch(() => {}), 150);
  };
  await refresh();
  const stream = openStream(
    {},
    {
      onEvent: (event) => CHANGES.has(event.type) && soon(),
      onReset: soon,
      onState: (state) => (live.textContent = t(`stream.${state}`)),
    },
  );
  await startForm(starter, ctx);
  return () => {
    stream.close();
    clearTimeout(timer);
  };
}

function roomsOf(combats) {
  const byRoom = new Map();
  for (const c of combats) byRoom.set(c.room, (byRoom.get(c.room) || 0) + 1);
  return [...byRoom].map(([room, count]) => ({ room, active_combats: count }));
}

function roomList(items) {
  if (!items.length) return emptyNote(t("rooms.no_rooms"));
  return h(
    "ul",
    { class: "plain" },
    items.map((r) => {
      const name = typeof r === "string" ? r : r.room || r.id || r.name;
      const active = typeof r === "object" ? (r.active_combats ?? null) : null;
      const ids = Array.isArray(active) ? active : [];
      const count = Array.isArray(active) ? active.length : active;
      return h(
        "li",
        { "data-room": name },
        h("strong", {}, name),
        count !== null ? ` · ${t("rooms.count", { n: count })} ` : "",
        ids.map((id, i) => h("a", { href: `#/combat/${id}` }, `#${i + 1}`)),
      );
    }),
  );
}

function combatTable(combats, none) {
  if (!combats.length) return emptyNote(none);
  return h(
    "table",
    { class: "list" },
    h(
      "thead",
      {},
      h("tr", {}, [t("rooms.room"), t("rooms.ruleset"), t("rooms.phase"), t("rooms.fighters"), t("rooms.turn")].map((x) => h("th", { scope: "col" }, x))),
    ),
    h(
      "tbody",
      {},
      combats.map((c) =>
        h(
          "tr",
          { "data-combat": c.id },
          h("td", {}, h("a", { href: `#/combat/${c.id}` }, c.room)),
          h("td", {}, word("ruleset", c.ruleset)),
          h("td", {}, phaseBadge(c.phase), c.round ? ` · ${t("combat.round", { n: c.round })}` : ""),
          h("td", {}, `${(c.sides?.attackers || []).join(", ")} ⚔ ${(c.sides?.defenders || []).join(", ")}`),
          h("td", {}, c.turn?.actor || (c.result ? word("result", c.result.reason) : "—")),
        ),
      ),
    ),
  );
}

// A new combat from the schema of POST /v1/combats, with the characters as suggestions.
async function startForm(box, ctx) {
  const doc = await openapi();
  const schema = requestSchema(doc, "/v1/combats", "post");
  const { items } = await characterList();
  const ids = items.map((c) => c.id);
  const hints = { attacker: ids, defenders: ids, targets: ids };
  const initial = { room: "", opening: { kind: "challenge" } };
  const form = buildForm(doc, schema, initial, { hints });
  const status = statusLine();
  const button = h("button", { type: "submit", class: "primary", id: "start-submit" }, t("rooms.start_button"));
  const el = h("form", { id: "start-form" }, form.el, button, status.el);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    form.clearErrors();
    button.disabled = true;
    try {
      const body = form.read();
      if (body.opening && body.opening.kind === "challenge") {
        delete body.opening.skill;
        if (!body.opening.targets?.length) delete body.opening.targets;
      }
      const combat = await post("/v1/combats", body, { headers: idempotency() });
      ctx.announce(t("rooms.started"));
      location.hash = `#/combat/${combat.id}`;
    } catch (err) {
      status.fail(err);
      form.showErrors(err.fieldErrors || []);
    } finally {
      button.disabled = false;
    }
  });
  clear(box, el);
}
