"""What the combo tests share (umh 8.1.1.1.1): sheets with a combo, answering its hits one by
one through the API, reading each hit's ``action.resolved``, and playing a combat to its end.

A combo is resolved hit by hit: each hit opens its own windows, and once they are answered or
timed out services/resolution computes that hit. Everything here waits on the audit log or
the combat's read model, never on a sleep.
"""

from __future__ import annotations

import time
from collections import Counter
from itertools import pairwise
from typing import Any

from tests.e2e.referee import JSON, HttpCommunity
from tests.support.play import expect, of_type
from tests.support.sheets import defensive, umh_sheet_with
from tests.support.steps import register_sheet

TAJO_DAMAGE = 100


def combo(name: str = "Tajo", *, hits: int = 2, damage: int = TAJO_DAMAGE, **fields: Any) -> JSON:
    """The issue's skill: ``{"name": "Tajo", "pa": 3, "damage": 100, "hits": 2, ...}``."""
    base: JSON = {"name": name, "tier": 1, "pa": 3, "type": "offensive", "damage": damage}
    return {**base, "hits": hits, "natures": ["fisica"], "reach": 1, **fields}


BLOQUEO = defensive("Bloqueo", defense=60)


async def fighters(community: HttpCommunity, *, hits: int, vit: int = 1000, **more: int) -> None:
    """ana (VEL 6, the combo) against bruno (VEL 5) and anyone in ``more`` (name -> VIT)."""
    ana = umh_sheet_with("Ana", skills=[combo(hits=hits), BLOQUEO], stats={"vel": 6})
    await register_sheet(community, "ana", ana)
    for name, their_vit in {"bruno": vit, **more}.items():
        sheet = umh_sheet_with(
            name.capitalize(), skills=[BLOQUEO], stats={"vel": 5, "vit": their_vit}
        )
        await register_sheet(community, name, sheet)


async def answer(
    community: HttpCommunity, combat_id: str, reactor: str, action_id: str, skill: str | None
) -> None:
    """A ``react`` that may be answered 200 (the chain settled) or 202 (still running)."""
    body = {"type": "react", "actor": reactor, "action_id": action_id, "skill": skill}
    expect(await community.act(combat_id, body), 200, 202)


async def window_of(
    community: HttpCommunity,
    combat_id: str,
    action_id: str,
    reactor: str,
    hit: int,
    within: float = 10,
) -> JSON:
    """Until ``reactor``'s window of hit ``hit`` is open (as the combat shows it)."""

    def holds(combat: JSON) -> bool:
        return any(
            w["action_id"] == action_id and w["reactor"] == reactor and w["hit"] == hit
            for w in combat["pending_reactions"]
        )

    return await community.wait_combat(
        combat_id, holds, what=f"{reactor}'s window of hit {hit}", within=within
    )


async def resolved_hits(
    community: HttpCommunity, combat_id: str, action_id: str, hits: int, *, within: float = 15
) -> list[JSON]:
    """Until hit ``hits`` of the action is resolved and the action completed: the data of
    every ``action.resolved`` of the action, in log order."""

    def done(events: list[JSON]) -> bool:
        mine = [e for e in events if e["data"].get("action_id") == action_id]
        return bool(of_type(mine, "action.completed")) and any(
            e["data"].get("hit") == hits for e in of_type(mine, "action.resolved")
        )

    events = await community.wait_events(
        combat_id, done, what=f"hit {hits} of {action_id} resolved and completed", within=within
    )
    return [
        e["data"] for e in of_type(events, "action.resolved") if e["data"]["action_id"] == action_id
    ]


def assert_each_hit_once(resolved: list[JSON], hits: int) -> None:
    """Every hit 1..hits resolved exactly once (umh 8.1.1.1.1), in order."""
    assert [r["hit"] for r in resolved] == list(range(1, hits + 1)), [r["hit"] for r in resolved]
    assert all(r["hits"] == hits for r in resolved), resolved
    assert [bool(r.get("combo_continues")) for r in resolved][:-1] == [True] * (hits - 1)


def damage_to(resolved: list[JSON], target: str) -> int:
    """What every resolved hit took from ``target``'s VIT (each row's before minus after)."""
    return sum(
        int(row["vit_before"]) - int(row["vit_after"])
        for data in resolved
        for row in data["results"]
        if row["target"] == target
    )


def chain_of_vit(resolved: list[JSON], target: str) -> list[tuple[int, int]]:
    """(vit_before, vit_after) of ``target``, hit by hit: each hit starts where the last ended."""
    return [
        (int(row["vit_before"]), int(row["vit_after"]))
        for data in resolved
        for row in data["results"]
        if row["target"] == target
    ]


def assert_chained(pairs: list[tuple[int, int]]) -> None:
    """No hit applied twice nor lost: each hit's VIT before is the last hit's VIT after."""
    for (_, after), (before, _) in pairwise(pairs):
        assert before == after, pairs


async def resumed_turn(community: HttpCommunity, combat_id: str, actor: str) -> JSON:
    """Until ``actor``'s own turn runs again: a deadline, no pause, no open window."""

    def running(combat: JSON) -> bool:
        turn = combat.get("turn") or {}
        return bool(
            turn.get("actor") == actor
            and turn.get("deadline") is not None
            and turn.get("paused_remaining") is None
            and not combat["pending_reactions"]
        )

    return await community.wait_combat(
        combat_id, running, what=f"{actor}'s turn running again", within=10
    )


async def play_to_end(
    community: HttpCommunity,
    combat_id: str,
    attacker: str,
    skill: str,
    target: str,
    within: float = 60,
) -> JSON:
    """Play until the combat ends: every window is taken (``skill: null``), ``attacker`` uses
    ``skill`` on ``target`` once in each of his turns, everyone else passes. The ended combat."""
    deadline = time.monotonic() + within
    attacked: set[tuple[int, int]] = set()
    while True:
        combat = await community.wait_combat(
            combat_id,
            lambda c: c["phase"] in ("fighting", "ended"),
            what="the fight or its end",
            within=max(1.0, deadline - time.monotonic()),
        )
        if combat["phase"] == "ended":
            return combat
        assert time.monotonic() < deadline, f"the combat did not end within {within} s"
        windows = combat["pending_reactions"]
        turn = combat.get("turn")
        if windows:
            for window in windows:
                await answer(community, combat_id, window["reactor"], window["action_id"], None)
            continue
        if turn and turn["deadline"] is not None:
            here = (combat["round"], turn["index"])
            if turn["actor"] == attacker and here not in attacked:
                attacked.add(here)
                body = {"type": "skill", "actor": attacker, "skill": skill, "targets": [target]}
                used = expect(await community.act(combat_id, body), 200, 202, 422)
                if used.status_code != 422:  # refused (used this round already): he passes
                    continue
            body = {"type": "pass_turn", "actor": turn["actor"]}
            expect(await community.act(combat_id, body), 200, 202, 422)
            continue
        seen = combat["version"]

        def moved(c: JSON, seen: int = seen) -> bool:
            return bool(c["version"] != seen or c["phase"] == "ended")

        await community.wait_combat(
            combat_id,
            moved,
            what="the combat to move on (a resolution pending)",
            within=max(1.0, deadline - time.monotonic()),
        )


def assert_no_event_twice(events: list[JSON]) -> None:
    """The log holds each event once, and no hit's resolution twice."""
    ids = Counter(e["id"] for e in events)
    assert all(n == 1 for n in ids.values()), ids
    hits = Counter(
        (e["data"]["action_id"], e["data"].get("hit", 1))
        for e in of_type(events, "action.resolved")
    )
    assert all(n == 1 for n in hits.values()), hits
