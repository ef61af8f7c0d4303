"""A combat fought to the end: damage breakdowns, the fall, the result and its aftermath.

umh 1.1.1.1 (an attack opens the combat), 9.1.1 (damage pipeline: defense, resistance,
reduction, floor), 4.1.1.2 (a side at 0 VIT loses) and 4.1.4 (reaching 0 VIT costs 1 vigor).
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

import pytest

from tests.support.play import error_of, of_type, types_of
from tests.support.sheets import JSON, defensive, offensive
from tests.support.table import ChainReferee

DAMAGE = 201
BLOCK = 30
RESISTANCE = 10
REDUCTION = {"general": 10, "fisica": 5}  # added: 15 % (umh 9.4.3)
VIT = 300


def expected_damage(*, defense: int) -> int:
    """umh 9.1.1: base - defense - resistance, then the reduction, then the floor (2.7.1)."""
    percent = sum(REDUCTION.values())
    return floor((Fraction(DAMAGE) - defense - RESISTANCE) * (100 - Fraction(percent)) / 100)


def steps_of(result: JSON) -> dict[str, JSON]:
    return {step["step"]: step for step in result["steps"]}


async def test_attacks_bring_the_defender_to_zero_and_the_attackers_win(
    referee: ChainReferee,
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 10, "defense_seconds": 10}
    )
    # Three different offensive skills, so no "once per round" rule (umh 2.3.1.3) is involved.
    attacks = [offensive(name, damage=DAMAGE, pa=3) for name in ("Golpe", "Patada", "Codazo")]
    await community.register("ana", vel=6, skills=attacks)
    await community.register(
        "bruno",
        vel=5,
        vit=VIT,
        resistance=RESISTANCE,
        reductions=REDUCTION,
        skills=[defensive("Bloqueo", defense=BLOCK, pa=1)],
    )

    # The opening attack: bruno's window is open before any preparation.
    combat = await community.start_attack("ana", ["bruno"], "Golpe")
    cid = combat["id"]
    (window,) = combat["pending_reactions"]
    assert (window["reactor"], window["attacker"], window["skill"]) == ("bruno", "ana", "Golpe")
    assert combat["participants"]["bruno"]["vit"] == VIT

    blocked = await community.react(cid, "bruno", window["action_id"], "Bloqueo")
    (resolved,) = of_type(blocked["events"], "action.resolved")
    (result,) = resolved["data"]["results"]
    steps = steps_of(result)
    after_block = DAMAGE - BLOCK
    after_resistance = after_block - RESISTANCE
    reduced = after_resistance * (100 - Fraction(15)) / 100  # 136.85
    assert [step["step"] for step in result["steps"]] == [
        "base",
        "defense",
        "resistance",
        "reduction",
        "floor",
        "vitality",
    ]
    assert steps["base"]["after"] == DAMAGE
    assert (steps["defense"]["before"], steps["defense"]["after"]) == (DAMAGE, after_block)
    assert (steps["defense"]["skill"], steps["defense"]["defense"]) == ("Bloqueo", BLOCK)
    assert steps["resistance"]["after"] == after_resistance
    assert steps["reduction"]["percent"] == 15
    assert steps["reduction"]["after"] == pytest.approx(float(reduced))
    assert steps["floor"]["after"] == floor(reduced) == expected_damage(defense=BLOCK) == 136
    first_hit = expected_damage(defense=BLOCK)
    assert (result["damage"], result["vit_before"], result["vit_after"]) == (
        first_hit,
        VIT,
        VIT - first_hit,
    )

    # Preparation (umh 1.3.1), then round 1 opens with the aggressor (2.2.1).
    await community.wait_turn(cid, "ana", 1)
    vit = VIT - first_hit
    hit = expected_damage(defense=0)  # bruno takes the rest with no defense: 162 each
    for skill in ("Patada", "Codazo"):
        attack = await community.use_skill(cid, "ana", skill, ["bruno"])
        taken = await community.react(cid, "bruno", attack["action_id"], None)
        (resolved,) = of_type(taken["events"], "action.resolved")
        (result,) = resolved["data"]["results"]
        assert steps_of(result)["defense"]["note"] == "no_reaction"
        assert result["damage"] == hit
        assert (result["vit_before"], result["vit_after"]) == (vit, max(0, vit - hit))
        vit = max(0, vit - hit)
    assert vit == 0

    # The last hit brought bruno to 0 VIT: down, and the combat ends (umh 4.1.1.2).
    events = await community.wait_events(
        cid, lambda evs: bool(of_type(evs, "combat.ended")), what="combat.ended"
    )
    (down,) = of_type(events, "combatant.down")
    assert down["data"]["character"] == "bruno"
    assert down["data"]["by"] == "ana"
    (ended,) = of_type(events, "combat.ended")
    assert (ended["data"]["winner"], ended["data"]["reason"]) == ("attackers", "defeat")
    assert ended["data"]["participants"]["bruno"]["reached_zero_vit"] is True
    assert ended["data"]["participants"]["ana"]["reached_zero_vit"] is False
    assert types_of(events).index("combatant.down") < types_of(events).index("combat.ended")

    final = await community.combat(cid)
    assert final["phase"] == "ended"
    assert final["result"] == {"winner": "attackers", "reason": "defeat"}
    assert final["turn"] is None
    assert final["pending_reactions"] == []
    assert final["participants"]["bruno"]["status"] == "down"
    assert final["participants"]["bruno"]["vit"] == 0
    assert final["participants"]["ana"]["status"] == "active"

    # Nothing more can happen in an ended combat.
    for body in (
        {"type": "pass_turn", "actor": "ana"},
        {"type": "skill", "actor": "ana", "skill": "Golpe", "targets": ["bruno"]},
    ):
        refused = error_of(await community.act(cid, body), 422, "combat_ended")
        assert refused["rule"] == "umh 4.1.1"
    assert (await community.combat(cid))["version"] == final["version"]

    # umh 4.1.4: reaching 0 VIT costs bruno 1 vigor point (services/states applies it).
    async def vigor_lost() -> JSON | None:
        status = await community.status("bruno")
        return status if status["vigor_lost"] == 1 and status["in_combat"] is None else None

    bruno = await referee.wait_until(vigor_lost, within=10, what="bruno's vigor_lost == 1")
    assert bruno["vigor_lost"] == 1

    async def ana_left() -> JSON | None:
        status = await community.status("ana")
        return status if status["in_combat"] is None else None

    ana = await referee.wait_until(ana_left, within=10, what="ana out of the combat")
    assert ana["vigor_lost"] == 0


async def test_a_fallen_defender_loses_his_turns_while_his_side_fights_on(
    referee: ChainReferee,
) -> None:
    community = await referee.new_community()
    skills = [offensive("Empujón", damage=1, pa=1), offensive("Golpe", damage=500, pa=3)]
    await community.register("ana", vel=6, skills=skills)
    await community.register("bruno", vel=5, vit=100)
    await community.register("carla", vel=4)

    # One against two: the lone fighter has a turn after each opponent (umh 1.2.6, A-66).
    combat = await community.start_attack("ana", ["bruno", "carla"], "Empujón")
    cid = combat["id"]
    for window in combat["pending_reactions"]:
        await community.react(cid, window["reactor"], window["action_id"], None)
    fighting = await community.wait_turn(cid, "ana", 1)
    assert fighting["turn_order"] == ["ana", "bruno", "ana", "carla"]

    # bruno falls in ana's first turn; the defenders still have carla: no end (umh 4.1.1).
    attack = await community.use_skill(cid, "ana", "Golpe", ["bruno"])
    taken = await community.react(cid, "bruno", attack["action_id"], None)
    assert [e["data"]["character"] for e in of_type(taken["events"], "combatant.down")] == ["bruno"]
    assert not of_type(taken["events"], "combat.ended")
    after = taken["combat"]
    assert after["phase"] == "fighting"
    assert after["participants"]["bruno"]["status"] == "down"
    assert after["participants"]["bruno"]["vit"] == 0

    # bruno's entry of the order is skipped: ana's second turn follows hers.
    passed = await community.pass_turn(cid, "ana")
    (started,) = of_type(passed["events"], "turn.started")
    assert (started["data"]["actor"], started["data"]["index"]) == ("ana", 2)
    fallen = await community.act(cid, {"type": "pass_turn", "actor": "bruno"})
    assert error_of(fallen, 422, "character_down")["rule"] == "umh 4.1.1"
    hit_again = await community.act(
        cid, {"type": "skill", "actor": "ana", "skill": "Empujón", "targets": ["bruno"]}
    )
    assert error_of(hit_again, 422, "character_down")["rule"] == "umh 4.1.1"

    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "carla")
    round_two = await community.wait_turn(cid, "ana", 2)
    assert round_two["turn_order"] == ["ana", "carla"]
    events = await community.events_of(cid)
    assert [e["data"]["actor"] for e in of_type(events, "turn.started")] == [
        "ana",
        "ana",
        "carla",
        "ana",
    ]
