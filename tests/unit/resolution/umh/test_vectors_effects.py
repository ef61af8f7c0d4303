"""docs/rules.md 5.1 vectors of the damage side (umh 7 - 12), through resolution.requested:
boosters, multi-impact and area hits, natures and the effects a hit carries."""

from __future__ import annotations

import pytest

from tests.unit.resolution.umh.kit import (
    BLOCK,
    DODGE,
    FIELD,
    Fight,
    attack,
    blocker,
    defense,
    dodger,
    fielder,
    one_hit,
    result_of,
    sheet,
    step,
)

BOOSTER_CASES = [
    ({"fisica": [20, 15]}, [], 1350, "20+15"),
    ({"fisica": [20, 15, 10]}, [], 1350, "two-of-three"),
    ({"fisica": [50, 20]}, [], 1500, "50-stands-alone"),
    ({"fisica": [60, 30]}, [], 1600, "60-alone"),
    ({}, [20, 15], 1200, "one-supplementary"),
    ({"fisica": [15]}, [20], 1350, "passive-plus-supplementary"),
]


@pytest.mark.parametrize(
    ("passive", "temporary", "expected"),
    [
        pytest.param(p, t, e, id=f"T000-45-umh-7.3.1-A-31-A-32-{name}")
        for p, t, e, name in BOOSTER_CASES
    ],
)
def test_t000_45_boosters(
    passive: dict[str, list[float]], temporary: list[float], expected: int
) -> None:
    buffs = [
        {
            "name": f"Aura{i}",
            "tier": 1,
            "pa": 1,
            "type": "supplementary",
            "natures": ["fisica"],
            "effects": [{"kind": "booster", "nature": "fisica", "percent": p, "actions": 5}],
        }
        for i, p in enumerate(temporary)
    ]
    fight = Fight(
        {
            "ana": sheet("Ana", attack(damage=1000), *buffs, boosters=passive),
            "bruno": sheet("Bruno"),
        }
    )
    for buff in buffs:
        # two temporary boosters of one nature: the highest stays (8.1.1.2.1)
        fight.hit(str(buff["name"]), ["ana"])
    if len(temporary) == 2:
        stacked = fight.effects("ana", "booster")
        assert [e["amount"] for e in stacked] == [max(temporary)]
    row = result_of(fight.hit("Golpe", ["bruno"]), "bruno")
    assert row["damage"] == expected


def test_t000_46_multi_nature_one_booster_per_nature() -> None:
    skill = attack(damage=1000, natures=["fisica", "elemental"])
    boosters = {"fisica": [20, 10], "elemental": [30]}
    row, _ = one_hit(skill, sheet("Bruno"), attacker={"boosters": boosters})
    assert row["damage"] == 1500
    assert step(row, "booster") is not None and step(row, "booster")["percent"] == 50  # type: ignore[index]


def test_t000_47_combo_boosters_on_the_first_hit_only() -> None:
    combo = attack("Ráfaga", damage=100, hits=3)
    fight = Fight({"ana": sheet("Ana", combo, boosters={"fisica": [20]}), "bruno": sheet("Bruno")})
    damages = []
    for n in (1, 2, 3):
        resolved = fight.hit("Ráfaga", ["bruno"], hit=n, hits=3)
        damages.append(result_of(resolved, "bruno")["damage"])
        assert resolved["combo_continues"] is (n < 3)
    assert damages == [120, 100, 100]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(150, 50, id="T000-48a-umh-8.1.1.3.2-defense-150"),
        pytest.param(300, 0, id="T000-48b-umh-8.1.1.3.2-defense-300"),
        pytest.param(200, 33, id="T000-48c-umh-8.1.1.3.2-A-51-floor"),
    ],
)
def test_t000_48_multi_impact_summed_and_split(value: int, expected: int) -> None:
    volley = attack("Metralla", damage=100, hits=3)
    sheets = {"ana": sheet("Ana", volley)}
    for who in ("bruno", "carla", "dario"):
        sheets[who] = sheet(who.capitalize(), defense(BLOCK, "internal", value))
    fight = Fight(sheets)
    resolved = fight.hit(
        "Metralla", ["bruno", "carla", "dario"], reactions={"bruno": {"skill": BLOCK}}
    )
    assert [r["damage"] for r in resolved["results"]] == [expected] * 3
    assert step(resolved["results"][0], "multi_impact")["before"] == 300  # type: ignore[index]


def test_t000_49_area_hits_each_target_whole() -> None:
    blast = attack("Onda", damage=100, area={"shape": "on_self", "size": 2})
    sheets = {"ana": sheet("Ana", blast)} | {w: sheet(w) for w in ("bruno", "carla", "dario")}
    resolved = Fight(sheets).hit("Onda", ["bruno", "carla", "dario"])
    assert [r["damage"] for r in resolved["results"]] == [100, 100, 100]


