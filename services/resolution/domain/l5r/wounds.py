"""The damage of an l5r hit and the wounds it leaves (seed 004 Incrementar el daño, Finta;
C-7, C-24, T004-20, T004-23)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.resolution.domain.l5r.request import StrikeRequest, TargetState
from shared.dice.notation import roll_and_keep
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.rulesets.l5r.sheet import WoundRank, wound_rank


@dataclass(frozen=True)
class Wounds:
    """The target's wounds before and after, and their ranks (C-7)."""

    before: int
    dealt: int
    after: int
    rank_before: WoundRank
    rank: WoundRank
    penalty: int


def damage_rolls(
    request: StrikeRequest,
    hits: int,
    feint: bool,
    stream: Stream,
    steps: list[dict[str, Any]],
    rolls: list[tuple[Roll, str]],
) -> list[int]:
    """7. One damage roll per hit: the weapon's XkY plus the damage raises (C-24), not
    exploding; a feint deals none (T004-23)."""
    if feint:
        steps.append({"step": "feint", "rule": "l5r Finta", "damage": 0})
        return []
    spec = roll_and_keep(request.damage.rolled, request.damage.kept)
    totals: list[int] = []
    for n in range(hits):
        dmg = roll(spec, stream, purpose=RollPurpose.DAMAGE)
        rolls.append((dmg, request.attacker))
        totals.append(dmg.total)
        steps.append(
            {
                "step": "damage",
                "rule": "l5r Incrementar el daño",
                "hit": n + 1,
                "spec": dmg.spec,
                "dice": dmg.dice,
                "kept": dmg.kept,
                "total": dmg.total,
                "damage_raises": request.raises.damage_raises,
            }
        )
    return totals


def wounds_after(foe: TargetState, dealt: int, steps: list[dict[str, Any]]) -> Wounds:
    """C-7: the wounds add up; the rank follows the target's table (past Out: dead)."""
    before = foe.wounds
    rank_before, _ = wound_rank(before, foe.wound_table)
    rank, penalty = wound_rank(before + dealt, foe.wound_table)
    done = Wounds(before, dealt, before + dealt, rank_before, rank, penalty)
    steps.append(
        {
            "step": "wounds",
            "rule": "l5r C-7",
            "before": before,
            "dealt": dealt,
            "after": done.after,
            "rank_before": str(rank_before),
            "rank": str(rank),
            "penalty": penalty,
        }
    )
    return done
