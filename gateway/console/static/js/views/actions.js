// Acting for a character (a moderator or a frontend key runs the combat from the page): the
// usual umh moves in one click, every other action of the combat's ruleset from its schema.
import { idempotency, post, session, unionMembers, requestSchema } from "../api.js";
import { clear, h } from "../dom.js";
import { buildForm } from "../form.js";
import { t, word } from "../i18n.js";
import { nameOf, section, statusLine } from "./shared.js";

export function actionPanel(ctx) {
  const status = statusLine();
  const quick = h("div", { class: "quick" });
  const generic = h("div", { class: "generic" });
  const el = section(t("act.title"), "h-act", status.el, quick, generic);
  let combat = null;
  let builtFor = null; // the actor the generic form was filled in for
  let chosenType = null;

  async function send(body, button) {
    if (button) button.disabled = true;
    status.clear();
    try {
      const answer = await post(`/v1/combats/${combat.id}/actions`, body, { headers: idempotency() });
      if (answer.status === "pending") status.ok(t("act.pending"));
      else {
        const told = (type) => (answer.events || []).filter((e) => e.type === type && e.text).map((e) => e.text);
        const said = [told("action.resolved"), told("action.declared"), told("combat.ended")].find((x) => x.length)?.join(" ")
          || (answer.events || []).map((e) => e.text).filter(Boolean).slice(-1)[0];
        status.ok(said || t("act.done", { type: word("action", body.type) }));
        ctx.onCombat(answer.combat);
      }
      return answer;
    } catch (err) {
      status.fail(err);
      throw err;
    } finally {
      if (button) button.disabled = false;
    }
  }

  function update(next) {
    combat = next;
    clear(quick, combat.phase === "ended" ? h("p", { class: "empty" }, t("act.ended")) : quickActions());
    if (combat.phase === "ended") clear(generic);
    else if (!generic.firstChild) clear(generic, genericForm());
    else if (!generic.contains(document.activeElement) && defaultActor() !== builtFor) {
      clear(generic, genericForm()); // the turn moved on and nobody is filling the form in
    }
  }

  function quickActions() {
    const parts = [];
    if (combat.ruleset === "umh" && combat.turn?.actor && combat.phase === "fighting") parts.push(turnActions());
    for (const r of combat.pending_reactions || []) parts.push(reactionRow(r));
    for (const j of combat.pending_joins || []) parts.push(vetoRow(j));
    if (session.isModerator) parts.push(annulRow());
    return parts;
  }

  function turnActions() {
    const actor = combat.turn.actor;
    const skills = ctx.skillsOf(actor).filter((s) => s.type !== "defensive");
    const foes = opponentsOf(actor);
    const select = h("select", { id: "quick-skill" }, skills.map((s) => h("option", { value: s.name }, `${s.name} (${s.pa ?? "?"} ${t("combat.pa")})`)));
    const targets = foes.map((id) => {
      const box = h("input", { type: "checkbox", id: `quick-target-${id}`, value: id, checked: foes.length === 1 });
      return { box, el: h("span", { class: "choice" }, box, h("label", { for: box.id }, nameOf(ctx.names, id))) };
    });
    const use = h("button", { type: "button", class: "primary", id: "quick-use" }, t("act.use"));
    use.addEventListener("click", () =>
      send({ type: "skill", actor, skill: select.value, targets: targets.filter((x) => x.box.checked).map((x) => x.box.value) }, use).catch(() => {}),
    );
    const pass = h("button", { type: "button", id: "quick-pass" }, t("act.pass"));
    pass.addEventListener("click", () => send({ type: "pass_turn", actor }, pass).catch(() => {}));
    return h(
      "div",
      { class: "quick-row", "aria-label": t("act.turn_of", { name: nameOf(ctx.names, actor) }) },
      h("h3", {}, t("act.turn_of", { name: nameOf(ctx.names, actor) })),
      skills.length ? [h("label", { for: "quick-skill" }, t("act.skill")), select] : null,
      h("fieldset", { class: "choices" }, h("legend", {}, t("act.targets")), targets.map((x) => x.el)),
      h("div", { class: "buttons" }, skills.length ? use : null, pass),
    );
  }

  function reactionRow(r) {
    const defenses = ctx.skillsOf(r.reactor).filter((s) => s.type === "defensive");
    const id = `react-${r.reactor}-${r.action_id.slice(-6)}`;
    const select = h("select", { id: `${id}-skill` }, defenses.map((s) => h("option", { value: s.name }, s.name)));
    const base = { type: "react", actor: r.reactor, action_id: r.action_id };
    const defend = h("button", { type: "button", class: "primary", id: `${id}-defend` }, t("act.defend"));
    defend.addEventListener("click", () => send({ ...base, skill: select.value }, defend).catch(() => {}));
    const take = h("button", { type: "button", id: `${id}-take` }, t("act.take"));
    take.addEventListener("click", () => send({ ...base, skill: null }, take).catch(() => {}));
    const resist = h("button", { type: "button", id: `${id}-resist` }, t("act.resist"));
    resist.addEventListener("click", () => send({ ...base, skill: null, resist: true }, resist).catch(() => {}));
    return h(
      "div",
      { class: "quick-row reaction", "data-reactor": r.reactor },
      h(
        "h3",
        {},
        t("act.react_of", { name: nameOf(ctx.names, r.reactor), skill: r.skill || "", attacker: nameOf(ctx.names, r.attacker) }) +
          (r.answers_left ? t("act.answers_left", { n: r.answers_left }) : ""),
      ),
      defenses.length ? [h("label", { for: `${id}-skill` }, t("act.defense")), select, defend] : null,
      h("div", { class: "buttons" }, take, combat.ruleset === "umh" ? resist : null),
    );
  }

  function vetoRow(j) {
    const voters = (combat.sides?.[j.side] || []).filter((id) => id !== j.joiner);
    const select = h("select", { id: `veto-${j.joiner}-voter` }, voters.map((id) => h("option", { value: id }, nameOf(ctx.names, id))));
    const veto = h("button", { type: "button", id: `veto-${j.joiner}` }, t("act.veto"));
    veto.addEventListener("click", () => send({ type: "veto_join", actor: select.value, joiner: j.joiner }, veto).catch(() => {}));
    return h(
      "div",
      { class: "quick-row" },
      h("h3", {}, t("act.join_of", { name: nameOf(ctx.names, j.joiner), side: word("enum", j.side), via: word("enum", j.via || ""), n: (j.vetoes || []).length, needed: j.vetoes_needed ?? "?" })),
      h("label", { for: select.id }, t("act.voter")),
      select,
      veto,
    );
  }

  function annulRow() {
    const reason = h("input", { id: "annul-reason", type: "text", required: true, maxlength: 500 });
    const button = h("button", { type: "submit", class: "danger", id: "annul" }, t("act.annul"));
    const form = h("form", { class: "quick-row annul" }, h("label", { for: "annul-reason" }, t("act.reason")), reason, button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!reason.value.trim()) return reason.focus();
      const actor = combat.sides?.attackers?.[0];
      send({ type: "annul", actor, reason: reason.value.trim() }, button).catch(() => {});
    });
    return form;
  }

  function genericForm() {
    const members = unionMembers(ctx.doc, requestSchema(ctx.doc, "/v1/combats/{combat_id}/actions", "post"));
    const prefix = combat.ruleset === "umh" ? null : `${combat.ruleset}.`;
    const types = Object.keys(members).filter((type) => (prefix ? type.startsWith(prefix) : !type.includes(".")));
    const typeSelect = h("select", { id: "action-type" }, types.map((type) => h("option", { value: type }, word("action", type))));
    const box = h("div");
    const button = h("button", { type: "submit", class: "primary", id: "action-submit" }, t("act.send"));
    let form = null;
    if (chosenType && types.includes(chosenType)) typeSelect.value = chosenType;
    const rebuild = () => {
      const ids = Object.keys(combat.participants || {});
      const actor = defaultActor();
      builtFor = actor;
      chosenType = typeSelect.value;
      const hints = {
        actor: ids,
        target: ids,
        targets: ids,
        joiner: (combat.pending_joins || []).map((j) => j.joiner),
        action_id: (combat.pending_reactions || []).map((r) => r.action_id),
        skill: [...new Set(ids.flatMap((id) => ctx.skillsOf(id).map((s) => s.name)))],
        attack: [...new Set(ids.flatMap((id) => ctx.attacksOf(id)))],
      };
      form = buildForm(ctx.doc, members[typeSelect.value], { actor }, { hints, collapse: true });
      clear(box, form.el);
    };
    typeSelect.addEventListener("change", rebuild);
    rebuild();
    const el = h(
      "form",
      { id: "action-form", class: "action-form" },
      h("h3", {}, t("act.other")),
      h("div", { class: "field" }, h("label", { for: "action-type" }, t("act.type")), typeSelect),
      box,
      button,
    );
    el.addEventListener("submit", async (event) => {
      event.preventDefault();
      form.clearErrors();
      try {
        await send(form.read(), button);
      } catch (err) {
        form.showErrors(err.fieldErrors || []);
      }
    });
    return el;
  }

  function defaultActor() {
    const ids = Object.keys(combat.participants || {});
    return combat.turn?.actor || combat.pending_reactions?.[0]?.reactor || ids[0];
  }

  function opponentsOf(actor) {
    const mine = combat.participants?.[actor]?.side;
    return Object.entries(combat.participants || {})
      .filter(([id, p]) => id !== actor && p.side !== mine && !["down", "fled"].includes(p.status))
      .map(([id]) => id);
  }

  return { el, update };
}