def test_t000_50_evasion_fallback_halves_effects_min_1() -> None:
    stun3 = attack(
        damage=500,
        natures=["luz"],
        effects=[{"kind": "control", "type": "aturdimiento", "actions": 3}],
    )
    row, fight = one_hit(
        stun3, dodger(2, resistance=50, reductions={"general": 10}), {"skill": DODGE}
    )
    assert row["damage"] == 180
    assert [e["actions_left"] for e in fight.effects("bruno", "control")] == [1]
    assert step(row, "defense")["note"] == "evasion"  # type: ignore[index]
    stun1 = attack(
        damage=500,
        natures=["luz"],
        effects=[{"kind": "control", "type": "aturdimiento", "actions": 1}],
    )
    _, fight = one_hit(stun1, dodger(2), {"skill": DODGE})
    assert [e["actions_left"] for e in fight.effects("bruno", "control")] == [1]


@pytest.mark.parametrize(
    ("attack_damage", "counter", "defender", "attacker"),
    [
        pytest.param(300, 200, 100, 0, id="T000-51a-umh-8.2.4.2-attack-wins"),
        pytest.param(200, 300, 0, 100, id="T000-51b-umh-8.2.4.3-counter-wins"),
        pytest.param(250, 250, 0, 0, id="T000-51c-umh-8.2.4-A-52-tie"),
    ],
)
def test_t000_51_counter_surplus_both_ways(
    attack_damage: int, counter: int, defender: int, attacker: int
) -> None:
    target = sheet("Bruno", defense("Choque", "counter", counter, melee=True))
    row, fight = one_hit(attack(damage=attack_damage), target, {"skill": "Choque"})
    assert row["damage"] == defender
    assert fight.vit("ana") == 1000 - attacker


def test_t000_41b_psionic_internal_mental_lands_whole() -> None:
    row, fight = one_hit(attack(damage=300, natures=["psionica"]), blocker(100), {"skill": BLOCK})
    assert row["damage"] == 200
    assert fight.who("bruno")["ledger"] == {"mental": 150}


def test_t000_44_hellfire_counts_half_as_soul() -> None:
    _, fight = one_hit(
        attack(damage=400, natures=["fuego_infernal"]), fielder(100), {"skill": FIELD}
    )
    assert fight.who("bruno")["ledger"] == {"soul": 150}


def test_t000_42_literal_sonic_reading() -> None:
    sonic = attack(damage=301, natures=["sonora"])
    literal = {"sonic_literal": True}
    for value in (200, 100):
        row, _ = one_hit(sonic, fielder(value), {"skill": FIELD}, readings=literal)
        assert row["damage"] == 151


def test_t000_57_mental_shield() -> None:
    mind = attack(
        "Mente",
        damage=150,
        natures=["mental"],
        effects=[{"kind": "control", "type": "aturdimiento", "actions": 1}],
    )
    illusion = attack(
        "Ilusión",
        damage=0,
        natures=["mental"],
        effects=[{"kind": "state", "type": "miedo", "actions": 2}],
    )
    for shield, damage, left, stunned in ((100, 40, 0, True), (200, 0, 50, False)):
        bubble = {
            "name": "Escudo mental",
            "tier": 1,
            "pa": 1,
            "type": "supplementary",
            "natures": ["mental"],
            "mental_shield": shield,
        }
        fight = Fight(
            {
                "ana": sheet("Ana", mind, illusion),
                "bruno": sheet("Bruno", bubble, reductions={"mental": 20}),
            }
        )
        fight.hit("Escudo mental", [], attacker="bruno")
        row = result_of(fight.hit("Mente", ["bruno"]), "bruno")
        assert row["damage"] == damage
        shields = fight.effects("bruno", "shield")
        assert (shields[0]["amount"] if shields else 0) == left
        assert bool(fight.effects("bruno", "control")) is stunned
        if not stunned:
            fight.hit("Ilusión", ["bruno"])
            assert not fight.effects("bruno", "state")


def test_t000_62_petrified_and_frozen_break_with_bonus() -> None:
    petrify = attack(
        "Petrificar",
        damage=0,
        natures=["mistica"],
        effects=[{"kind": "control", "type": "petrificacion", "actions": 3}],
    )
    freeze = attack(
        "Congelar",
        damage=0,
        natures=["agua"],
        effects=[{"kind": "control", "type": "congelacion", "actions": 3}],
    )
    for opener, expected in (("Petrificar", 1200), ("Congelar", 1300)):
        fight = Fight(
            {
                "ana": sheet("Ana", petrify, freeze, attack(damage=1000)),
                "bruno": sheet("Bruno", vit=5000, resistance=200, reductions={"fisica": 20}),
            }
        )
        fight.hit(opener, ["bruno"])
        assert fight.effects("bruno", "control")
        row = result_of(fight.hit("Golpe", ["bruno"]), "bruno")
        assert row["damage"] == expected
        assert not fight.effects("bruno", "control")


