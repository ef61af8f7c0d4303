// The player view (player.html#combat=<id>&token=<stream token> or &key=<viewer key>): one
// combat, read-only, as the community's visibility settings let players see it
// (view=player), for a forum or Discord iframe. The fragment is never sent to a server; the
// token or key is kept in this page's memory only.
import { session } from "./api.js";
import { clear, h } from "./dom.js";
import { setLang, t } from "./i18n.js";
import { combatScreen } from "./views/combat.js";

const main = document.getElementById("main");
const params = new URLSearchParams(location.hash.slice(1));
if (params.get("lang")) setLang(params.get("lang"));
const combat = params.get("combat");
if (params.get("token")) session.useToken(params.get("token"));
else if (params.get("key")) session.useKey(params.get("key"));

function announce(text) {
  document.getElementById("announcer").textContent = text;
}

if (!combat || !(session.key || session.token)) {
  clear(main, h("p", { class: "error", role: "alert" }, t("player.bad_link")));
} else {
  combatScreen(main, { announce }, combat, { player: true }).catch((err) => {
    clear(main, h("p", { class: "error", role: "alert" }, `${t("player.failed")}: ${err.message}`));
  });
}
