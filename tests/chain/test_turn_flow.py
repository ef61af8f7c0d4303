"""Turns and clocks of a running combat in the chain (umh 2.4.2, 3.1.2): a skill costs exactly
its PA, and a defense window pauses the attacker's clock until the hit is resolved."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from math import floor

from tests.support.play import error_of, of_type, types_of
from tests.support.sheets import defensive, offensive, supplementary
from tests.support.table import ChainReferee


def instant(rfc3339: str) -> float:
    """An RFC 3339 time as Unix seconds."""
    return datetime.fromisoformat(rfc3339.replace("Z", "+00:00")).timestamp()


async def test_a_skill_costs_exactly_its_pa(referee: ChainReferee) -> None:
    community = await referee.new_community()
    skills = (offensive("Puño", pa=2), defensive("Bloqueo", pa=1), supplementary("Todo", pa=10))
    await community.register("ana", vel=6, skills=skills)
    await community.register("bruno", vel=5, skills=skills)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    attack = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    (declared,) = of_type(attack["events"], "action.declared")
    assert declared["data"]["pa_spent"] == 2
    assert attack["combat"]["participants"]["ana"]["pa"] == 10 - 2
    defended = await community.react(cid, "bruno", attack["action_id"], "Bloqueo")
    assert defended["combat"]["participants"]["bruno"]["pa"] == 10 - 1
    await community.pass_turn(cid, "ana")

    # bruno has 9 PA left: a 10-PA skill is refused, and PA never goes below 0.
    refused = await community.act(
        cid, {"type": "skill", "actor": "bruno", "skill": "Todo", "targets": []}
    )
    assert error_of(refused, 422, "insufficient_pa")["rule"] == "umh 3.1.2"
    await community.pass_turn(cid, "bruno")
    await community.wait_turn(cid, "ana", 2)
    everything = await community.use_skill(cid, "ana", "Todo")
    assert everything["combat"]["participants"]["ana"]["pa"] == 0


async def test_defense_window_pauses_the_attackers_clock_and_a_silent_defender_takes_the_hit(
    referee: ChainReferee,
) -> None:
    # The defense window (3 s) is longer than the whole turn (2 s): if the attacker's clock
    # kept running while bruno may defend, ana's turn would time out inside the window.
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 2, "defense_seconds": 3}
    )
    skills = (offensive("Puño", damage=120, pa=2), defensive("Bloqueo"), supplementary("Foco"))
    await community.register("ana", vel=6, skills=skills)
    await community.register("bruno", vel=5, resistance=10, reductions={"general": 10})
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    attack = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    action_id = attack["action_id"]
    turn = attack["combat"]["turn"]
    assert turn["actor"] == "ana"
    assert turn["deadline"] is None
    paused = turn["paused_remaining"]
    assert isinstance(paused, int | float) and 0 < paused <= 2, turn
    assert [r["reactor"] for r in attack["combat"]["pending_reactions"]] == ["bruno"]
    assert attack["combat"]["pending_reactions"][0]["action_id"] == action_id
    (pause,) = of_type(attack["events"], "turn.paused")
    assert pause["data"]["remaining_ms"] == round(paused * 1000)

    # While the reaction is pending the clock stands still.
    pending = await community.combat(cid)
    assert pending["turn"]["paused_remaining"] == paused
    assert pending["turn"]["deadline"] is None

    # bruno stays silent: his window closes (umh 2.4.2) and the hit lands with no defense.
    closed = await community.wait_event(cid, "reaction.timed_out", within=10)
    assert closed["data"] == {"action_id": action_id, "reactor": "bruno"}
    resolved = await community.wait_event(
        cid, "action.resolved", lambda d: d["action_id"] == action_id
    )
    (result,) = resolved["data"]["results"]
    assert result["target"] == "bruno"
    assert result["reaction"] == {"skill": None, "resist": False, "timed_out": True}
    steps = {step["step"]: step for step in result["steps"]}
    assert steps["defense"]["note"] == "timed_out"
    assert steps["defense"]["before"] == steps["defense"]["after"] == 120
    expected = floor((Fraction(120) - 10) * Fraction(90, 100))  # RES, then -10 %, floored
    assert result["damage"] == expected == 99
    assert (result["vit_before"], result["vit_after"]) == (1000, 1000 - expected)

    # The clock resumes with the time it had left, and only then can the turn time out.
    resumed = await community.wait_event(cid, "turn.resumed")
    assert resumed["data"]["actor"] == "ana"
    resumed_at = instant(resumed["occurred_at"])
    assert abs(resumed["data"]["deadline_ms"] / 1000 - resumed_at - paused) < 0.25
    timed_out = await community.wait_event(cid, "turn.timed_out", lambda d: d["actor"] == "ana")
    assert timed_out["data"]["round"] == 1

    events = await community.events_of(cid)
    ids = [e["id"] for e in events]
    declared = ids.index(of_type(events, "action.declared")[0]["id"])
    window_closed = ids.index(closed["id"])
    turn_timeouts = [ids.index(e["id"]) for e in of_type(events, "turn.timed_out")]
    assert all(not declared < i < window_closed for i in turn_timeouts), types_of(events)
    assert ids.index(timed_out["id"]) > ids.index(resumed["id"])
    assert instant(timed_out["occurred_at"]) >= resumed["data"]["deadline_ms"] / 1000 - 0.01
    started = of_type(events, "turn.started")
    assert started[0]["data"]["turn_seq"] == timed_out["data"]["turn_seq"]  # the same turn
