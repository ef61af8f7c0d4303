"""Invariants every ruleset's combat view keeps."""

from __future__ import annotations

from collections.abc import Collection

from tests.randomplay.client import JSON

LASTING = "lasting: "
"""The prefix of a problem that only counts when it lasts (see :data:`LASTING_SECONDS`)."""
LASTING_SECONDS = 3.0


def common_violations(combat: JSON, status_key: str, gone: Collection[str]) -> list[str]:
    """The phase and the result agree, slots are never negative, and the turn is never held
    by a fighter whose ``status_key`` says he is out for good (``gone``)."""
    problems: list[str] = []
    ended = combat.get("phase") == "ended"
    if ended != (combat.get("result") is not None):
        problems.append(f"phase {combat.get('phase')} with result {combat.get('result')}")
    for side, left in (combat.get("slots_left") or {}).items():
        if isinstance(left, int) and left < 0:
            problems.append(f"slots_left of {side} is {left}")
    people: dict[str, JSON] = combat.get("participants", {})
    actor = (combat.get("turn") or {}).get("actor")
    status = people.get(actor, {}).get(status_key) if actor is not None else None
    if combat.get("phase") == "fighting" and status in gone:
        # For an instant it may be: the combat's end waits for a hit being resolved (umh
        # 2.1.3), or the turn passes on in the next commit. Only a lasting one is wrong.
        problems.append(f"{LASTING}the turn is {actor}'s, who is {status}")
    return problems
