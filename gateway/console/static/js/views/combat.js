// Screen 3: one combat, live. Sides and fighters, turn order, clocks, the narrated log, the dice,
// the aftermath once it ends, and (for a signed-in key) acting for a character.
import { get, openapi, session } from "../api.js";
import { clear, fmtTime, h, keepFocus } from "../dom.js";
import { t, word } from "../i18n.js";
import { openStream } from "../stream.js";
import { actionPanel } from "./actions.js";
import { diceSection } from "./dice.js";
import { clocks, sidesView, terrainList, turnOrder } from "./fighters.js";
import { shownOnce, viewerLink } from "./keys.js";
import { logEntry } from "./log.js";
import { nameOf, phaseBadge, section, statusLine } from "./shared.js";

export function combatView(main, ctx, id) {
  return combatScreen(main, ctx, id, { player: false });
}

// player: the player view (view=player everywhere, nothing to act with).
export async function combatScreen(main, ctx, id, { player }) {
  const query = player ? { view: "player" } : {};
  const sheets = {};
  const names = {};
  const seen = new Set();
  let combat = await get(`/v1/combats/${id}`, { query });
  const doc = player ? null : await openapi();

  const live = h("span", { class: "live-state", "aria-live": "polite" }, t("stream.connecting"));
  const head = h("div", { class: "combat-head" });
  const sides = h("div", { id: "sides" });
  const order = h("div", { id: "turn-order" });
  const clockBox = h("div", { id: "clocks" });
  const terrainBox = h("div", { id: "terrain" });
  const logList = h("ol", { class: "log", id: "log", "aria-live": "polite", "aria-relevant": "additions" });
  const diceBox = h("div", { id: "dice" });
  const after = h("div", { id: "aftermath" });
  const panel = player ? null : actionPanel({ doc, names, skillsOf, attacksOf, onCombat: apply });

  clear(
    main,
    h("div", { class: "title-row" }, head, live),
    h(
      "div",
      { class: "combat-grid" },
      h("div", { class: "main-col" }, sides, section(t("combat.log"), "h-log", h("div", { class: "log-box", id: "log-box" }, logList))),
      h(
        "div",
        { class: "side-col" },
        section(t("combat.order"), "h-order", order),
        section(t("combat.clocks"), "h-clocks", clockBox),
        combat.ruleset === "umh" ? section(t("terrain.title"), "h-terrain", terrainBox) : null,
        panel ? panel.el : null,
        !player && session.isModerator ? viewerBox(id) : null,
        section(t("combat.dice"), "h-dice", diceBox),
        player ? null : h("div", { id: "aftermath-box" }, after),
      ),
    ),
  );

  function learnSheets(event) {
    const given = event.data?.sheets || (event.data?.sheet && { [event.data.character || event.data.joiner]: event.data.sheet });
    for (const [cid, sheet] of Object.entries(given || {})) {
      if (!sheet) continue;
      sheets[cid] = sheet;
      if (sheet.name) names[cid] = sheet.name;
    }
  }

  function skillsOf(cid) {
    const list = sheets[cid]?.skills; // umh: a list of skills; l5r: ranks by skill name
    return Array.isArray(list) ? list.filter((s) => s && typeof s === "object" && s.name) : [];
  }

  function attacksOf(cid) {
    const sheet = sheets[cid] || {};
    return [...(sheet.attacks || []).map((a) => a.name), ...(sheet.weapon?.name ? [sheet.weapon.name] : [])];
  }

  function addEvent(event) {
    if (!event || seen.has(event.id)) return;
    seen.add(event.id);
    learnSheets(event);
    const entry = logEntry(event, names);
    if (!entry) return;
    const box = document.getElementById("log-box");
    const atEnd = !box || box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    logList.append(entry);
    if (box && atEnd) box.scrollTop = box.scrollHeight;
  }

  function render() {
    document.title = `${combat.room} · ${t("combat.title")}`;
    const result = combat.result;
    clear(
      head,
      h("h1", {}, `${t("combat.title")} · ${combat.room}`),
      h(
        "p",
        { class: "facts" },
        h("span", { class: "badge" }, word("ruleset", combat.ruleset)),
        " ",
        phaseBadge(combat.phase),
        combat.round ? ` · ${t("combat.round", { n: combat.round })}` : "",
        ` · v${combat.version}`,
        result ? h("strong", { class: "result", id: "result" }, ` · ${t("combat.result", { winner: result.winner ? word("enum", result.winner) : t("log.nobody"), reason: word("result", result.reason) })}`) : null,
      ),
    );
    keepFocus(() => {
      clear(sides, sidesView(combat, names));
      clear(order, turnOrder(combat, names));
      clear(clockBox, clocks(combat, names));
      clear(terrainBox, terrainList(combat, names));
      if (panel) panel.update(combat);
    });
  }

  function apply(next) {
    if (next && next.version >= combat.version) {
      combat = next;
      render();
      if (combat.phase === "ended" && !player) aftermath();
    }
  }

  async function aftermath() {
    const ids = Object.keys(combat.participants || {});
    const rows = await Promise.all(
      ids.map(async (cid) => {
        try {
          return [cid, await get(`/v1/characters/${cid}/status`)];
        } catch {
          return [cid, null];
        }
      }),
    );
    clear(
      after,
      section(
        t("combat.aftermath"),
        "h-aftermath",
        h(
          "ul",
          { class: "plain aftermath" },
          rows.map(([cid, s]) =>
            h(
              "li",
              { "data-character": cid },
              h("a", { href: `#/characters/${cid}` }, nameOf(names, cid)),
              s ? `: ${summary(s)}` : "",
            ),
          ),
        ),
      ),
    );
  }

  function summary(s) {
    const bits = [];
    if (s.vigor_lost) bits.push(t("after.vigor_lost", { n: s.vigor_lost }));
    if (s.immune_until) bits.push(t("after.immune", { until: fmtTime(s.immune_until) }));
    for (const ban of s.room_bans || []) bits.push(t("after.room_ban", { room: ban.room, until: fmtTime(ban.until) }));
    for (const [name, until] of Object.entries(s.cooldowns || {})) bits.push(t("after.cooldown", { name, until: fmtTime(until) }));
    if (s.imprisoned_until) bits.push(t("after.imprisoned", { until: fmtTime(s.imprisoned_until) }));
    return bits.length ? bits.join(" · ") : t("after.nothing");
  }

  async function loadLog() {
    let next = null;
    do {
      const page = await get(`/v1/combats/${id}/log`, { query: { ...query, after: next } });
      for (const event of page.events) addEvent(event);
      next = page.next;
    } while (next);
  }

  async function refreshDice() {
    try {
      clear(diceBox, await diceSection(id, query));
    } catch (err) {
      clear(diceBox, h("p", { class: "empty" }, player ? t("dice.not_shown") : err.message));
    }
  }

  let timer = null;
  let diceTimer = null;
  let loaded = false;
  const early = []; // live events that arrive before the log: shown after it, in order
  // The combat read again shortly after events arrive (a burst reads it once); a read that
  // fails is tried again a few times, since the events that asked for it may be the last.
  const refresh = (attempt = 0) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        apply(await get(`/v1/combats/${id}`, { query }));
      } catch {
        if (attempt < 3) refresh(attempt + 1);
      }
    }, attempt ? 1000 : 80);
  };
  const stream = openStream(
    { combat: id, ...query },
    {
      onEvent: (event) => {
        if (loaded) addEvent(event);
        else early.push(event);
        refresh();
        if (["dice.rolled", "combat.ended"].includes(event.type)) {
          clearTimeout(diceTimer);
          diceTimer = setTimeout(refreshDice, 150);
        }
      },
      onReset: () => loadLog().then(refresh),
      onState: (state) => (live.textContent = t(`stream.${state}`)),
    },
  );
  await loadLog();
  loaded = true;
  early.splice(0).forEach(addEvent);
  render();
  // What was committed between the first read and the stream's start is in the log but
  // reached no live event: read the combat once more.
  refresh();
  await refreshDice();
  if (combat.phase === "ended" && !player) await aftermath();
  return () => {
    stream.close();
    clearTimeout(timer);
    clearTimeout(diceTimer);
  };
}

// A moderator hands out a viewer link to this combat from its page.
function viewerBox(combatId) {
  const out = h("div", { "aria-live": "polite" });
  const status = statusLine();
  const button = h("button", { type: "button", id: "combat-viewer-link" }, t("keys.viewer"));
  button.addEventListener("click", async () => {
    try {
      const { link, until } = await viewerLink(combatId);
      const help = until ? t("keys.viewer_until", { until: fmtTime(until) }) : t("keys.viewer_help");
      clear(out, shownOnce(t("keys.viewer_created"), link, "combat-link"), h("p", { class: "help" }, help));
    } catch (err) {
      status.fail(err.status === 422 ? t("keys.no_viewer_scope") : err);
    }
  });
  return section(t("keys.viewer_title"), "h-viewer", h("p", { class: "help" }, t("keys.viewer_intro")), button, status.el, out);
}