def test_t000_64_blind_attacker_halves_damage_and_effects() -> None:
    blinding = attack(
        "Cegar", damage=0, effects=[{"kind": "state", "type": "ceguera", "actions": 5}]
    )
    strike = attack(
        "Tajo", damage=301, effects=[{"kind": "control", "type": "aturdimiento", "actions": 3}]
    )
    fight = Fight({"ana": sheet("Ana", strike), "bruno": sheet("Bruno", blinding)})
    fight.hit("Cegar", ["ana"], attacker="bruno")
    row = result_of(fight.hit("Tajo", ["bruno"]), "bruno")
    assert row["damage"] == 150
    assert [e["actions_left"] for e in fight.effects("bruno", "control")] == [1]


@pytest.mark.parametrize(
    ("natures", "expected"),
    [
        pytest.param(["electrica"], 500, id="T000-67a-umh-11.5.12-wet-electric"),
        pytest.param(["fuego"], 300, id="T000-67b-umh-11.5.12-wet-igneous"),
    ],
)
def test_t000_67_wet(natures: list[str], expected: int) -> None:
    wave = attack("Ola", damage=100, natures=["agua"])
    fight = Fight(
        {
            "ana": sheet("Ana", wave, attack("Rayo", damage=400, natures=natures)),
            "bruno": blocker(100),
        }
    )
    fight.hit("Ola", ["bruno"], reactions={"bruno": {"skill": BLOCK}})  # umh 7.1.1.4: wet
    assert [e["type"] for e in fight.effects("bruno", "state")] == ["mojado"]
    row = result_of(fight.hit("Rayo", ["bruno"]), "bruno")
    assert row["damage"] == expected


@pytest.mark.parametrize(
    ("natures", "immune", "damage", "stun"),
    [
        pytest.param(["fisica"], ["fisica"], 0, None, id="T000-55a-umh-9.5.2-no-stun"),
        pytest.param(["fisica", "fuego"], ["fuego"], 500, 1, id="T000-55b-umh-9.5.3-A-37-stun-1"),
    ],
)
def test_t000_55_immunity_cuts_effects_too(
    natures: list[str], immune: list[str], damage: int, stun: int | None
) -> None:
    skill = attack(
        damage=1000,
        natures=natures,
        effects=[{"kind": "control", "type": "aturdimiento", "actions": 2}],
    )
    row, fight = one_hit(skill, sheet("Bruno", vit=2000, immunities=immune))
    assert row["damage"] == damage
    controls = fight.effects("bruno", "control")
    assert (controls[0]["actions_left"] if controls else None) == stun


def test_t000_42_sonic_evasion_halves_effects_rounding_up() -> None:
    skill = attack(
        damage=301,
        natures=["sonora"],
        effects=[{"kind": "control", "type": "aturdimiento", "actions": 3}],
    )
    row, fight = one_hit(skill, dodger(2), {"skill": DODGE})
    assert row["damage"] == 151
    assert [e["actions_left"] for e in fight.effects("bruno", "control")] == [2]


def test_t000_37_chronokinetic_resisted_takes_nothing() -> None:
    row, _ = one_hit(
        attack(damage=400, natures=["cronoquinetica"]), sheet("Bruno", ref=0), {"resist": True}
    )
    assert row["damage"] == 0


def test_umh_11_5_17_mystic_control_resisted_then_immune_until_own_turn() -> None:
    hex_ = attack(
        "Hechizo",
        damage=100,
        natures=["mistica"],
        effects=[{"kind": "control", "type": "aturdimiento", "actions": 1}],
    )
    fight = Fight({"ana": sheet("Ana", hex_), "bruno": sheet("Bruno")})
    row = result_of(fight.hit("Hechizo", ["bruno"], reactions={"bruno": {"resist": True}}), "bruno")
    assert row["damage"] == 100 and fight.effects("bruno", "control") == []
    assert fight.who("bruno")["resist_immune"] == ["ana:Hechizo"]
    fight.hit("Hechizo", ["bruno"])
    assert fight.effects("bruno", "control") == []  # the same skill cannot land yet
    fight.end_turn("bruno")
    fight.hit("Hechizo", ["bruno"])
    assert len(fight.effects("bruno", "control")) == 1


def test_umh_11_5_10_enamoured_annulled_with_more_vol() -> None:
    charm = attack(
        "Encanto", damage=10, effects=[{"kind": "state", "type": "enamoramiento", "actions": 3}]
    )
    strong_will = sheet("Bruno")
    strong_will["stats"] = {**strong_will["stats"], "vol": 5}
    row, fight = one_hit(charm, strong_will, {"resist": True})
    assert row["damage"] == 10 and fight.effects("bruno", "state") == []
