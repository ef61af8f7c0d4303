"""Turn order (umh 2.2): pure functions over fighters, no combat state.

A round's order is a list of character ids, one entry per own turn; the lone fighter
appears once per opponent (umh 1.2.6, A-13).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Fighter:
    """What the order depends on: side, total speed (VEL) and when the fighter joined."""

    id: str
    side: str
    vel: float
    joined_seq: int


def by_speed(fighters: Sequence[Fighter], initiator: str) -> list[Fighter]:
    """umh 2.2.5 / 2.2.1.1 / 2.2.3 / A-67: fastest first (total speed, descending).

    Ties: the initiator first (2.2.1.1), then by ``joined_seq`` (the original targets'
    declared order, then join time: 2.2.1.2 default and 2.2.3).
    """
    return sorted(fighters, key=lambda f: (-f.vel, f.id != initiator, f.joined_seq))


def lone_fighter_order(lone: str, opponents: Sequence[str], *, lone_starts: bool) -> list[str]:
    """umh 1.2.6 / 1.2.6.5 / A-13: the lone fighter gets exactly N own turns (N opponents).

    Interleaved as the seed's examples: ``S, O1, S, O2, ..., S, ON`` when he starts,
    ``O1, S, O2, S, ..., ON, S`` when the opponents start (vectors T000-01..T000-04).
    """
    order: list[str] = []
    for opponent in opponents:
        order.extend((lone, opponent) if lone_starts else (opponent, lone))
    return order


def alternate(first: Sequence[str], second: Sequence[str]) -> list[str]:
    """umh 2.2.4 / 2.2.4.1 / A-68: alternate the sides; when one runs out, the rest follow.

    Both sequences are already in speed order; ``first`` is the side that starts.
    """
    order: list[str] = []
    for i in range(max(len(first), len(second))):
        order.extend(side[i] for side in (first, second) if i < len(side))
    return order


def first_round_order(
    initiator: Fighter,
    targets: Sequence[Fighter],
    allies: Sequence[Fighter] = (),
    joiners: Sequence[Fighter] = (),
) -> list[str]:
    """umh 2.2.1 / 2.2.1.2 / A-66 / 2.2.2: the aggressor, then the targets by speed.

    Targets with the same speed keep their declared order (2.2.1.2 default; ``targets``
    is given in that order). One attacker against two or more targets is a lone fighter
    who starts: attacker, D1, attacker, D2 (A-66, vector T000-02). Whoever joined during the
    preparation round (``allies`` of the aggressor, ``joiners`` of the defenders) follows
    his side's original members by speed and join time (2.2.2, 2.2.3), the sides
    alternating as in later rounds (2.2.4.1).
    """
    ranked = sorted(targets, key=lambda t: -t.vel)
    defenders = [t.id for t in ranked] + [f.id for f in by_speed(joiners, initiator.id)]
    attackers = [initiator.id] + [f.id for f in by_speed(allies, initiator.id)]
    return interleave(attackers, defenders)


def starting_side(ranked: dict[str, list[Fighter]], initiator_side: str) -> str:
    """A-68: the side with the fastest member starts; a tie goes to the initiator's side."""
    tops = {side: members[0].vel for side, members in ranked.items() if members}
    best = max(tops.values())
    if tops.get(initiator_side) == best:
        return initiator_side
    return next(side for side, vel in tops.items() if vel == best)


def round_order(fighters: Sequence[Fighter], initiator: str, initiator_side: str) -> list[str]:
    """umh 2.2.4 / 2.2.4.1 / 2.2.5 / 1.2.6 / A-68 / A-13: the order of a later round.

    Each side is sorted by :func:`by_speed`; the starting side comes from
    :func:`starting_side`. One against N >= 2 is the lone-fighter order; any other shape
    alternates the sides and appends the rest of the larger side in speed order.
    """
    sides: dict[str, list[Fighter]] = {}
    for fighter in by_speed(fighters, initiator):
        sides.setdefault(fighter.side, []).append(fighter)
    if not sides:
        return []
    if len(sides) == 1:
        return [f.id for f in next(iter(sides.values()))]
    first = starting_side(sides, initiator_side)
    second = next(side for side in sides if side != first)
    return interleave([f.id for f in sides[first]], [f.id for f in sides[second]])


def interleave(starters: Sequence[str], others: Sequence[str]) -> list[str]:
    """umh 1.2.6 / 2.2.4 / 2.2.4.1 / A-13 / A-14: two ranked sides, ``starters`` first.

    One against N >= 2 is the lone-fighter order (whoever starts); any other shape
    alternates the sides and appends the rest of the larger side in speed order.
    """
    if len(starters) == 1 and len(others) >= 2:
        return lone_fighter_order(starters[0], others, lone_starts=True)
    if len(others) == 1 and len(starters) >= 2:
        return lone_fighter_order(others[0], starters, lone_starts=False)
    return alternate(starters, others)


def with_late_joiner(
    order: Sequence[str], played_up_to: int, newcomers: Sequence[Fighter], initiator: str
) -> list[str]:
    """umh 2.2.2 / 2.2.3: someone joined during a round: he plays at its end.

    ``newcomers`` are this round's joiners whose turn has not started yet (the new one
    included): they follow the entries already in the order, by total speed, ties by join
    time; from the next round everyone is reordered (2.2.5).
    """
    ids = {f.id for f in newcomers}
    cut = next((i for i in range(played_up_to + 1, len(order)) if order[i] in ids), len(order))
    kept = list(order[:cut]) + [c for c in order[cut:] if c not in ids]
    return kept + [f.id for f in by_speed(newcomers, initiator)]
