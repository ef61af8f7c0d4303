"""umh narration of hits and effects: ``action.resolved`` (the damage each target took and the
rule that decided it, umh 9.1.1), ``effect.applied`` and ``effect.expired`` (umh 11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, label, pick

HITS: Final = Narrations(
    {
        "effect.applied/indirect": "umh 11.2",
        "effect.applied/control": "umh 11.4",
        "effect.applied/state": "umh 11.5",
        "effect.applied/booster": "umh 7.3",
        "effect.applied/reduction": "umh 9.4",
        "effect.applied/regeneration": "umh 2.3.6",
        "effect.applied/shield": "umh 9.7",
        "effect.applied/coating": "umh 9.2.6",
        "effect.expired/fallen": "umh 4.1.5",
        "effect.expired/fled": "umh 4.1.1.1",
    }
)

# The steps of the damage pipeline that take damage away, and what to call them when no
# skill of the target's did it.
CUTTERS: Final = {
    "defense": T("la defensa", "the defense"),
    "evasion": T("la evasión", "the evasion"),
    "resist": T("RESISTIR", "RESISTIR"),
    "resistance": T("la resistencia", "the resistance"),
    "reduction": T("la reducción", "the reduction"),
    "immunity": T("la inmunidad", "the immunity"),
    "shield": T("el escudo", "the shield"),
    "coating": T("el recubrimiento", "the coating"),
    "multi_impact": T("el reparto entre objetivos", "the split between targets"),
    "modifier": T("un modificador", "a modifier"),
}
STRIKES_BACK: Final = frozenset({"anticipation", "counter", "reflected"})
HARMFUL: Final = frozenset({"indirect", "control", "state"})


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _flat(steps: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The steps, with each further defense against a skill reactable several times (umh
    8.1.1.3, the ``further_defenses`` step) as a step of its own."""
    flat: list[Mapping[str, Any]] = []
    for step in steps:
        if step.get("step") == "further_defenses":
            flat += [a for a in step.get("answers") or [] if isinstance(a, Mapping)]
        else:
            flat.append(step)
    return flat


