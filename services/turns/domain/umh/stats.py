"""A participant's STATs as the combat reads them now (umh 2.6, 2.8, 11.5.4 - 11.5.5,
11.5.11).

The sheet's figures with what his mirrored effects change (increases, limbs, fear: see
``shared.rulesets.umh.current``). A VEL that changes mid-combat changes what he may still
walk this round and orders the next round (2.2.5: every round is ordered again by total
speed; the round under way keeps its order).
"""

from __future__ import annotations

from typing import Any, Final

from services.turns.domain.umh.conditions import NO_MOVE
from services.turns.domain.umh.participant import Mirrored, Participant
from shared.rulesets.umh.attributes import BelowOne, moving_limb
from shared.rulesets.umh.current import SheetFigures
from shared.rulesets.umh.current import current_stats as stats_now

LEG_STATES: Final = frozenset({"inhabilitacion_piernas"})
"""umh 11.5.4.2: both legs stop a walker from moving; a winged one flies on (11.5.4.3)."""


def _traits(p: Participant) -> list[str]:
    return [str(t) for t in p.sheet.get("traits", [])]


def current_stats(p: Participant, reading: BelowOne) -> dict[str, float]:
    """umh 2.6, 2.8, 11.5.4 - 11.5.5, 11.5.11: VEL, REF, VOL and FUE now, from his sheet
    and his mirrored effects (``shared.rulesets.umh.current``)."""
    sheet = SheetFigures.model_validate(p.sheet)
    return stats_now(sheet, [m.effect for m in p.effects.values()], reading)


def refresh_speed(p: Participant, reading: BelowOne) -> None:
    """umh 11.5.4.2 - 11.5.5 with 2.3.2.1: a new VEL; the squares walked this round count
    against it (never below 0), and the next round is ordered by it (2.2.5)."""
    new = current_stats(p, reading)["vel"]
    if new == p.vel:
        return
    walked = max(0.0, p.vel - p.movement_left)
    p.vel = new
    left = max(0.0, new - walked)
    p.movement_left = int(left) if float(left).is_integer() else left


def wings_keep_moving(p: Participant, effect_id: str) -> None:
    """umh 11.5.4.3: for a winged character both legs disabled do not stop his movement
    (his wings carry him); the leg state still shows."""
    entry = p.effects.get(effect_id)
    if entry is None or entry.effect.type not in LEG_STATES or moving_limb(_traits(p)) != "ala":
        return
    kept = tuple(b for b in entry.blocks if b != NO_MOVE)
    p.effects[effect_id] = Mirrored(entry.effect, kept)


def stats_view(p: Participant, reading: BelowOne) -> dict[str, Any]:
    """The combat view's ``stats``: the figures the combat reads now."""
    return dict(current_stats(p, reading))
