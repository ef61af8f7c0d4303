"""The steps of the umh damage pipeline (umh 9.1.1 and docs/rules.md section 2, row 9).

Every step takes the hit and the flow so far and returns a :class:`StepRecord` (or ``None``
when it does not apply to this hit); damage never goes below 0 at any step. No rounding
happens before the floor step (umh 2.7.1) except where a rule rounds on its own (the
sonic half rounds up, A-29; the ignored share of an ignore-defense is floored, 9.2.3.1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Final

from services.resolution.domain.umh.exact import exact, json_number
from services.resolution.domain.umh.hit import Flow, HitContext, StepRecord

PASSIVE_REDUCTION_CAP: Final = Fraction(25)
"""umh 9.4.3 (2nd): the maximum passive percentage reduction (A-36: per hit)."""

TOTAL_REDUCTION_CAP: Final = Fraction(100)
"""Reading A-36: passive + temporary reductions never pass 100 %."""

GENERAL: Final = "general"
ZERO: Final = Fraction(0)


def _scaled(flow: Flow, after: Fraction) -> Fraction:
    """The mental part after a step that scales the whole amount."""
    if flow.amount == 0:
        return ZERO
    return flow.mental * after / flow.amount


def base_damage(hit: HitContext) -> StepRecord:
    """umh 9.1.1: the pipeline starts from the skill's stated damage (daño base)."""
    amount = Fraction(hit.damage)
    details = {"skill": hit.skill, "natures": list(hit.natures)}
    return StepRecord("base", "umh 9.1.1", amount, amount, details, amount * hit.mental_share)


def booster_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 7.3 / A-31, A-32: ``after = before × (1 + boosters / 100)`` (first hit of a combo,
    8.1.1.1.3, decided when the context is built)."""
    if hit.boost_percent == 0:
        return None
    after = flow.amount * (1 + hit.boost_percent / 100)
    details = {
        "percent": json_number(hit.boost_percent),
        "boosters": [{"nature": n, "percent": p} for n, p in hit.boosters],
    }
    return StepRecord("booster", "umh 7.3.1", flow.amount, after, details, _scaled(flow, after))


def modifier_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 11.5.6, 11.5.12, 11.4.12 - 11.4.13: multipliers of the attack, in list order."""
    if not hit.modifiers:
        return None
    after = flow.amount
    for modifier in hit.modifiers:
        after *= modifier.factor
    details = {
        "modifiers": [
            {"name": m.name, "rule": m.rule, "factor": json_number(m.factor)} for m in hit.modifiers
        ]
    }
    rule = hit.modifiers[0].rule
    return StepRecord("modifier", rule, flow.amount, after, details, _scaled(flow, after))


def immunity_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 9.5.2 - 9.5.4 / A-37: immunity cuts the gross damage first, by the number of
    natures: ``after = before × (1 − cut)``."""
    if hit.immunity_cut == 0:
        return None
    after = flow.amount * (1 - hit.immunity_cut)
    details = {"cut": json_number(hit.immunity_cut * 100)}
    return StepRecord("immunity", "umh 9.5", flow.amount, after, details, _scaled(flow, after))


def resist_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 7.1.2.3, 7.1.1 Mental / Cronoquinética: RESISTIR takes the mental share (all of a
    mental or chronokinetic skill) to 0."""
    if not hit.resisted:
        return None
    removed = flow.mental if hit.mental_share > 0 else flow.amount
    after = flow.amount - removed
    rule = "umh 7.1.2.3" if 0 < hit.mental_share < 1 else "umh 7.1.1"
    return StepRecord("resist", rule, flow.amount, after, {"removed": json_number(removed)}, ZERO)


