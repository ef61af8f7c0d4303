// A combat's sides, fighters, turn order and clocks (umh, cypher and l5r).
import { countdown, h, meter } from "../dom.js";
import { t, word } from "../i18n.js";
import { nameOf } from "./shared.js";

const SIDES = ["attackers", "defenders"];

export function sidesView(combat, names, { paMax = 10 } = {}) {
  const actor = combat.turn?.actor;
  return h(
    "div",
    { class: "sides" },
    SIDES.map((side) => {
      const members = combat.sides?.[side] || [];
      const slots = combat.slots_left?.[side];
      return h(
        "section",
        { class: `side ${side}`, "aria-labelledby": `h-${side}` },
        h(
          "h2",
          { id: `h-${side}` },
          word("side", side),
          slots !== undefined ? h("span", { class: "slots" }, t("combat.slots", { n: slots })) : null,
        ),
        members.map((id) => fighterCard(combat, id, names, id === actor, paMax)),
      );
    }),
  );
}

function fighterCard(combat, id, names, current, paMax) {
  const p = combat.participants?.[id] || {};
  const ruleset = combat.ruleset;
  const body =
    ruleset === "cypher" ? cypherBars(p) : ruleset === "l5r" ? l5rBars(p) : umhBars(p, paMax);
  return h(
    "article",
    {
      class: `fighter status-${p.status || "active"}${current ? " current" : ""}`,
      "data-fighter": id,
      "aria-current": current ? "true" : null,
      "aria-label": `${nameOf(names, id)}${current ? ` · ${t("combat.acting")}` : ""}`,
    },
    h(
      "header",
      {},
      h("h3", {}, nameOf(names, id), nameOf(names, id) !== id ? h("small", {}, ` @${id}`) : null),
      h("span", { class: `badge st-${p.status}` }, word("status", p.status || "active")),
      current ? h("span", { class: "badge turn" }, t("combat.acting")) : null,
    ),
    body,
    effectsList(p),
    extras(p),
  );
}

// VIT as the player view shows it: exact, a bar only (vit_pct), or nothing.
function vitMeter(p, named = null) {
  if (typeof p.vit === "number" && typeof p.vit_max === "number") {
    return meter(t("combat.vit"), p.vit, p.vit_max, { kind: "vit" });
  }
  const pct = p.vit_pct ?? p.vit_percent ?? p.vit_bar;
  if (typeof pct === "number") {
    return meter(t("combat.vit"), pct, 100, { kind: "vit", text: `${Math.round(pct)} %${named ? ` · ${named}` : ""}` });
  }
  return null;
}

function umhBars(p, paMax) {
  const max = Math.max(paMax + (p.pa_bonus || 0), p.pa ?? 0);
  const pos = p.position || {};
  return h(
    "div",
    { class: "bars" },
    vitMeter(p),
    typeof p.pa === "number" ? meter(t("combat.pa"), p.pa, max, { kind: "pa" }) : null,
    h(
      "p",
      { class: "facts" },
      pos.square ? `${t("combat.square")} ${pos.square.join(", ")}` : t("combat.off_grid"),
      pos.height ? ` · ${word("height", pos.height)}` : "",
      typeof p.movement_left === "number" ? ` · ${t("combat.movement", { n: p.movement_left })}` : "",
    ),
  );
}

function cypherBars(p) {
  const pools = p.pools || {};
  const maxes = p.pools_max || {};
  return h(
    "div",
    { class: "bars" },
    Object.keys(pools).map((pool) => meter(word("pool", pool), pools[pool], maxes[pool], { kind: "pool" })),
    !Object.keys(pools).length && typeof p.health !== "number" ? vitMeter(p) : null,
    typeof p.health === "number" ? meter(t("combat.health"), p.health, p.health_max, { kind: "vit" }) : null,
    h(
      "p",
      { class: "facts" },
      [
        p.track ? word("track", p.track) : null,
        p.armor !== undefined ? `${t("combat.armor")} ${p.armor}` : null,
        p.initiative !== null && p.initiative !== undefined ? `${t("combat.initiative")} ${p.initiative}` : null,
        p.stunned ? word("state", "stunned") : null,
        p.dazed_turns ? word("state", "dazed") : null,
      ].filter(Boolean).join(" · "),
    ),
  );
}

function l5rBars(p) {
  const table = p.wound_table || [];
  const max = table.length ? table[table.length - 1].up_to : null;
  return h(
    "div",
    { class: "bars" },
    typeof p.wounds === "number" && max
      ? meter(t("combat.wounds"), max - p.wounds, max, {
          kind: "vit",
          text: `${p.wounds} / ${max} · ${word("wound", p.wound_rank)}`,
        })
      : vitMeter(p, p.wound_rank ? word("wound", p.wound_rank) : null),
    typeof p.void_points === "number" ? meter(t("combat.void"), p.void_points, p.void_max, { kind: "pa" }) : null,
    h(
      "p",
      { class: "facts" },
      [
        p.stance ? word("stance", p.stance) : t("combat.no_stance"),
        p.tn_to_be_hit ? `${t("combat.tn")} ${p.tn_to_be_hit}` : null,
        p.initiative ? `${t("combat.initiative")} ${p.initiative}` : null,
        p.prone ? word("state", "prone") : null,
      ].filter(Boolean).join(" · "),
    ),
  );
}

