"""The scenarios that test a property under fire: one Idempotency-Key 20 ways, racing pairs
of actions, timers due while services/turns is dead. Each runs while other combats are
played and services are killed (:mod:`tests.chaos.fire`)."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx

from tests.chaos.check import check
from tests.chaos.fire import merged, under_fire
from tests.chaos.load import (
    PATIENCE_S,
    SKILL,
    Attempt,
    Community,
    Player,
    Record,
    new_community,
    send,
    start_combat,
)
from tests.chaos.scenarios import (
    PLAY_TIMERS,
    Outcome,
    down_for,
    fighting,
    overdue_combats,
    settle,
    start_combats,
)
from tests.chaos.stack import Stack

RACE_TIMERS = {"preparation_seconds": 1, "turn_seconds": 600, "defense_seconds": 600}
"""Racing pairs keep long timers: with a short window, a twin held back by a fault longer
than the window finds the hit resolved and the turn going on, and is rightly accepted (two
acknowledged, one after the other, not a race). The other combats of the scenario (under
fire) keep the short timers."""

STALL_SECONDS = 30.0
"""The longest one racing pair may take, kills and restarts included."""


async def one_key_20_ways(stack: Stack, *, background: int) -> Outcome:
    """20 concurrent requests with one Idempotency-Key: one effect, one answer replayed,
    while other combats are played and services/turns is killed again and again."""
    suite = stack.suite
    community = await new_community(suite.base_url, suite.admin_token, PLAY_TIMERS)
    record = Record()
    ids = await start_combats(community, record, 10)
    await asyncio.sleep(2)
    statuses: list[int] = []
    bodies: dict[str, set[str]] = {}
    burst_record = Record()
    async with under_fire(stack, ["turns"], combats=background, every=1.5) as fire:
        for combat_id in ids:
            await burst(community, burst_record, combat_id, statuses, bodies)
            await asyncio.sleep(0.4)
    await settle(community, burst_record)
    figures = merged(await check(community.client, burst_record.attempts, ids), fire.figures)
    await community.client.aclose()
    outcome = Outcome(
        "idempotency_key_20_ways",
        figures,
        [],
        fire.redeliveries,
        {
            "statuses": {str(s): statuses.count(s) for s in set(statuses)},
            "keys": len(bodies),
            "keys_applied": sum(1 for ids in bodies.values() if ids),
            "keys_with_two_actions": sum(1 for ids in bodies.values() if len(ids) > 1),
            "combats": len(ids),
            "background_combats": background,
            "faults": [f"kill -9 {k}" for k in fire.kills],
        },
    )
    return outcome


async def burst(
    community: Community,
    record: Record,
    combat_id: str,
    statuses: list[int],
    by_key: dict[str, set[str]],
) -> None:
    """The same action, with the same key, 20 times at once, then once more retried until
    answered (as a frontend retries a 503 or a 409 in progress): every 2xx names the one
    action of the key, which the checker then looks for in the log (one attempt per distinct
    action acknowledged). A key answered with two action ids applied twice."""
    started = time.time()
    for _ in range(50):  # a turn to act in (the timers are short: one may be changing)
        read = await send(community.client, record, "GET", f"/v1/combats/{combat_id}")
        combat = read.json() if read is not None and read.status_code == 200 else {}
        turn = combat.get("turn")
        if turn and not combat.get("pending_reactions") and turn.get("paused_remaining") is None:
            break
        await asyncio.sleep(0.2)
    else:
        return
    actor = combat["turn"]["actor"]
    other = next(c for c in combat["participants"] if c != actor)
    key = f"same-{uuid.uuid4()}"
    body = {"type": "skill", "actor": actor, "skill": SKILL, "targets": [other]}
    answers = await asyncio.gather(
        *(
            community.client.post(
                f"/v1/combats/{combat_id}/actions",
                json=body,
                headers={"Idempotency-Key": key},
                timeout=60,
            )
            for _ in range(20)
        ),
        return_exceptions=True,  # a connection cut is one more request to retry below
    )
    got = [a for a in answers if isinstance(a, httpx.Response)]
    statuses.extend(a.status_code for a in got)
    acked = {a.json()["action_id"]: a.status_code for a in got if a.status_code in (200, 202)}
    last = await send(
        community.client, record, "POST", f"/v1/combats/{combat_id}/actions", body=body, key=key
    )
    if last is not None and last.status_code in (200, 202):
        acked.setdefault(last.json()["action_id"], last.status_code)
    by_key[key] = set(acked)
    for action_id, status in acked.items():
        record.attempts.append(
            Attempt(combat_id, "skill", actor, key, started, status, action_id, 20, time.time())
        )


async def racing_pairs(stack: Stack, *, pairs: int, combats: int, background: int) -> Outcome:
    """Pairs of the same action sent at once for the same turn: exactly one may win, while
    other combats are played and services/turns and services/resolution are killed."""
    suite = stack.suite
    community = await new_community(suite.base_url, suite.admin_token, RACE_TIMERS)
    record = Record()
    ids = await start_combats(community, record, combats)
    await fighting(community, record, ids, 60)
    raced: list[tuple[Attempt, Attempt]] = []
    done = 0

    async def race(combat_id: str, rounds: int) -> None:
        """The same action twice at once for the same turn: an attack (the second must meet
        the pending defense) or, out of PA, a pass (the second is no longer his turn)."""
        nonlocal done
        player = Player(community, record, combat_id)
        room, games = record.rooms.get(combat_id, 0), 0
        # A combat that stops moving is left to the checker (a hit never resolved, a timer
        # never fired): the race itself never waits for it forever.
        deadline = time.monotonic() + STALL_SECONDS * max(1, rounds)
        while done < pairs and rounds > 0 and time.monotonic() < deadline:
            combat = await player.combat()
            if combat is not None and combat["phase"] == "ended":
                games += 1  # mortal fighters: the room's next combat
                following = await start_combat(community, record, room, games)
                if following is None:
                    return
                player.combat_id = combat_id = following
                continue
            if combat is None or combat["phase"] != "fighting" or not combat.get("turn"):
                if combat is None:
                    return
                await asyncio.sleep(0.2)
                continue
            pending = combat.get("pending_reactions") or []
            if pending:
                reaction = pending[0]
                await player.act(
                    "react",
                    reaction["reactor"],
                    {"action_id": reaction["action_id"], "skill": None},
                )
                continue
            if combat["turn"].get("paused_remaining") is not None:
                await asyncio.sleep(0.05)
                continue
            actor = combat["turn"]["actor"]
            other = next(c for c in combat["participants"] if c != actor)
            if combat["participants"][actor]["pa"] >= 2:
                kind, body = "skill", {"skill": SKILL, "targets": [other]}
            else:
                kind, body = "pass_turn", {}
            twins = [Player(community, record, combat_id) for _ in range(2)]
            tries = await asyncio.gather(*(p.act(kind, actor, body) for p in twins))
            raced.append((tries[0], tries[1]))
            done += 1
            rounds -= 1

    per = max(1, pairs // max(1, len(ids)))
    async with under_fire(stack, ["turns", "resolution"], combats=background, every=4.0) as fire:
        await asyncio.gather(*(race(c, per) for c in ids))
    await settle(community, record)
    figures = merged(await check(community.client, record.attempts, record.combats), fire.figures)
    await community.client.aclose()
    return Outcome(
        "racing_pairs",
        figures,
        [],
        fire.redeliveries,
        {
            "pairs": done,
            # after settle: a 202 later rejected was not applied
            "pairs_both_acknowledged": sum(
                1 for a, b in raced if a.acknowledged and b.acknowledged
            ),
            "combats": len(ids),
            "background_combats": background,
            "faults": [f"kill -9 {k}" for k in fire.kills],
        },
    )


async def timers_while_down(
    stack: Stack, *, combats: int, turn_seconds: int, background: int
) -> Outcome:
    """Every combat's turn timer falls due while services/turns is dead; all fire once."""
    community, record, ids = await overdue_combats(stack.suite, combats, turn_seconds)
    # Once turns is back and the due timers flood in, resolution and states are killed too.
    fire_at = turn_seconds + 4.0
    # The background players keep trying through the outage (turns answers 503 throughout:
    # nothing is lost), so an action sent as turns died is answered once it is back.
    async with under_fire(
        stack,
        ["resolution", "states"],
        combats=background,
        every=2.0,
        first_after=fire_at,
        patience=turn_seconds + 3 + PATIENCE_S,
    ) as fire:
        # Every turn timer falls due while turns is dead, and nobody fires it.
        killed, restarted = await down_for(stack.suite, "turns", turn_seconds + 3)
        pending, fired_by = await all_timed_out(community, record, ids)
    figures = merged(await check(community.client, record.attempts, ids), fire.figures)
    await community.client.aclose()
    return Outcome(
        "timers_due_while_killed",
        figures,
        [fired_by - restarted],
        fire.redeliveries,
        {
            "timers_due_while_down": len(ids),
            "not_fired_after_restart": len(pending),
            "down_seconds": round(restarted - killed, 1),
            "background_combats": background,
            "faults": ["kill -9 turns", *(f"kill -9 {k}" for k in fire.kills)],
        },
    )


async def all_timed_out(
    community: Community, record: Record, ids: list[str]
) -> tuple[set[str], float]:
    """Wait until every combat's log shows its turn timed out: (those that never did, when)."""
    fired_by = time.time()
    deadline = time.monotonic() + 180
    pending = set(ids)
    while pending and time.monotonic() < deadline:
        for combat_id in list(pending):
            answer = await send(
                community.client, record, "GET", f"/v1/combats/{combat_id}/log?limit=1000"
            )
            if answer is not None and any(
                e["type"] == "turn.timed_out" for e in answer.json()["events"]
            ):
                pending.discard(combat_id)
        fired_by = time.time()
        if pending:
            await asyncio.sleep(1)
    return pending, fired_by
