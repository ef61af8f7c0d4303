"""Invariants every ruleset's combat view keeps."""

from __future__ import annotations

from collections.abc import Collection

from tests.randomplay.client import JSON


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
        problems.append(f"the turn is {actor}'s, who is {status}")
    return problems