def evasion_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 8.2.1: a met evasion avoids everything; without its requirements 50 % lands as
    integral damage (8.2.1.4, A-98); a sonic one rounds that half up (7.1.3.1, A-29)."""
    if hit.evasion is None:
        return None
    if hit.evasion == "full":
        return StepRecord("evasion", "umh 8.2.1", flow.amount, ZERO, {"evaded": True}, ZERO)
    half = flow.amount / 2
    after = Fraction(math.ceil(half)) if hit.evasion == "half_up" else half
    rule = "umh 7.1.3.1" if hit.evasion == "half_up" else "umh 8.2.1.4"
    details = {"evaded": False, "share": 50}
    return StepRecord("evasion", rule, flow.amount, after, details, _scaled(flow, after))


def pierced(damage: Fraction, defense: Fraction, percent: Fraction, pierces: bool) -> Fraction:
    """umh 9.2.2 - 9.2.3 / A-33, A-34: what passes a numeric defense ``defense``.

    Ignore p %: ``floor(p·D) + max(0, D − floor(p·D) − R)`` (always the formula, T000-09).
    Pierce: nothing passes if ``D ≤ R``; else the whole ``D``, or with a percentage the
    ignore formula. Neither: ``max(0, D − R)``.
    """
    if pierces and damage <= defense:
        return ZERO
    if percent > 0:
        ignored = Fraction(math.floor(damage * percent / 100))
        return ignored + max(ZERO, damage - ignored - defense)
    if pierces:
        return damage
    return max(ZERO, damage - defense)


def defense_step(hit: HitContext, flow: Flow) -> StepRecord:
    """umh 9.2.1 (and 8.2.4.2 for a counter): the defensive skill's value comes off.

    Order inside: a sonic skill against a defense without "all angles" lets the rounded-up
    half past it (7.1.3.1, A-29; the literal reading lets that half in and stops the rest);
    against a psionic skill an internal defense only meets the energetic share (7.1.2.4);
    pierce and ignore apply to what the defense meets (9.2.2 - 9.2.3).
    """
    if hit.evasion is not None or hit.defense is None:
        note = "evasion" if hit.evasion is not None else hit.defense_note
        return StepRecord("defense", "umh 9.2.1", flow.amount, flow.amount, _none(note))
    defense = hit.defense
    passing, met, mental = ZERO, flow.amount, _scaled(flow, flow.amount)
    if hit.spares_mental:
        passing, met = flow.mental, flow.amount - flow.mental
    details: dict[str, object] = {"skill": defense.skill, "kind": defense.kind}
    details["defense"] = defense.value
    literal = False
    if hit.sonic is not None and not defense.all_angles:
        half = Fraction(math.ceil(met / 2))
        passing, met = passing + half, met - half
        details["sonic_past_defense"] = json_number(half)
        literal = hit.sonic == "literal"
    stopped = (
        ZERO if literal else pierced(met, Fraction(defense.value), hit.ignore_percent, hit.pierces)
    )
    after = passing + stopped
    mental = flow.mental if hit.spares_mental else _scaled(flow, after)
    if hit.ignore_percent or hit.pierces:
        details.update(ignore_percent=json_number(hit.ignore_percent), pierces=hit.pierces)
    rule = "umh 8.2.4.2" if defense.kind == "counter" else "umh 9.2.1"
    return StepRecord("defense", rule, flow.amount, after, details, mental)


def further_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 8.1.1.3: the defenses given after the first against a skill reactable several
    times, in the order given, each on what the one before let through: an evasion as in
    8.2.1, a block as in 9.2.1 (sonic, psionic, pierce and ignore included). Each one's own
    record is listed under ``answers``."""
    if not hit.further:
        return None
    records: list[dict[str, object]] = []
    current = flow
    for answer in hit.further:
        again = replace(
            hit,
            evasion=answer.evasion,
            defense=answer.defense,
            defense_note=answer.note,
            spares_mental=answer.spares_mental,
        )
        record = evasion_step(again, current) or defense_step(again, current)
        records.append({**record.to_dict(), "skill": answer.skill})
        current = record.flow(current)
    details = {"answers": records}
    return StepRecord(
        "further_defenses", "umh 8.1.1.3", flow.amount, current.amount, details, current.mental
    )


def _none(note: str | None) -> dict[str, object]:
    return {"skill": None, "defense": 0, "note": note}


HALF_EVASIONS: Final = frozenset({"half_down", "half_up"})


