"""umh windows over HTTP with the running services' real timers: a supplementary skill's
window (8.2.2.2 / 8.2.3.1) that nobody answers times out and the skill resolves; a defensive
skill used once in a round cannot answer a second hit of that round (2.3.1.3); a window
against a skill reactable several times stays open after a block until its timer (8.1.1.3)."""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee
from tests.support.play import error_of
from tests.support.sheets import JSON, defensive, offensive, supplementary
from tests.support.steps import resolved_of

pytestmark = [pytest.mark.e2e]

NADA: JSON = {
    "name": "Nada",
    "tier": 1,
    "pa": 1,
    "type": "defensive",
    "defense_kind": "annulment",
    "natures": ["fisica"],
}


async def test_8_2_3_1_a_supplementary_window_times_out_and_the_skill_resolves(
    referee: Referee,
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 1}
    )
    await community.register("ana", vel=7, skills=[supplementary("Concentración")])
    await community.register("bruno", vel=5, skills=[NADA])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Concentración")
    (window,) = used["combat"]["pending_reactions"]
    assert window["reactor"] == "bruno"
    assert used["combat"]["turn"]["paused_remaining"] is not None  # umh 2.4.2
    await community.wait_event(cid, "reaction.timed_out", lambda d: d["reactor"] == "bruno")
    resolved = await resolved_of(community, cid, used["action_id"])
    assert resolved["cancelled"] is False
    resumed = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="ana's turn going on"
    )
    assert resumed["turn"]["actor"] == "ana"


async def test_2_3_1_3_one_block_per_round_over_http(referee: Referee) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 30}
    )
    await community.register("ana", vel=7, skills=[offensive("Puño"), offensive("Patada")])
    await community.register("bruno", vel=5, skills=[defensive("Bloqueo")])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    first = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    await community.react(cid, "bruno", first["action_id"], "Bloqueo")
    await community.wait_combat(cid, lambda c: not c["pending_reactions"], what="Puño resolved")
    second = await community.use_skill(cid, "ana", "Patada", ["bruno"])
    body = {"type": "react", "actor": "bruno", "action_id": second["action_id"], "skill": "Bloqueo"}
    again = await community.act(cid, body)
    assert error_of(again, 422, "ability_already_used_this_round")["rule"] == "umh 2.3.1.3"


async def test_8_2_5_2_the_new_target_s_window_times_out_and_the_hit_lands(
    referee: Referee,
) -> None:
    """bruno reflects ana's Puño back to her; she does not answer: after defense_seconds her
    window times out and the hit lands on her, annulled for bruno."""
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 1}
    )
    await community.register("ana", vel=7, skills=[offensive("Puño", damage=300)])
    espejo = {**NADA, "name": "Espejo", "defense_kind": "reflection"}
    await community.register("bruno", vel=5, skills=[espejo])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    punch = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    body = {
        "type": "react",
        "actor": "bruno",
        "action_id": punch["action_id"],
        "skill": "Espejo",
        "use_number": 1,
    }
    await community.act_ok(cid, body)
    await community.wait_event(cid, "reaction.timed_out", lambda d: d["reactor"] == "ana")
    resolved = await resolved_of(community, cid, punch["action_id"])
    assert resolved["cancelled"] is True
    assert [(r["target"], r["damage"]) for r in resolved["results"]] == [("ana", 300)]


async def test_8_1_1_3_a_window_left_open_by_a_block_times_out_with_it(
    referee: Referee,
) -> None:
    """ana's Ráfaga may be reacted to twice (umh 8.1.1.3): bruno blocks once, the window
    stays open on its real timer (``answers_left`` 1), then times out keeping the block:
    300 - 100 lands; the window is closed, so a late second answer finds none."""
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 2}
    )
    barrage = {**offensive("Ráfaga", damage=300), "reactable_times": 2}
    await community.register("ana", vel=7, skills=[barrage])
    blocks = [defensive("Bloqueo", defense=100), defensive("Escudo", defense=50)]
    await community.register("bruno", vel=5, skills=blocks)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Ráfaga", ["bruno"])
    body = {"type": "react", "actor": "bruno", "action_id": used["action_id"], "skill": "Bloqueo"}
    answer = await community.act_ok(cid, body)
    told = [e["data"] for e in answer["events"] if e["type"] == "reaction.answered"]
    assert [(t["answer"], t["answers_left"]) for t in told] == [(1, 1)]
    closed = await community.wait_event(
        cid, "reaction.timed_out", lambda d: d["reactor"] == "bruno"
    )
    assert closed["data"]["answers"] == 1
    resolved = await resolved_of(community, cid, used["action_id"])
    (row,) = resolved["results"]
    assert (row["damage"], row["reaction"]["skill"]) == (200, "Bloqueo")
    late = await community.act(cid, {**body, "skill": "Escudo"})
    assert error_of(late, 422, "no_pending_reaction")["rule"] == "umh 8.1.1.3"