function effectsList(p) {
  const effects = p.effects || [];
  const cooldowns = Object.entries(p.cooldowns || {}).filter(([, n]) => n);
  if (!effects.length && !cooldowns.length) return null;
  return h(
    "ul",
    { class: "effects", "aria-label": t("combat.effects") },
    effects.map((e) => {
      const left = e.actions_left ?? e.rounds_left ?? e.remaining ?? e.turns_left;
      const name = word("effect", e.type || e.kind || "?");
      return h(
        "li",
        { class: `effect ${e.kind || ""}` },
        name,
        e.amount !== undefined ? ` ${e.amount}` : "",
        left !== undefined ? h("span", { class: "left" }, ` · ${t("combat.left", { n: left })}`) : "",
      );
    }),
    cooldowns.map(([skill, n]) => h("li", { class: "effect cooldown" }, t("combat.cooldown", { skill, n }))),
  );
}

function extras(p) {
  const bits = [];
  if (p.disconnected) bits.push(t("combat.disconnected"));
  if (p.blocks && p.blocks.length) bits.push(`${t("combat.blocked")}: ${p.blocks.map((b) => word("block", b)).join(", ")}`);
  return bits.length ? h("p", { class: "facts warn" }, bits.join(" · ")) : null;
}

export function turnOrder(combat, names) {
  const order = combat.turn_order || [];
  if (!order.length) return h("p", { class: "empty" }, t("combat.no_order"));
  return h(
    "ol",
    { class: "turn-order" },
    order.map((id, i) => {
      const current = combat.turn && combat.turn.index === i && combat.turn.actor === id;
      return h("li", { class: current ? "current" : null, "aria-current": current ? "step" : null }, nameOf(names, id));
    }),
  );
}

// Every running clock: the turn (paused or not), the preparation round, each defense window
// and each join waiting for vetoes.
export function clocks(combat, names) {
  const rows = [];
  const turn = combat.turn;
  if (turn && (turn.deadline || turn.paused_remaining !== null)) {
    rows.push([
      t("clock.turn", { name: nameOf(names, turn.actor) }),
      countdown(turn.deadline, { pausedSeconds: turn.paused_remaining, label: t("clock.turn", { name: nameOf(names, turn.actor) }) }),
      "turn",
    ]);
  }
  if (combat.phase_deadline && combat.phase !== "ended") {
    rows.push([word("phase", combat.phase), countdown(combat.phase_deadline), "phase"]);
  }
  for (const r of combat.pending_reactions || []) {
    const label = t("clock.defense", { name: nameOf(names, r.reactor), skill: r.skill || "", attacker: nameOf(names, r.attacker) });
    rows.push([label, countdown(r.deadline, { label }), "defense"]);
  }
  for (const j of combat.pending_joins || []) {
    const label = t("clock.join", { name: nameOf(names, j.joiner), side: word("enum", j.side) });
    rows.push([label, countdown(j.deadline, { label }), "join"]);
  }
  if (!rows.length) return h("p", { class: "empty" }, t("clock.none"));
  return h(
    "dl",
    { class: "clocks" },
    rows.map(([label, clock, kind]) => h("div", { class: `clock-row ${kind}` }, h("dt", {}, label), h("dd", {}, clock))),
  );
}

// umh skills kept on the terrain (terrain_effects): kind, keeper, squares, rounds left.
export function terrainList(combat, names) {
  const effects = combat.terrain_effects || [];
  if (!effects.length) return h("p", { class: "empty" }, t("terrain.none"));
  return h(
    "ul",
    { class: "effects terrain" },
    effects.map((e) =>
      h(
        "li",
        { class: `effect terrain ${e.kind || ""}` },
        h("strong", {}, word("terrain", e.kind || "?")),
        ` · ${e.skill || ""} (${nameOf(names, e.keeper)})`,
        e.damage !== undefined ? ` · ${t("terrain.damage", { n: e.damage })}` : "",
        e.resistance !== undefined ? ` · ${t("terrain.resistance", { n: e.resistance })}` : "",
        ` · ${t("terrain.squares", { squares: (e.squares || []).map((q) => q.join(",")).join(" ") })}`,
        e.rounds_left !== undefined ? h("span", { class: "left" }, ` · ${t("combat.left", { n: e.rounds_left })}`) : "",
        e.passive ? ` · ${t("terrain.passive")}` : "",
      ),
    ),
  );
}
