// Pieces several screens share: names of characters, the status line, error messages, hints.
import { get, known, listPage } from "../api.js";
import { h } from "../dom.js";
import { word } from "../i18n.js";

// An error answer shown as text: its message, its code and the rule that refused it.
export function describeError(err) {
  const rule = err.rule ? ` (${err.rule})` : "";
  return `${err.message}${rule} [${err.code}]`;
}

// A polite status line for the result of an action (role=status) or an error (role=alert).
export function statusLine() {
  const el = h("p", { class: "status-line", role: "status" });
  return {
    el,
    ok(text) {
      el.className = "status-line ok";
      el.setAttribute("role", "status");
      el.textContent = text;
    },
    fail(err) {
      el.className = "status-line error";
      el.setAttribute("role", "alert");
      el.textContent = typeof err === "string" ? err : describeError(err);
    },
    clear() {
      el.textContent = "";
    },
  };
}

// The community's characters: GET /v1/characters (with ?q=) where the server lists them,
// else those this session created or saw in combats.
export async function characterList(q = "", cursor = null) {
  const page = await listPage("/v1/characters", ["characters", "items", "data"], { q, limit: 100, cursor });
  if (page) {
    return {
      listed: true,
      next: page.next,
      items: page.items.map((c) => (typeof c === "string" ? { id: c } : c)),
    };
  }
  const seen = known.all().characters.map((c) => (typeof c === "string" ? { id: c } : c));
  try {
    const { combats } = await get("/v1/combats", { query: { limit: 50 } });
    for (const combat of combats) {
      for (const id of Object.keys(combat.participants || {})) {
        if (!seen.some((c) => c.id === id)) seen.push({ id, ruleset: combat.ruleset });
      }
    }
  } catch {
    /* the list stays what this session knows */
  }
  const needle = q.toLowerCase();
  const items = seen.filter((c) => !needle || `${c.id} ${c.name || ""}`.toLowerCase().includes(needle));
  return { listed: false, next: null, items };
}

export function phaseBadge(phase) {
  return h("span", { class: `badge phase-${phase}` }, word("phase", phase));
}

export const nameOf = (names, id) => (names && names[id]) || id;

export function emptyNote(text) {
  return h("p", { class: "empty" }, text);
}

export function section(title, id, ...children) {
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), children);
}

