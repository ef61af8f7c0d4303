"""Two weapons at once in the chain (umh 12): only an ambidextrous character may (12.1); the
hit reports the weapons' ARMA together (12.2) and applies the additional effects of the one
the player chose (12.3)."""

from __future__ import annotations

from tests.support.play import error_of, unique
from tests.support.sheets import JSON, offensive
from tests.support.steps import register_with
from tests.support.table import ChainReferee

KATANA: JSON = {
    "name": "Katana",
    "tier": 3,
    "arma": 100,
    "class": "medium",
    "effects": [{"kind": "indirect", "type": "quemadura", "amount": 20, "actions": 3}],
}
WAKIZASHI: JSON = {
    "name": "Wakizashi",
    "tier": 2,
    "arma": 80,
    "class": "medium",
    "effects": [{"kind": "state", "type": "mojado", "actions": 3}],
}
TAJO = offensive("Tajo", damage=50, pa=2)


async def test_two_weapons_combine_their_arma_and_one_gives_its_effects(
    referee: ChainReferee,
) -> None:
    community = await referee.new_community()
    await register_with(
        community, "ana", vel=6, skills=[TAJO], weapons=[KATANA, WAKIZASHI], traits=["ambidextrous"]
    )
    await register_with(community, "bruno", vel=5, skills=[TAJO], weapons=[KATANA, WAKIZASHI])
    combat = await community.start_challenge("ana", "bruno", room=unique("room"))
    cid = combat["id"]
    await community.wait_turn(cid, "ana", 1)

    body: JSON = {"type": "skill", "actor": "ana", "skill": "Tajo", "targets": ["bruno"]}
    answer = await community.act(cid, {**body, "weapons": ["Katana", "Hacha"]})
    assert error_of(answer, 422, "unknown_weapon")["rule"] == "umh 12.1"

    attack = await community.act_ok(
        cid, {**body, "weapons": ["Katana", "Wakizashi"], "weapon_effects": "Wakizashi"}
    )
    await community.react(cid, "bruno", attack["action_id"], None)
    resolved = await community.wait_event(
        cid, "action.resolved", lambda data: data["action_id"] == attack["action_id"]
    )
    assert resolved["data"]["weapons"] == {
        "used": ["Katana", "Wakizashi"],
        "effects_of": "Wakizashi",
        "rule": "umh 12.3",
        "arma": 110,  # umh 12.2.2: 100 x 0.70 + 80 x 0.50
        "arma_rule": "umh 12.2.2",
    }
    (row,) = resolved["data"]["results"]
    assert [(e["kind"], e["type"]) for e in row["effects"]] == [("state", "mojado")]

    # umh 12.1: bruno is not ambidextrous.
    await community.pass_turn(cid, "ana")
    await community.wait_turn(cid, "bruno", 1)
    answer = await community.act(
        cid,
        {
            "type": "skill",
            "actor": "bruno",
            "skill": "Tajo",
            "targets": ["ana"],
            "weapons": ["Katana", "Wakizashi"],
        },
    )
    assert error_of(answer, 422, "not_ambidextrous")["rule"] == "umh 12.1"
