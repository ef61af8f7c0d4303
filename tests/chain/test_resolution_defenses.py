"""One defense of each variation declared and answered in the chain (umh 8.2, 9.2, 7.1).

Each test opens a combat with an attack (umh 1.1.1.1), answers the defense window with one
kind of defensive skill and reads the ``action.resolved`` of that hit from the combat log:
the number a careful moderator computes and the steps that show why.
"""

from __future__ import annotations

from typing import Any

from tests.support.sheets import JSON, umh_sheet_with
from tests.support.steps import react_with, register_sheet, resolved_of
from tests.support.table import ChainCommunity, ChainReferee


def attack(name: str, damage: int, natures: list[str], pa: int = 2, **fields: Any) -> JSON:
    base: JSON = {"name": name, "tier": 1, "pa": pa, "type": "offensive", "damage": damage}
    return {**base, "natures": natures, "reach": 1, **fields}


def guard(name: str, kind: str, **fields: Any) -> JSON:
    base: JSON = {"name": name, "tier": 1, "pa": 1, "type": "defensive", "defense_kind": kind}
    return {**base, "natures": ["fisica"], **fields}


async def opened(
    referee: ChainReferee, ana: JSON, bruno: JSON, skill: str
) -> tuple[ChainCommunity, str, str]:
    """A community, a combat opened by ana's ``skill`` on bruno, and bruno's window."""
    community = await referee.new_community()
    await register_sheet(community, "ana", ana)
    await register_sheet(community, "bruno", bruno)
    combat = await community.start_attack("ana", ["bruno"], skill)
    (window,) = combat["pending_reactions"]
    assert window["reactor"] == "bruno", window
    return community, combat["id"], window["action_id"]


def only_result(resolved: JSON, target: str) -> JSON:
    rows = [row for row in resolved["results"] if row["target"] == target]
    assert len(rows) == 1, resolved
    row: JSON = rows[0]
    return row


def steps_named(row: JSON) -> list[str]:
    return [step["step"] for step in row["steps"]]


async def vit_of(community: ChainCommunity, combat_id: str, who: str) -> int:
    combat = await community.combat(combat_id)
    return int(combat["participants"][who]["vit"])


async def test_internal_defense_against_fire_leaves_a_burn(referee: ChainReferee) -> None:
    """umh 9.1.1, 9.2.5, 7.1.1.5 / A-28: (300 − 100 − 20) × 0.90 = 162; burn 30 × 3."""
    ana = umh_sheet_with("Ana", skills=[attack("Llama", 300, ["fuego"])])
    bruno = umh_sheet_with(
        "Bruno",
        skills=[guard("Bloqueo", "internal", defense=100)],
        resistance={"value": 20, "hardness": "acero"},
        reductions={"general": 10},
    )
    community, cid, action_id = await opened(referee, ana, bruno, "Llama")
    await react_with(community, cid, "bruno", action_id, "Bloqueo")
    resolved = await resolved_of(community, cid, action_id)
    row = only_result(resolved, "bruno")
    assert steps_named(row)[:6] == [
        "base",
        "defense",
        "resistance",
        "reduction",
        "floor",
        "vitality",
    ]
    assert row["damage"] == 162
    (burn,) = row["effects"]
    assert (burn["type"], burn["amount"], burn["actions_left"]) == ("quemadura", 30, 3)
    await community.wait_event(cid, "effect.applied", lambda d: d["effect"]["type"] == "quemadura")
    combat = await community.combat(cid)
    assert combat["participants"]["bruno"]["vit"] == 1000 - 162
    assert [e["type"] for e in combat["participants"]["bruno"]["effects"]] == ["quemadura"]


async def test_external_defense_without_all_angles_against_sonic(referee: ChainReferee) -> None:
    """umh 7.1.3.1 / A-29: ceil(301 / 2) = 151 gets past; the other 150 meet 200: 151."""
    ana = umh_sheet_with("Ana", skills=[attack("Grito", 301, ["sonora"])])
    bruno = umh_sheet_with("Bruno", skills=[guard("Campo", "external", defense=200)])
    community, cid, action_id = await opened(referee, ana, bruno, "Grito")
    await react_with(community, cid, "bruno", action_id, "Campo")
    row = only_result(await resolved_of(community, cid, action_id), "bruno")
    defense = next(step for step in row["steps"] if step["step"] == "defense")
    assert (defense["kind"], defense["sonic_past_defense"], defense["after"]) == (
        "external",
        151,
        151,
    )
    assert row["damage"] == 151


