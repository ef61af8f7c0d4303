"""One cypher roll against a difficulty (seed 001 ACCIÓN; B-1, B-7, B-14)."""

from __future__ import annotations

from typing import Any

from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.rulesets.cypher import difficulty as dif
from shared.rulesets.cypher.damage import effect_of


def d20(stream: Stream, purpose: RollPurpose) -> Roll:
    return roll("1d20", stream, purpose=purpose)


def check(
    base: int,
    steps: list[dif.Step],
    stream: Stream,
    purpose: RollPurpose,
    *,
    dazed: bool,
    effort: int,
    is_impaired: bool,
) -> tuple[dict[str, Any], Roll | None]:
    """001 ACCIÓN / B-1 / B-14: difficulty from base, steps, dazed, Effort; 0 succeeds with
    no roll; else d20 >= 3 x difficulty. A natural 19 / 20 is a minor / major effect (B-7)."""
    final = dif.difficulty(base, steps, dazed=dazed, effort=effort)
    shown: dict[str, Any] = {
        "base": base,
        "steps": [s.as_dict() for s in steps],
        "dazed": dazed,
        "effort_levels": effort,
        "difficulty": final,
        "target_number": dif.target_number(final),
    }
    if final == 0:
        return {**shown, "roll": None, "success": True, "automatic": "difficulty_0"}, None
    rolled = d20(stream, purpose)
    natural = rolled.total
    return {
        **shown,
        "roll": natural,
        "success": natural >= dif.target_number(final),
        "automatic": None,
        "effect": effect_of(natural, impaired=is_impaired),
    }, rolled
