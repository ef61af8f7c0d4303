"""Checks on a finished combat's whole audit log (the same for every ruleset)."""

from __future__ import annotations

from collections import Counter

from shared.dice.__main__ import verify
from tests.randomplay.client import JSON


def check_log(events: list[JSON]) -> list[str]:
    """What is wrong with the log of an ended combat."""
    problems: list[str] = []
    types = [e["type"] for e in events]
    ended = types.count("combat.ended")
    if ended != 1:
        problems.append(f"{ended} combat.ended events")
    ids = Counter(e["id"] for e in events)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        problems.append(f"event ids logged twice: {twice[:3]}")
    hits = Counter(
        (e["data"].get("action_id"), e["data"].get("hit", 1), e["data"].get("answer_to"))
        for e in events
        if e["type"] == "action.resolved"
    )
    again = [key for key, n in hits.items() if n > 1]
    if again:
        problems.append(f"a hit resolved twice (action, hit): {again[:3]}")
    rounds = [e["data"].get("round") for e in events if e["type"] == "round.started"]
    if rounds != sorted(rounds) or len(set(rounds)) != len(rounds):
        problems.append(f"rounds out of order: {rounds}")
    annulled = any(
        e["type"] == "combat.ended" and e["data"].get("reason") == "annulled" for e in events
    )
    if ended == 1 and not annulled:
        # An annulment may land while a hit is on its way to services/resolution, which
        # resolves it before it learns of the end (see docs/random-play.md).
        after = types[types.index("combat.ended") + 1 :]
        moving = [t for t in after if t in ("turn.started", "round.started", "action.resolved")]
        if moving:
            at = types.index("combat.ended")
            problems.append(
                f"the combat went on after combat.ended: {moving[:5]}; "
                f"around the end: {[brief(e) for e in events[max(0, at - 8) : at + 4]]}"
            )
    return problems + dice_problems(events)


def dice_problems(events: list[JSON]) -> list[str]:
    """Rulesets that roll: every roll recomputes from the seed revealed at the end (what
    ``python -m shared.dice verify`` checks), and no two rolls share a draw of a stream."""
    started = next((e for e in events if e["type"] == "combat.started"), None)
    if started is None or "dice_commitment" not in started.get("data", {}):
        return []
    ok, lines = verify(events)
    problems = [] if ok else [f"dice: {[line for line in lines if line.startswith('BAD')][:3]}"]
    taken: dict[str, set[int]] = {}
    for event in events:
        if event["type"] != "dice.rolled":
            continue
        record = event["data"]
        first, count = int(record.get("first_draw") or 0), int(record.get("draws") or 0)
        draws = set(range(first, first + count))
        stream = taken.setdefault(str(record.get("stream")), set())
        if stream & draws:
            problems.append(
                f"dice: draws {sorted(stream & draws)[:3]} of {record.get('stream')} twice"
            )
        stream |= draws
    return problems


def brief(event: JSON) -> str:
    """An event in one line: its type and the data that says what it was about."""
    data = event.get("data", {})
    keys = ("actor", "character", "action_id", "hit", "reason", "reactor", "timed_out")
    shown = {k: data[k] for k in keys if k in data}
    return f"{event['type']} {shown}"
