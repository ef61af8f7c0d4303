"""umh windows over HTTP with the running services' real timers: a supplementary skill's
window (8.2.2.2 / 8.2.3.1) that nobody answers times out and the skill resolves; a defensive
skill used once in a round cannot answer a second hit of that round (2.3.1.3)."""

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