async def test_evasion_without_the_light_requirement_takes_half(referee: ChainReferee) -> None:
    """umh 8.2.1.4 / A-98, T000-38: a light skill evaded with REF 2: 200 integral damage."""
    ana = umh_sheet_with("Ana", skills=[attack("Destello", 400, ["luz"])])
    bruno = umh_sheet_with("Bruno", skills=[guard("Salto", "evasion")], stats={"ref": 2})
    community, cid, action_id = await opened(referee, ana, bruno, "Destello")
    await react_with(community, cid, "bruno", action_id, "Salto")
    row = only_result(await resolved_of(community, cid, action_id), "bruno")
    evasion = next(step for step in row["steps"] if step["step"] == "evasion")
    assert (evasion["rule"], evasion["after"]) == ("umh 8.2.1.4", 200)
    assert row["damage"] == 200


async def test_anticipation_with_damage_cancels_and_refunds(referee: ChainReferee) -> None:
    """umh 8.2.2.1, 3.2 / A-18: 50 damage to ana, her 3-PA attack does not happen, 1 PA back."""
    ana = umh_sheet_with("Ana", skills=[attack("Golpe", 300, ["fisica"], pa=3)])
    bruno = umh_sheet_with("Bruno", skills=[guard("Adelanto", "anticipation", damage=50)])
    community, cid, action_id = await opened(referee, ana, bruno, "Golpe")
    await react_with(community, cid, "bruno", action_id, "Adelanto", use_number=1)
    combat = await community.combat(cid)
    for window in combat["pending_reactions"]:  # umh 8.2.2.4: ana may answer the anticipation
        if window["reactor"] == "ana":
            await react_with(community, cid, "ana", window["action_id"], None)
    resolved = await resolved_of(community, cid, action_id)
    assert resolved["cancelled"] is True
    assert resolved["refunds"] == {"ana": 1}
    assert only_result(resolved, "ana")["damage"] == 50
    assert await vit_of(community, cid, "bruno") == 1000
    assert await vit_of(community, cid, "ana") == 950


async def test_annulment_cancels_without_refund(referee: ChainReferee) -> None:
    """umh 8.2.3, 8.2.3.4 / A-54: the attack counts as performed, nothing is given back."""
    ana = umh_sheet_with("Ana", skills=[attack("Golpe", 300, ["fisica"])])
    bruno = umh_sheet_with("Bruno", skills=[guard("Nada", "annulment")])
    community, cid, action_id = await opened(referee, ana, bruno, "Golpe")
    await react_with(community, cid, "bruno", action_id, "Nada", use_number=1)
    resolved = await resolved_of(community, cid, action_id)
    assert (resolved["cancelled"], resolved["refunds"], resolved["results"]) == (True, {}, [])
    assert await vit_of(community, cid, "bruno") == 1000


async def test_counterattack_surplus_goes_back_to_the_attacker(referee: ChainReferee) -> None:
    """umh 8.2.4.3 / A-52, T000-51: attack 200 against a counter of 300: ana takes 100."""
    ana = umh_sheet_with("Ana", skills=[attack("Golpe", 200, ["fisica"])])
    bruno = umh_sheet_with("Bruno", skills=[guard("Choque", "counter", defense=300, melee=True)])
    community, cid, action_id = await opened(referee, ana, bruno, "Golpe")
    await react_with(community, cid, "bruno", action_id, "Choque")
    resolved = await resolved_of(community, cid, action_id)
    assert only_result(resolved, "bruno")["damage"] == 0
    back = only_result(resolved, "ana")
    assert (back["damage"], back["steps"][0]["step"]) == (100, "counter")
    assert await vit_of(community, cid, "ana") == 900


async def test_reflection_sends_the_skill_back(referee: ChainReferee) -> None:
    """umh 8.2.5, 8.2.5.2: annulled, and the 300 come back to their executor."""
    ana = umh_sheet_with("Ana", skills=[attack("Golpe", 300, ["fisica"])])
    bruno = umh_sheet_with("Bruno", skills=[guard("Espejo", "reflection", reach=5)])
    community, cid, action_id = await opened(referee, ana, bruno, "Golpe")
    await react_with(community, cid, "bruno", action_id, "Espejo", use_number=1)
    await react_with(community, cid, "ana", action_id, None)  # umh 8.2.5.2: her window
    resolved = await resolved_of(community, cid, action_id)
    assert resolved["cancelled"] is True
    back = only_result(resolved, "ana")
    assert (back["damage"], back["steps"][0]["step"]) == (300, "reflected")
    assert await vit_of(community, cid, "bruno") == 1000
    assert await vit_of(community, cid, "ana") == 700


