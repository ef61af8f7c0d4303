"""Adding a ruleset is adding its folders and one line per registry (issue 11).

The toy ruleset of ``tests/chain/toy`` is registered from this test in each service's
registry and played end to end through the three services' real handlers: the gate of
services/states, the start, attacks that turns declares and resolution resolves, turns
that alternate, the end at 0 HP, and the aftermath services/states keeps.
"""

from __future__ import annotations

from typing import Any

import pytest

from gateway.commands import Outcome
from gateway.gates import ask_states
from services.resolution import rulesets as resolution_registry
from services.states import rulesets as states_registry
from services.turns import rulesets as turns_registry
from shared.messages import CMD_COMBAT_ACT, CMD_COMBAT_START, new_id
from shared.payloads import ActOnCombat, Opening, StartCombat, StatesCheck
from shared.settings import CommunitySettings
from tests.chain.toy import ATTACK, DAMAGE, NAME
from tests.chain.toy.resolution import ToyResolution
from tests.chain.toy.states import ToyAftermath
from tests.chain.toy.turns import ToyTurns
from tests.support.chain import Chain

TENANT, ROOM = "t_toy", "arena"


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy ruleset in every registry, for this test only."""
    monkeypatch.setitem(turns_registry.RULESETS, NAME, ToyTurns())
    monkeypatch.setitem(resolution_registry.RULESETS, NAME, ToyResolution())
    monkeypatch.setitem(states_registry.RULESETS, NAME, ToyAftermath())


async def start(chain: Chain, attacker: str, defender: str) -> str:
    """What the gateway does for ``POST /v1/combats``: the gate, then ``combat.start``."""
    combat_id = new_id("c")
    fighters = [attacker, defender]
    gate = StatesCheck(
        purpose="start",
        ruleset=NAME,
        combat_id=combat_id,
        characters=fighters,
        attacker=attacker,
        defenders=[defender],
        challenge=True,
    )
    await ask_states(chain, tenant=TENANT, room=ROOM, query=gate)
    command = StartCombat(
        combat_id=combat_id,
        ruleset=NAME,
        attacker=attacker,
        defenders=[defender],
        opening=Opening(kind="challenge"),
        sheets={c: {"name": c.capitalize(), "hp": 10} for c in fighters},
        settings=CommunitySettings(),
    )
    started = await send(chain, CMD_COMBAT_START, combat_id, command.model_dump(mode="json"))
    assert started.rejected is None and started.complete
    return combat_id


async def attack(chain: Chain, combat_id: str, actor: str, target: str) -> Outcome:
    action = {"type": "skill", "actor": actor, "skill": ATTACK, "targets": [target]}
    command = ActOnCombat.model_validate({"action_id": new_id("a"), "action": action})
    return await send(chain, CMD_COMBAT_ACT, combat_id, command.model_dump(mode="json"))


async def send(chain: Chain, type_: str, combat_id: str, payload: dict[str, Any]) -> Outcome:
    return await chain.send(
        type_,
        payload,
        tenant=TENANT,
        room=ROOM,
        combat_id=combat_id,
        correlation_id=new_id("r"),
        message_id=new_id("m"),
    )


def view(chain: Chain, service: str, combat_id: str) -> dict[str, Any]:
    found = chain.view(chain.keys.combat(service, combat_id))
    assert found is not None
    return found


async def test_a_fourth_ruleset_plays_a_whole_combat_through_the_three_services(
    chain: Chain,
) -> None:
    combat_id = await start(chain, "ana", "bruno")
    hp = {"ana": 10, "bruno": 10}
    order = ["ana", "bruno", "ana", "bruno", "ana"]  # toy 3: turns alternate
    for turn, actor in enumerate(order):
        target = "bruno" if actor == "ana" else "ana"
        out_of_turn = await attack(chain, combat_id, target, actor)
        assert out_of_turn.rejected is not None
        refused = out_of_turn.rejected.payload
        assert (refused["code"], refused["rule"]) == ("not_your_turn", "toy 3")
        hit = await attack(chain, combat_id, actor, target)
        assert hit.rejected is None and hit.complete
        types = [e.type for e in hit.events]
        (resolved,) = [e.payload for e in hit.events if e.type == "action.resolved"]
        assert resolved["results"][0]["damage"] == min(DAMAGE, hp[target])  # toy 2
        hp[target] = max(0, hp[target] - DAMAGE)
        if turn < len(order) - 1:
            assert types[-2:] == ["turn.ended", "turn.started"]
        else:
            assert types[-1] == "combat.ended"  # toy 4
    assert hp == {"ana": 2, "bruno": 0}

    turns = view(chain, "turns", combat_id)
    assert turns["phase"] == "ended"
    assert turns["result"] == {"winner": "attackers", "reason": "defeat"}
    resolution = view(chain, "resolution", combat_id)
    assert {c: p["vit"] for c, p in resolution["participants"].items()} == hp

    # services/states kept the aftermath: nobody is in a combat, bruno lost once.
    for character, defeats in (("ana", 0), ("bruno", 1)):
        agg = chain.keys.character("states", TENANT, character)
        status = await chain.runtimes["states"].messages._store.read_view(agg)
        assert status is not None
        assert status["status"]["in_combat"] is None
        assert status["status"]["ruleset_status"] == {NAME: {"defeats": defeats}}

    ended = await attack(chain, combat_id, "bruno", "ana")
    assert ended.rejected is not None and ended.rejected.payload["code"] == "combat_ended"
    # The gate lets them fight again now that the combat is over.
    assert await start(chain, "bruno", "ana")
