"""umh 1.3.5 / 1.3.6: in the preparation round a fighter may use the supplementary skill that
answering (or executing) the opening attack needed. Driven through the chain."""

from __future__ import annotations

from tests.support.play import error_of
from tests.support.sheets import JSON, offensive, supplementary
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
ESCUDO: JSON = {
    "name": "Escudo de fuego",
    "tier": 1,
    "pa": 1,
    "type": "defensive",
    "defense_kind": "internal",
    "natures": ["fisica"],
    "defense": 50,
    "requires_preparation": "Canalizar",
}


async def test_1_3_5_the_defender_prepares_what_his_answer_needed(referee: ChainReferee) -> None:
    """bruno answered the opening attack with Escudo de fuego, which needs Canalizar: he may
    use Canalizar in the preparation round; Concentración (which says nothing) he may not."""
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=7, skills=[offensive("Puño")])
    bruno = [ESCUDO, supplementary("Canalizar", pa=1), supplementary("Concentración", pa=1)]
    await community.register("bruno", vel=5, skills=bruno)
    opened = await community.start_attack("ana", ["bruno"], "Puño")
    cid = opened["id"]
    (window,) = opened["pending_reactions"]
    await community.react(cid, "bruno", window["action_id"], "Escudo de fuego")
    await community.wait_combat(cid, lambda c: c["phase"] == "preparation", what="preparation")
    other = await community.act(
        cid, {"type": "skill", "actor": "bruno", "skill": "Concentración", "targets": []}
    )
    assert error_of(other, 422, "not_allowed_in_prep")["rule"] == "umh 1.3.2"
    await community.act_ok(
        cid, {"type": "skill", "actor": "bruno", "skill": "Canalizar", "targets": []}
    )