async def test_an_opponent_not_targeted_annuls_the_attack(referee: ChainReferee) -> None:
    """umh 8.2.3.3: ana attacks bruno; carla, on bruno's side but not a target, annuls it
    while bruno's window is open; the hit is cancelled whatever bruno answers."""
    community = await referee.new_community()
    await register_sheet(
        community, "ana", umh_sheet_with("Ana", skills=[attack("Golpe", 300, ["fisica"])])
    )
    await register_sheet(community, "bruno", umh_sheet_with("Bruno", skills=[]))
    carla = umh_sheet_with("Carla", skills=[guard("Nada", "annulment", reach=5)])
    await register_sheet(community, "carla", carla)
    combat = await community.start_attack("ana", ["bruno", "carla"], "Golpe")
    cid = combat["id"]
    for window in combat["pending_reactions"]:
        await react_with(community, cid, window["reactor"], window["action_id"], None)
    await community.wait_turn(cid, "ana", 1)
    before = await vit_of(community, cid, "bruno")
    attack_id = (await community.use_skill(cid, "ana", "Golpe", ["bruno"]))["action_id"]
    await react_with(community, cid, "carla", attack_id, "Nada", use_number=1)
    await react_with(community, cid, "bruno", attack_id, None)
    resolved = await resolved_of(community, cid, attack_id)
    assert (resolved["cancelled"], resolved["results"]) == (True, [])
    assert await vit_of(community, cid, "bruno") == before


async def test_an_ally_covers_the_target_with_his_defense(referee: ChainReferee) -> None:
    """umh 8.1.1.3.1: ana hits bruno for 300; carla's barrier (100, covers allies) covers
    him although only he was targeted; bruno takes 200."""
    community = await referee.new_community()
    await register_sheet(
        community, "ana", umh_sheet_with("Ana", skills=[attack("Golpe", 300, ["fisica"])])
    )
    await register_sheet(community, "bruno", umh_sheet_with("Bruno", skills=[]))
    barrier = guard("Barrera", "external", defense=100, covers_allies=True, reach=5)
    await register_sheet(community, "carla", umh_sheet_with("Carla", skills=[barrier]))
    combat = await community.start_attack("ana", ["bruno", "carla"], "Golpe")
    cid = combat["id"]
    for window in combat["pending_reactions"]:
        await react_with(community, cid, window["reactor"], window["action_id"], None)
    await community.wait_turn(cid, "ana", 1)
    before = await vit_of(community, cid, "bruno")
    attack_id = (await community.use_skill(cid, "ana", "Golpe", ["bruno"]))["action_id"]
    await react_with(community, cid, "carla", attack_id, "Barrera")
    await react_with(community, cid, "bruno", attack_id, None)
    resolved = await resolved_of(community, cid, attack_id)
    row = only_result(resolved, "bruno")
    assert (row["damage"], row["reaction"]["covered_by"]) == (200, "carla")
    assert await vit_of(community, cid, "bruno") == before - 200


async def test_the_attacker_answers_the_surplus_of_a_ranged_counter(referee: ChainReferee) -> None:
    """umh 8.2.4.3 - 8.2.4.4 / A-52: attack 200 against a ranged counter of 300: ana gets a
    window for the 100 that come back and answers with a barrier of 60: she takes 40."""
    ana = umh_sheet_with(
        "Ana", skills=[attack("Golpe", 200, ["fisica"]), guard("Campo", "external", defense=60)]
    )
    bruno = umh_sheet_with("Bruno", skills=[guard("Rayo", "counter", defense=300, reach=5)])
    community, cid, action_id = await opened(referee, ana, bruno, "Golpe")
    answered = await react_with(community, cid, "bruno", action_id, "Rayo")
    (window,) = answered["combat"]["pending_reactions"]
    assert (window["reactor"], window["anticipation_by"]) == ("ana", "bruno")
    await react_with(community, cid, "ana", action_id, "Campo")
    resolved = await resolved_of(community, cid, action_id)
    back = only_result(resolved, "ana")
    assert (back["damage"], back["steps"][0]["step"]) == (40, "counter")
    assert await vit_of(community, cid, "ana") == 960