def decisive(steps: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The step that took the most damage away (umh 9.2 - 9.7, 8.1.1.3), if any did."""
    best: Mapping[str, Any] | None = None
    cut = 0.0
    for step in _flat(steps):
        if step.get("step") in CUTTERS:
            taken = _number(step.get("before")) - _number(step.get("after"))
            if taken > cut:
                best, cut = step, taken
    return best


def _why(e: Said, steps: list[Mapping[str, Any]]) -> str:
    """`` (Barrera absorbe 100, umh 9.2.1)``: the decisive step, else the rule of the blow."""
    step = decisive(steps)
    if step is not None:
        taken = _number(step.get("before")) - _number(step.get("after"))
        what = step.get("skill") or e.t(pick(CUTTERS, step.get("step"), CUTTERS["defense"]))
        return e.t(
            T(" ({what} absorbe {n}, {rule})", " ({what} absorbs {n}, {rule})"),
            what=what,
            n=e.num(taken),
            rule=step.get("rule"),
        )
    back = next((s for s in steps if s.get("step") in STRIKES_BACK), None)
    rule = back.get("rule") if back else None
    return f" ({rule or 'umh 9.1.1'})"


def effect_names(e: Said, effects: list[Mapping[str, Any]]) -> str:
    return e.names(label(x.get("type")) for x in effects)


def row_text(e: Said, row: Mapping[str, Any]) -> str:
    """What one hit did to one target."""
    target = e.name(row.get("target"))
    if row.get("already_down"):
        return e.t(T("{who} ya estaba fuera de combate", "{who} was already down"), who=target)
    steps = [s for s in row.get("steps") or [] if isinstance(s, Mapping)]
    damage = row.get("damage", 0)
    parts: list[str] = []
    if "damage" not in row and "hurt" in row:  # the player view: no numbers (docs/views.md)
        parts.append(hidden_harm(e, target, row))
    elif damage:
        parts.append(
            e.t(
                T(
                    "{who} recibe {n} de daño, VIT {b} → {a}",
                    "{who} takes {n} damage, VIT {b} → {a}",
                ),
                who=target,
                n=e.num(damage),
                b=e.num(row.get("vit_before")),
                a=e.num(row.get("vit_after")),
            )
            + _why(e, steps)
        )
    elif steps:
        parts.append(
            e.t(T("{who} no recibe daño", "{who} takes no damage"), who=target) + _why(e, steps)
        )
    effects = [x for x in row.get("effects") or [] if isinstance(x, Mapping)]
    harmful = [x for x in effects if x.get("kind") in HARMFUL]
    helpful = [x for x in effects if x.get("kind") not in HARMFUL]
    subject = T(" y", " and") if parts else T("{who}", "{who}")
    for found, verb in ((harmful, T("sufre", "suffers")), (helpful, T("obtiene", "gains"))):
        if found:
            parts.append(e.t(subject, who=target) + f" {e.t(verb)} {effect_names(e, found)}")
            subject = T(" y", " and")
    return "".join(parts) or e.t(T("{who} queda igual", "{who} is not affected"), who=target)


def hidden_harm(e: Said, who: str, row: Mapping[str, Any]) -> str:
    """A hit whose damage the player view hides: hurt or not, and the bar if it shows one."""
    if not row.get("hurt"):
        return e.t(T("{who} no recibe daño", "{who} takes no damage"), who=who)
    text = e.t(T("{who} recibe daño", "{who} takes damage"), who=who)
    if row.get("vit_pct_after") is not None:
        text += e.t(
            T(" (VIT {b} % → {a} %)", " (VIT {b}% → {a}%)"),
            b=e.num(row.get("vit_pct_before")),
            a=e.num(row.get("vit_pct_after")),
        )
    return text


@HITS.on("action.resolved")
def action_resolved(e: Said) -> str:
    hits = int(e.get("hits") or 1)
    head = e.t(
        T("{skill} de {actor}", "{actor}'s {skill}"), skill=e.get("skill"), actor=e.who("attacker")
    )
    if hits > 1:
        head += e.t(T(" (golpe {n} de {of})", " (hit {n} of {of})"), n=e.get("hit"), of=hits)
    error = e.get("error")
    if isinstance(error, Mapping):
        return e.t(
            T("{head} no se pudo resolver ({code})", "{head} could not be resolved ({code})"),
            head=head,
            code=error.get("code"),
        )
    rows = [row_text(e, r) for r in e.get("results") or [] if isinstance(r, Mapping)]
    if e.get("cancelled"):
        head += e.t(T(" no llega a impactar", " never lands"))
    ignored = e.get("ignored_targets") or []
    if ignored:
        rows.append(e.t(T("no afecta a {who}", "{who} is not affected"), who=e.names(ignored)))
    if not rows:
        return head + e.t(T(": sin efecto", ": no effect"))
    return f"{head}: {'; '.join(rows)}"


def _amount(e: Said, effect: Mapping[str, Any]) -> str:
    return e.num(effect.get("amount")) if effect.get("amount") is not None else ""


EFFECTS: Final = {
    "indirect": T(
        "{who} sufre {type}: {amount} de daño por acción",
        "{who} suffers {type}: {amount} damage per action",
    ),
    "control": T("{who} sufre {type}", "{who} suffers {type}"),
    "state": T("{who} sufre el estado {type}", "{who} suffers the state {type}"),
    "booster": T(
        "{who} obtiene el potenciador {type} (+{amount} %)",
        "{who} gains the booster {type} (+{amount}%)",
    ),
    "reduction": T(
        "{who} obtiene una reducción de {type} del {amount} %",
        "{who} gains a {amount}% {type} reduction",
    ),
    "regeneration": T(
        "{who} regenera {amount} por turno ({type})", "{who} regenerates {amount} per turn ({type})"
    ),
    "shield": T(
        "{who} obtiene el escudo {type} ({amount})", "{who} gains the shield {type} ({amount})"
    ),
    "coating": T("{who} obtiene el recubrimiento {type}", "{who} gains the coating {type}"),
    "increase": T(
        "{who} obtiene el aumento {type} ({amount})", "{who} gains the increase {type} ({amount})"
    ),
}
ACTIONS = T("durante {n} acciones", "for {n} actions")
ONE_ACTION = T("durante 1 acción", "for 1 action")


HIDDEN_AMOUNT: Final = {
    "indirect": T("{who} sufre {type}", "{who} suffers {type}"),
    "booster": T("{who} obtiene el potenciador {type}", "{who} gains the booster {type}"),
    "reduction": T("{who} obtiene la reducción {type}", "{who} gains the reduction {type}"),
    "regeneration": T("{who} obtiene la regeneración {type}", "{who} gains {type} regeneration"),
    "shield": T("{who} obtiene el escudo {type}", "{who} gains the shield {type}"),
    "increase": T("{who} obtiene el aumento {type}", "{who} gains the increase {type}"),
}


LIMBS: Final = {
    "brazo": T("(un brazo)", "(an arm)"),
    "pierna": T("(una pierna)", "(a leg)"),
    "ala": T("(un ala)", "(a wing)"),
}


@HITS.on("effect.applied")
def effect_applied(e: Said) -> str:
    effect = e.get("effect") or {}
    if not effect:  # the player view hides effects (docs/views.md)
        return e.t(T("{who} recibe un efecto", "{who} is affected by an effect"), who=e.who())
    kind = str(effect.get("kind"))
    phrases = {**EFFECTS, **HIDDEN_AMOUNT} if "amount" not in effect else EFFECTS
    phrase = pick(
        phrases, kind, T("{who} recibe el efecto {type}", "{who} receives the effect {type}")
    )
    text = e.t(phrase, who=e.who(), type=label(effect.get("type")), amount=_amount(e, effect))
    limb = LIMBS.get(str(effect.get("limb")))
    if limb is not None:  # umh 11.5.5: which limb the amputation took
        text += " " + e.t(limb)
    left = effect.get("actions_left")
    if left is not None:
        text += " " + e.t(ONE_ACTION if left == 1 else ACTIONS, n=e.num(left))
    if effect.get("source") and effect.get("source") != e.get("character"):
        text += e.t(T(", causado por {by}", ", caused by {by}"), by=e.name(effect.get("source")))
    return text + e.cite(f"effect.applied/{kind}")


ENDS: Final = {
    "duration": T("Se acaba el efecto {type} de {who}", "{who}'s {type} wears off"),
    "replaced": T("Otro efecto sustituye a {type} de {who}", "{who}'s {type} is replaced"),
    "broken": T("Se rompe el efecto {type} de {who}", "{who}'s {type} breaks"),
    "removed": T("{who} se libra del efecto {type}", "{who} is rid of {type}"),
    "fallen": T("El efecto {type} de {who} termina al caer", "{who}'s {type} ends as they fall"),
    "fled": T(
        "El efecto {type} de {who} termina: quien lo mantenía ha huido",
        "{who}'s {type} ends: whoever kept it up fled",
    ),
}


@HITS.on("effect.expired")
def effect_expired(e: Said) -> str:
    reason = str(e.get("reason", "duration"))
    phrase = pick(ENDS, reason, ENDS["duration"])
    return e.t(phrase, who=e.who(), type=label(e.get("type"))) + e.cite(f"effect.expired/{reason}")
