// The combat's narrated log: each event's sentence (the server's `text`), each hit's damage
// step by step with its rule, and each roll's dice (kept and dropped).
import { fmtNumber, fmtTime, h } from "../dom.js";
import { t, word } from "../i18n.js";
import { nameOf } from "./shared.js";

const QUIET = new Set(["action.completed", "combat.dice_seeded"]);

export function logEntry(event, names) {
  if (QUIET.has(event.type)) return null;
  const data = event.data || {};
  return h(
    "li",
    { class: `log-entry ev-${event.type.replace(/\./g, "-")}`, "data-type": event.type, "data-id": event.id },
    h("time", { datetime: event.occurred_at }, fmtTime(event.occurred_at).split(" ").pop()),
    h("p", { class: "text" }, event.text || fallbackText(event, names)),
    event.type === "action.resolved" ? breakdown(data, names) : null,
    event.type === "dice.rolled" ? diceFaces(data) : null,
  );
}

// Until the server narrates (`text`), a short sentence from the data.
function fallbackText(event, names) {
  const d = event.data || {};
  const n = (id) => nameOf(names, id);
  const vars = {
    actor: n(d.actor || d.attacker || d.character || d.reactor || d.joiner || d.roller || ""),
    reactor: n(d.reactor || ""),
    phase: d.to ? word("phase", d.to) : "",
    target: n((d.targets && d.targets[0]) || d.target || ""),
    skill: d.skill || d.attack || t("log.no_skill"),
    round: d.round ?? "",
    winner: d.winner ? word("enum", d.winner) : t("log.nobody"),
    reason: d.reason ? word("result", d.reason) : "",
    code: d.code || "",
    rule: d.rule || "",
    total: d.total ?? "",
    spec: d.spec || "",
  };
  const key = `log.${event.type}`;
  const sentence = t(key, vars);
  if (sentence !== key) return sentence;
  if (event.type === "action.resolved") {
    return (d.results || [])
      .map((r) =>
        r.damage === undefined && r.vit_pct_after !== undefined
          ? t("log.hit_bar", { attacker: n(d.attacker), target: n(r.target), skill: d.skill || "", after: r.vit_pct_after })
          : t("log.hit", { attacker: n(d.attacker), target: n(r.target), skill: d.skill || "", damage: fmtNumber(r.damage), before: fmtNumber(r.vit_before), after: fmtNumber(r.vit_after) }),
      )
      .join(" ");
  }
  return word("event", event.type);
}

function breakdown(data, names) {
  const results = (data.results || []).filter((r) => Array.isArray(r.steps) && r.steps.length);
  if (!results.length) return null; // a miss, or a player view that hides the numbers
  return h(
    "details",
    { class: "breakdown" },
    h("summary", {}, t("log.breakdown")),
    results.map((r) =>
      h(
        "table",
        { class: "steps" },
        h("caption", {}, `${nameOf(names, r.target)} · ${t("log.damage")} ${fmtNumber(r.damage)}`, defendedWith(r.reaction)),
        h(
          "thead",
          {},
          h("tr", {}, [t("log.step"), t("log.rule"), t("log.before"), t("log.after"), t("log.why")].map((x) => h("th", { scope: "col" }, x))),
        ),
        h(
          "tbody",
          {},
          // umh 8.1.1.3: each further defense against a skill reactable several times as a row
          (r.steps || []).flatMap((s) => (s.step === "further_defenses" ? s.answers || [] : [s])).map((s) =>
            h(
              "tr",
              { class: s.before !== s.after ? "changed" : null },
              h("th", { scope: "row" }, word("step", s.step)),
              h("td", {}, s.rule || "—"),
              h("td", { class: "num" }, fmtNumber(s.before)),
              h("td", { class: "num" }, fmtNumber(s.after)),
              h("td", {}, stepDetails(s)),
            ),
          ),
        ),
      ),
    ),
  );
}

// " · defended with Bloqueo, Escudo": the reaction's skill, then its further ones (umh 8.1.1.3).
function defendedWith(reaction) {
  const skills = [reaction?.skill, ...(reaction?.more || []).map((m) => m.skill)].filter(Boolean);
  return skills.length ? ` · ${t("log.defended", { skill: skills.join(", ") })}` : "";
}

function stepDetails(step) {
  return Object.entries(step)
    .filter(([k]) => !["step", "rule", "before", "after"].includes(k))
    .map(([k, v]) => `${word("field", k)}: ${shown(v)}`)
    .join(" · ");
}

function shown(v) {
  if (typeof v === "boolean") return word("ui", v ? "yes" : "no");
  if (Array.isArray(v)) return v.map(shown).join(", ");
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  return typeof v === "string" ? word("enum", v) : fmtNumber(v);
}

// Each die's faces (an exploding die rolls on); the kept ones stand out, the others are struck.
export function diceFaces(roll) {
  const kept = [...(roll.kept || [])];
  const dice = roll.dice || [];
  return h(
    "p",
    { class: "dice", "aria-label": t("dice.roll_label", { spec: roll.spec, total: roll.total }) },
    h("span", { class: "spec" }, roll.spec),
    " ",
    dice.map((faces) => {
      const value = faces.reduce((a, b) => a + b, 0);
      const at = kept.indexOf(value);
      const isKept = at >= 0;
      if (isKept) kept.splice(at, 1);
      return h(
        isKept ? "strong" : "del",
        { class: `die ${isKept ? "kept" : "dropped"}`, title: isKept ? t("dice.kept") : t("dice.dropped") },
        faces.join("+"),
      );
    }),
    " = ",
    h("b", {}, roll.total),
    roll.purpose ? h("small", {}, ` · ${word("purpose", roll.purpose)}`) : null,
  );
}
