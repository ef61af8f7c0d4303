"""umh 11.4.1.1 / A-92 in the chain: after a faint, no rising to alzada or voladora until
one own turn has passed.

bruno makes ana faint for 1 action. While fainted she is stunned (11.4.1); once it ends she
may not use her flying skill until an own turn of hers that started after it is over.
"""

from __future__ import annotations

from typing import Any

from tests.support.play import error_of, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive, supplementary
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
FLY = {**supplementary("Volar", pa=1), "sets_position": "voladora"}
FAINT = {
    **offensive("Desmayar", damage=1),
    "effects": [{"kind": "control", "type": "desmayo", "actions": 1}],
}
FLY_BODY = {"type": "skill", "actor": "ana", "skill": "Volar", "targets": []}


async def turn_of(community: Any, cid: str) -> JSON:
    combat: JSON = await community.wait_combat(
        cid, lambda c: c["turn"] is not None and not c["pending_reactions"], what="a turn"
    )
    return combat


async def bruno_acts(community: Any, cid: str) -> None:
    """A punch (an action: durations count general actions, A-48), then his turn ends."""
    used = await community.use_skill(cid, "bruno", "Puño", ["ana"])
    await community.react(cid, "ana", used["action_id"], None)
    await turn_of(community, cid)
    await community.pass_turn(cid, "bruno")


async def test_11_4_1_1_fainted_no_climbing_until_an_own_turn_passed(
    referee: ChainReferee,
) -> None:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, vit=5000, skills=[*DEFAULT_SKILLS, FLY])
    await register_with(community, "bruno", vel=5, skills=[*DEFAULT_SKILLS, FAINT])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    await community.pass_turn(cid, "ana")
    await community.wait_turn(cid, "bruno", 1)
    used = await community.use_skill(cid, "bruno", "Desmayar", ["ana"])
    await community.react(cid, "ana", used["action_id"], None)
    refusals: list[str] = []
    for _ in range(12):  # ana's own turns until she may fly again
        combat = await turn_of(community, cid)
        actor = combat["turn"]["actor"]
        if actor != "ana":
            await bruno_acts(community, cid)
            continue
        answer = await community.act(cid, FLY_BODY)
        if answer.status_code == 200:
            break
        refusals.append(answer.json()["error"]["code"])
        await community.pass_turn(cid, "ana")
    else:
        raise AssertionError(f"ana never flew: {refusals}")
    events = await community.events_of(cid)
    ended = [e for e in of_type(events, "effect.expired") if e["data"]["type"] == "desmayo"]
    assert ended, "the faint ended"
    assert "fainted_no_climb" in refusals, refusals
    assert refusals[-1] == "fainted_no_climb", refusals  # the turn after the faint ended


async def test_11_4_1_1_the_refusal_names_its_rule(referee: ChainReferee) -> None:
    """Right after the faint ends, in the same round: refused with rule umh 11.4.1.1."""
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, vit=5000, skills=[*DEFAULT_SKILLS, FLY])
    await register_with(community, "bruno", vel=5, skills=[*DEFAULT_SKILLS, FAINT])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    await community.pass_turn(cid, "ana")
    await community.wait_turn(cid, "bruno", 1)
    used = await community.use_skill(cid, "bruno", "Desmayar", ["ana"])
    await community.react(cid, "ana", used["action_id"], None)
    for _ in range(8):
        combat = await turn_of(community, cid)
        actor = combat["turn"]["actor"]
        if actor == "ana":
            answer = await community.act(cid, FLY_BODY)
            code = answer.json()["error"]["code"] if answer.status_code != 200 else None
            if code == "fainted_no_climb":
                error = error_of(answer, 422, "fainted_no_climb")
                assert error["rule"] == "umh 11.4.1.1"
                return
            await community.pass_turn(cid, actor)
        else:
            await bruno_acts(community, cid)
    raise AssertionError("never refused with fainted_no_climb")