def terrain_defense_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 9.2.4 / 8.2.1.4: an external defense kept on the terrain under the target meets
    what his own defenses let through (pierce and ignore as against any defense, 9.2.2 -
    9.2.3); never the 50 % of an evasion without its requirements ("no se aplican defensas
    externas sobre el terreno"), which shows it unused."""
    if hit.terrain_defense <= 0 or flow.amount == 0:
        return None
    value = Fraction(hit.terrain_defense)
    halves = [hit.evasion, *(f.evasion for f in hit.further)]
    if any(e in HALF_EVASIONS for e in halves):
        details = {"defense": hit.terrain_defense, "note": "evasion"}
        return StepRecord("terrain_defense", "umh 8.2.1.4", flow.amount, flow.amount, details)
    after = pierced(flow.amount, value, hit.ignore_percent, hit.pierces)
    details = {"defense": hit.terrain_defense, "kind": "external"}
    return StepRecord(
        "terrain_defense", "umh 9.2.4", flow.amount, after, details, _scaled(flow, after)
    )


def coating_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 9.2.6 / A-97: degradable coatings absorb after the reactive defense, before the
    passive resistance; the absorbed amount is always reported."""
    if hit.coating <= 0 or flow.amount == 0:
        return None
    absorbed = min(flow.amount, Fraction(hit.coating))
    after = flow.amount - absorbed
    details = {"absorbed": json_number(absorbed), "left": json_number(hit.coating - absorbed)}
    return StepRecord("coating", "umh 9.2.6", flow.amount, after, details, _scaled(flow, after))


def passive_resistance(hit: HitContext, flow: Flow) -> StepRecord:
    """umh 9.3.2: passive resistance (RES) is subtracted from direct damage only.

    Not at all when a broken petrification or freezing bypasses it (11.4.12 - 11.4.13,
    A-42); through the skill's ignore / pierce only when the skill names a hardness at
    least as high as the resistance's (9.3.4 - 9.3.5, A-84): with no percentage and no
    pierce, naming the hardness ignores it whole.
    """
    value = Fraction(hit.resistance if hit.direct and not hit.bypass_passive else 0)
    details: dict[str, object] = {
        "value": json_number(value),
        "hardness": hit.hardness,
        "direct": hit.direct,
    }
    if hit.bypass_passive:
        details["bypassed"] = True
    if hit.ignores_passive and value:
        details["ignored"] = True
        if hit.ignore_percent or hit.pierces:
            after = pierced(flow.amount, value, hit.ignore_percent, hit.pierces)
        else:
            after = flow.amount
    else:
        after = max(ZERO, flow.amount - value)
    return StepRecord("resistance", "umh 9.3.2", flow.amount, after, details, _scaled(flow, after))


def shield_step(hit: HitContext, flow: Flow) -> StepRecord | None:
    """umh 9.7.3 / A-38: the mental shield takes the mental damage first, with no reduction
    on it; what it cannot hold goes on to the reductions."""
    if hit.shield <= 0 or flow.mental == 0:
        return None
    absorbed = min(flow.mental, Fraction(hit.shield))
    after = flow.amount - absorbed
    details = {"absorbed": json_number(absorbed), "left": json_number(hit.shield - absorbed)}
    return StepRecord("shield", "umh 9.7.3", flow.amount, after, details, flow.mental - absorbed)


def reduction_percent(
    reductions: Mapping[str, float | Fraction],
    natures: Iterable[str],
    cap: Fraction | None = PASSIVE_REDUCTION_CAP,
) -> tuple[Fraction, Fraction]:
    """umh 9.4.3, A-36: general + every matching nature's reduction, added, capped.

    Returns ``(effective, uncapped)`` percents. Additive, not multiplicative; a nature
    listed twice on a skill counts once.
    """
    keys = [GENERAL, *dict.fromkeys(natures)]
    uncapped = sum((exact(reductions[key]) for key in keys if key in reductions), ZERO)
    return (uncapped if cap is None else min(uncapped, cap)), uncapped


def _allowed(hit: HitContext, table: Mapping[str, float | Fraction]) -> dict[str, float | Fraction]:
    return {
        key: value
        for key, value in table.items()
        if key not in hit.excluded_reductions
        and (hit.only_reductions is None or key in hit.only_reductions)
    }


def percentage_reduction(hit: HitContext, flow: Flow) -> StepRecord:
    """umh 9.4.1, 9.4.3: percentage reductions apply last, ``after = before × (1 − pct/100)``.

    Passive ones add up to at most 25 (A-36); temporary ones from skills are not under
    that cap; all together at most 100. A broken petrification or freezing leaves out the
    physical, elemental and energetic ones (A-42); hellfire only meets reductions that name
    it (7.1.1 Fuego infernal). No rounding here: the floor comes next (umh 2.7.1).
    """
    passive, uncapped = reduction_percent(_allowed(hit, hit.reductions), hit.natures)
    temporary, _ = reduction_percent(_allowed(hit, hit.temporary_reductions), hit.natures, None)
    percent = min(passive + temporary, TOTAL_REDUCTION_CAP)
    after = flow.amount * (1 - percent / 100)
    details: dict[str, object] = {"percent": json_number(percent)}
    details["uncapped"] = json_number(uncapped)
    if temporary:
        details["temporary"] = json_number(temporary)
    return StepRecord("reduction", "umh 9.4.3", flow.amount, after, details, _scaled(flow, after))


def floor_damage(hit: HitContext, flow: Flow | Fraction) -> StepRecord:
    """umh 2.7.1: the integral damage is rounded down: 1402.1 -> 1402, 1199.99 -> 1199."""
    current = flow if isinstance(flow, Flow) else Flow(flow)
    after = Fraction(math.floor(current.amount))
    return StepRecord("floor", "umh 2.7.1", current.amount, after, {}, _scaled(current, after))
