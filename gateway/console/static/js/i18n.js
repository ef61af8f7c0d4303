// Spanish first, English on request: one dictionary per language (lang/es.js, lang/en.js).
import es from "./lang/es.js";
import en from "./lang/en.js";

const DICTIONARIES = { es, en };
const STORE = "referee.lang";
let current = localStorage.getItem(STORE) === "en" ? "en" : "es";

export const lang = () => current;

export function setLang(next) {
  current = next === "en" ? "en" : "es";
  localStorage.setItem(STORE, current);
  document.documentElement.lang = current;
}

// t("signin.welcome", {scope: "moderador"}): the sentence in the current language, {name} filled in.
export function t(key, vars = {}) {
  const text = DICTIONARIES[current][key] ?? DICTIONARIES.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

// A word of the API (a field, a step, a status...) in the current language, or itself.
export function word(group, name) {
  const key = `${group}.${name}`;
  return DICTIONARIES[current][key] ?? DICTIONARIES.es[key] ?? String(name);
}

document.documentElement.lang = current;
