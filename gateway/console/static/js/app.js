// The console's shell: sign-in, navigation and a hash router (#/rooms, #/combat/<id>, ...).
import { session } from "./api.js";
import { clear, h } from "./dom.js";
import { lang, setLang, t } from "./i18n.js";
import { signInView } from "./views/signin.js";
import { roomsView } from "./views/rooms.js";
import { combatView } from "./views/combat.js";
import { charactersView } from "./views/characters.js";
import { characterView } from "./views/character.js";
import { settingsView } from "./views/settings.js";
import { keysView } from "./views/keys.js";

const main = document.getElementById("main");
let cleanup = null;

const ROUTES = [
  [/^#\/rooms$/, () => roomsView],
  [/^#\/combat\/([\w.:-]+)$/, () => combatView],
  [/^#\/characters$/, () => charactersView],
  [/^#\/characters\/([\w.:-]+)(?:\?new=(\w+))?$/, () => characterView],
  [/^#\/settings$/, () => settingsView, true],
  [/^#\/keys$/, () => keysView, true],
];

function nav() {
  const links = [
    ["#/rooms", t("nav.rooms")],
    ["#/characters", t("nav.characters")],
    ...(session.isModerator ? [["#/settings", t("nav.settings")], ["#/keys", t("nav.keys")]] : []),
  ];
  const here = location.hash.split("/").slice(0, 2).join("/");
  clear(
    document.getElementById("nav"),
    session.key
      ? h(
          "ul",
          {},
          links.map(([href, text]) =>
            h("li", {}, h("a", { href, "aria-current": href === here ? "page" : null }, text)),
          ),
        )
      : null,
  );
  document.getElementById("brand").textContent = t("app.title");
  document.querySelector(".skip").textContent = t("app.skip");
  document.getElementById("nav").setAttribute("aria-label", t("nav.label"));
  const langButton = document.getElementById("lang");
  langButton.textContent = lang() === "es" ? "EN" : "ES";
  langButton.setAttribute("aria-label", lang() === "es" ? "English" : "Español");
  const out = document.getElementById("signout");
  out.hidden = !session.key;
  out.textContent = t("nav.signout");
}

async function route() {
  if (cleanup) cleanup();
  cleanup = null;
  nav();
  const ctx = { main, announce };
  if (!session.key) {
    document.title = t("signin.title");
    cleanup = await signInView(main, ctx, () => {
      location.hash = "#/rooms";
      route();
    });
    return;
  }
  const hash = location.hash || "#/rooms";
  for (const [pattern, view, moderatorOnly] of ROUTES) {
    const match = hash.match(pattern);
    if (!match) continue;
    if (moderatorOnly && !session.isModerator) break;
    clear(main, h("p", { class: "loading" }, t("app.loading")));
    try {
      cleanup = (await view()(main, ctx, ...match.slice(1))) || null;
    } catch (err) {
      clear(main, h("p", { class: "error", role: "alert" }, `${t("app.failed")}: ${err.message}`));
    }
    return;
  }
  location.hash = "#/rooms";
}

function announce(text) {
  const box = document.getElementById("announcer");
  box.textContent = "";
  setTimeout(() => (box.textContent = text), 50);
}

document.getElementById("lang").addEventListener("click", () => {
  setLang(lang() === "es" ? "en" : "es");
  route();
});
document.getElementById("signout").addEventListener("click", () => {
  session.clear();
  location.hash = "";
  route();
});
window.addEventListener("hashchange", () => {
  route();
  main.focus({ preventScroll: true });
});
route();
