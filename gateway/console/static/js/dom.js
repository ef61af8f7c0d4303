// Small DOM helpers: elements are built with h(), never from HTML strings (no injection).
import { lang, t } from "./i18n.js";

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "text") el.textContent = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "for") el.htmlFor = value;
    else if (name === "value") el.value = value;
    else if (name === "checked" || name === "selected") el[name] = Boolean(value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let counter = 0;
export const uid = (prefix = "u") => `${prefix}-${++counter}`;

// --- numbers, times and clocks ---------------------------------------------------------------
let skewMs = 0; // server clock minus ours, from the Date header of the last answer

export function learnServerTime(dateHeader) {
  const server = Date.parse(dateHeader || "");
  if (!Number.isNaN(server)) skewMs = server + 500 - Date.now(); // Date has 1 s resolution
}

export const serverNow = () => Date.now() + skewMs;

export function fmtDuration(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86400);
  const hh = Math.floor((total % 86400) / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, "0");
  if (d > 0) return `${d}d ${hh}h ${String(mm).padStart(2, "0")}m`;
  if (hh > 0) return `${hh}:${String(mm).padStart(2, "0")}:${ss}`;
  return `${mm}:${ss}`;
}

export function fmtTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toLocaleString(lang() === "es" ? "es-ES" : "en-GB", {
    dateStyle: "short",
    timeStyle: "medium",
  });
}

export function fmtNumber(n) {
  if (typeof n !== "number") return String(n ?? "—");
  return n.toLocaleString(lang() === "es" ? "es-ES" : "en-GB", { maximumFractionDigits: 2 });
}

// A countdown: a <time role="timer"> the clock below updates; paused shows the time left.
export function countdown(deadline, { pausedSeconds = null, label = "" } = {}) {
  const el = h("time", { class: "clock", role: "timer", "aria-label": label || null });
  if (pausedSeconds !== null && pausedSeconds !== undefined) {
    el.dataset.paused = String(pausedSeconds * 1000);
    el.classList.add("paused");
  } else if (deadline) {
    el.dataset.deadline = deadline;
    el.dateTime = deadline;
  }
  renderClock(el);
  return el;
}

function renderClock(el) {
  if (el.dataset.paused !== undefined) {
    el.textContent = `${t("clock.paused")} · ${fmtDuration(Number(el.dataset.paused))}`;
    return;
  }
  const left = Date.parse(el.dataset.deadline) - serverNow();
  el.textContent = left > 0 ? fmtDuration(left) : t("clock.expired");
  el.classList.toggle("urgent", left > 0 && left <= 10000);
  el.classList.toggle("expired", left <= 0);
}

setInterval(() => {
  for (const el of document.querySelectorAll("time.clock[data-deadline]")) renderClock(el);
}, 250);

// A bar with role="meter": value of max, with its text beside it.
export function meter(label, value, max, { kind = "", text = null } = {}) {
  const known = typeof value === "number" && typeof max === "number" && max > 0;
  const pct = known ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  const fill = h("span", { class: "fill" });
  fill.style.width = `${pct}%`;
  const shown = text ?? (known ? `${fmtNumber(value)} / ${fmtNumber(max)}` : "—");
  const level = pct <= 25 ? "low" : pct <= 50 ? "mid" : "high";
  return h(
    "div",
    { class: `meter ${kind} ${level}` },
    h("span", { class: "meter-label" }, label),
    h(
      "span",
      {
        class: "bar",
        role: "meter",
        "aria-label": label,
        "aria-valuemin": 0,
        "aria-valuemax": known ? max : null,
        "aria-valuenow": known ? value : null,
        "aria-valuetext": shown,
      },
      fill,
    ),
    h("span", { class: "meter-value" }, shown),
  );
}

// Keep focus on the control with the same id across a re-render.
export function keepFocus(render) {
  const id = document.activeElement && document.activeElement.id;
  render();
  if (id) {
    const again = document.getElementById(id);
    if (again && again !== document.activeElement) again.focus();
  }
}
