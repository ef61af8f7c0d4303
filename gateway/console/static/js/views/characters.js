// Screen 5a: the community's characters, with a search; a new character from a template.
import { known } from "../api.js";
import { clear, h } from "../dom.js";
import { t, word } from "../i18n.js";
import { characterList, emptyNote, section } from "./shared.js";

export async function charactersView(main) {
  document.title = t("chars.title");
  const search = h("input", { id: "char-search", type: "search", autocomplete: "off" });
  const results = h("div", { id: "char-results", "aria-live": "polite" });
  const newId = h("input", { id: "new-id", type: "text", required: true, pattern: "[A-Za-z0-9_.:-]{1,64}" });
  const newRuleset = h("select", { id: "new-ruleset" }, ["umh", "cypher", "l5r"].map((r) => h("option", { value: r }, word("ruleset", r))));
  const create = h(
    "form",
    { id: "new-character", class: "inline" },
    h("div", { class: "field" }, h("label", { for: "new-id" }, t("chars.id")), newId),
    h("div", { class: "field" }, h("label", { for: "new-ruleset" }, t("chars.ruleset")), newRuleset),
    h("button", { type: "submit", class: "primary" }, t("chars.create")),
  );
  create.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!newId.checkValidity()) return newId.reportValidity();
    location.hash = `#/characters/${newId.value}?new=${newRuleset.value}`;
  });
  const open = h("input", { id: "open-id", type: "text", pattern: "[A-Za-z0-9_.:-]{1,64}" });
  const opener = h(
    "form",
    { class: "inline" },
    h("div", { class: "field" }, h("label", { for: "open-id" }, t("chars.open_id")), open),
    h("button", { type: "submit" }, t("chars.open")),
  );
  opener.addEventListener("submit", (event) => {
    event.preventDefault();
    if (open.value) location.hash = `#/characters/${open.value}`;
  });

  clear(
    main,
    h("h1", {}, t("chars.title")),
    section(
      t("chars.list"),
      "h-list",
      h("div", { class: "field" }, h("label", { for: "char-search" }, t("chars.search")), search),
      results,
      opener,
    ),
    section(t("chars.new"), "h-new", create),
  );

  let timer = null;
  const row = (c) =>
    h(
      "li",
      {},
      h("a", { href: `#/characters/${c.id}` }, c.name ? `${c.name} (@${c.id})` : c.id),
      c.ruleset ? [" ", h("span", { class: "badge" }, word("ruleset", c.ruleset))] : null,
    );
  async function load() {
    const { items, listed, next } = await characterList(search.value.trim());
    const list = h("ul", { class: "plain chars" }, items.map(row));
    const more = h("button", { type: "button", class: "small", id: "chars-more", hidden: !next }, t("chars.more"));
    let cursor = next;
    more.addEventListener("click", async () => {
      const page = await characterList(search.value.trim(), cursor);
      list.append(...page.items.map(row));
      cursor = page.next;
      more.hidden = !cursor;
    });
    clear(
      results,
      listed ? null : h("p", { class: "help" }, t("chars.local_list")),
      items.length ? [list, more] : emptyNote(t("chars.none")),
    );
  }
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(load, 200);
  });
  await load();
  return () => clearTimeout(timer);
}

export const rememberCharacter = (id, sheet) => known.add("characters", { id, name: sheet.name, ruleset: sheet.ruleset });
