"""docs/rules.md 5.1 vectors of states, time and positions (umh 7.1.1.5 - 7.1.1.6, 10, 11)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.resolution.domain.umh.positions import collision_share, collision_shares
from shared.messages import COMBATANT_DOWN, EFFECT_APPLIED, EFFECT_EXPIRED
from tests.unit.resolution.umh.kit import JSON, Fight, attack, defense, result_of, sheet, step

BLOCK = "Bloqueo"
STUN = {"kind": "control", "type": "aturdimiento", "actions": 2}


def burn(amount: int, actions: int, kind: str = "quemadura") -> JSON:
    return {"kind": "indirect", "type": kind, "amount": amount, "actions": actions}


def test_t000_39_fire_blocked_internally_burns_10_percent_for_3_actions() -> None:
    fire = attack("Llama", damage=1000, natures=["fuego"])
    fight = Fight(
        {
            "ana": sheet("Ana", fire),
            "bruno": sheet("Bruno", defense(BLOCK, "internal", 1000), vit=2000),
        }
    )
    row = result_of(fight.hit("Llama", ["bruno"], reactions={"bruno": {"skill": BLOCK}}), "bruno")
    assert row["damage"] == 0
    (burning,) = fight.effects("bruno", "indirect")
    assert (burning["type"], burning["amount"], burning["actions_left"]) == ("quemadura", 100, 3)
    fight.turn("bruno")
    for _ in range(4):
        fight.declared()
    assert fight.vit("bruno") == 1700  # 3 ticks of 100, then it ends
    fireproof = Fight(
        {
            "ana": sheet("Ana", fire),
            "bruno": sheet("Bruno", defense(BLOCK, "internal", 1000), traits=["fireproof"]),
        }
    )
    fireproof.hit("Llama", ["bruno"], reactions={"bruno": {"skill": BLOCK}})
    assert fireproof.effects("bruno", "indirect") == []


@pytest.mark.parametrize(
    ("traits", "before", "paralysed"),
    [
        pytest.param([], None, True, id="T000-40a-umh-7.1.1.6-paralysis"),
        pytest.param(["insulated"], None, False, id="T000-40b-umh-7.1.1.6-insulated"),
        pytest.param([], "Aturdir", False, id="T000-40c-umh-11.5.18-one-cc"),
    ],
)
def test_t000_40_electric_blocked_internally(
    traits: list[str], before: str | None, paralysed: bool
) -> None:
    bolt = attack("Rayo", damage=100, natures=["electrica"])
    stun = attack("Aturdir", damage=10, effects=[STUN])
    fight = Fight(
        {
            "ana": sheet("Ana", bolt, stun),
            "bruno": sheet("Bruno", defense(BLOCK, "internal", 500), traits=traits),
        }
    )
    if before:
        fight.hit(before, ["bruno"])
    fight.hit("Rayo", ["bruno"], reactions={"bruno": {"skill": BLOCK}})
    types = [e["type"] for e in fight.effects("bruno", "control")]
    assert ("paralisis" in types) is paralysed
    assert len(types) <= 1


def test_t000_43_mental_damage_regenerates_only_half() -> None:
    mind = attack("Mente", damage=200, natures=["mental"])
    fight = Fight({"ana": sheet("Ana", mind), "bruno": sheet("Bruno", regeneration=500)})
    fight.hit("Mente", ["bruno"])
    fight.end_turn("bruno")
    assert fight.vit("bruno") == 900  # 100 of the 200 came back


@pytest.mark.parametrize(
    ("height", "traits", "fall", "down"),
    [
        pytest.param("voladora", [], 200, True, id="T000-59a-umh-11.5.3.1-from-voladora"),
        pytest.param("alzada", [], 100, True, id="T000-59b-umh-11.5.3.2-A-9-from-alzada"),
        pytest.param("voladora", ["superhuman_resistance"], 0, True, id="T000-59c-superhuman"),
        pytest.param(
            "voladora", ["mystic_suspension"], 0, False, id="T000-59d-umh-10.2.6-suspension"
        ),
    ],
)
def test_t000_59_knockdown_from_a_height(
    height: str, traits: list[str], fall: int, down: bool
) -> None:
    stun = attack("Aturdir", damage=1200, effects=[STUN])
    fight = Fight({"ana": sheet("Ana", stun), "bruno": sheet("Bruno", vit=2000, traits=traits)})
    positions = {"bruno": {"square": None, "height": height}}
    resolved = fight.hit("Aturdir", ["bruno"], positions=positions)
    row = result_of(resolved, "bruno")
    assert fight.vit("bruno") == 800 - fall
    assert bool(fight.effects("bruno", "state")) is down
    if down:
        assert resolved["moved"]["bruno"]["height"] == "suelo"
        fell = step(row, "fall")
        assert fell is not None and fell["damage"] == fall


def test_t000_60_indirects_one_per_type_bigger_replaces() -> None:
    skills = [
        attack(f"S{a}", damage=1, effects=[burn(a, n)]) for a, n in ((50, 2), (80, 3), (30, 3))
    ]
    poison = attack("Veneno", damage=1, effects=[burn(40, 3, "envenenamiento")])
    fight = Fight({"ana": sheet("Ana", *skills, poison), "bruno": sheet("Bruno")})
    fight.hit("S50", ["bruno"])
    fight.hit("S80", ["bruno"])
    (current,) = fight.effects("bruno", "indirect")
    assert (current["amount"], current["actions_left"]) == (80, 3)
    assert [e.payload["reason"] for e in fight.events_of(EFFECT_EXPIRED)] == ["replaced"]
    fight.hit("S30", ["bruno"])
    (current,) = fight.effects("bruno", "indirect")
    assert current["amount"] == 80
    other = Fight({"ana": sheet("Ana", *skills, poison), "bruno": sheet("Bruno")})
    other.hit("S50", ["bruno"])
    other.hit("Veneno", ["bruno"])
    other.turn("bruno")
    before = other.vit("bruno")
    other.declared()
    assert before - other.vit("bruno") == 90


def test_t000_61_ticks_start_the_general_turn_after_and_skip_interference() -> None:
    fight = Fight(
        {"ana": sheet("Ana", attack(damage=0, effects=[burn(10, 5)])), "bruno": sheet("Bruno")}
    )
    fight.turn("ana")
    fight.hit("Golpe", ["bruno"])
    fight.declared()  # same general turn: no tick
    assert fight.vit("bruno") == 1000
    fight.turn("bruno")
    fight.declared(interference=True)
    fight.declared(general=False)
    assert fight.vit("bruno") == 1000
    fight.declared()
    assert fight.vit("bruno") == 990


def test_t000_65_disorientation_lasts_3_actions_by_default() -> None:
    daze = attack("Mareo", damage=5, effects=[{"kind": "state", "type": "desorientacion"}])
    fight = Fight({"ana": sheet("Ana", daze), "bruno": sheet("Bruno")})
    fight.hit("Mareo", ["bruno"])
    (state,) = fight.effects("bruno", "state")
    assert state["actions_left"] == 3
    for _ in range(3):
        fight.declared()
    assert fight.effects("bruno", "state") == []


def test_t000_68_cc_immunity_until_a_free_active_turn() -> None:
    stun = attack(
        "Aturdir", damage=10, effects=[{"kind": "control", "type": "aturdimiento", "actions": 1}]
    )
    fight = Fight({"ana": sheet("Ana", stun), "bruno": sheet("Bruno")})
    fight.hit("Aturdir", ["bruno"])
    fight.hit("Aturdir", ["bruno"])  # umh 11.5.18: already under a CC
    row = result_of(fight.last.events[0].payload, "bruno") if fight.last else {}
    assert step(row, "effects")["refused"][0]["reason"] == "one_control_at_a_time"  # type: ignore[index]
    fight.declared()  # the stun ends
    assert fight.who("bruno").get("cc_immune") is True
    fight.hit("Aturdir", ["bruno"])
    assert fight.effects("bruno", "control") == []
    fight.turn("bruno")
    fight.end_turn("bruno")
    assert "cc_immune" not in fight.who("bruno")
    fight.hit("Aturdir", ["bruno"])
    assert len(fight.effects("bruno", "control")) == 1


def test_t000_69_collision_shares() -> None:
    shove = attack("Empujón", damage=10, push=3, collision_damage=300)
    fight = Fight({"ana": sheet("Ana", shove), "bruno": sheet("Bruno"), "carla": sheet("Carla")})
    positions = {
        "ana": {"square": [0, 0]},
        "bruno": {"square": [1, 0]},
        "carla": {"square": [3, 0]},
    }
    resolved = fight.hit("Empujón", ["bruno"], positions=positions)
    assert resolved["moved"]["bruno"]["square"] == [2, 0]
    assert fight.vit("bruno") == 1000 - 10 - 300
    assert fight.vit("carla") == 1000 - 150
    for who in ("bruno", "carla"):
        (stun,) = fight.effects(who, "control")
        assert stun["actions_left"] == 1


def test_t000_77_stun_cancels_maintained_skills_not_inflicted_ones() -> None:
    aura = {
        "name": "Aura",
        "tier": 1,
        "pa": 1,
        "type": "supplementary",
        "natures": ["fisica"],
        "effects": [{"kind": "booster", "nature": "fisica", "percent": 10, "actions": 9}],
    }
    stun = attack("Aturdir", damage=10, effects=[STUN])
    fight = Fight(
        {
            "ana": sheet("Ana", stun),
            "bruno": sheet("Bruno", aura, attack(damage=0, effects=[burn(5, 5)])),
        }
    )
    fight.hit("Aura", [], attacker="bruno")
    fight.hit("Golpe", ["ana"], attacker="bruno")
    fight.hit("Aturdir", ["bruno"])
    assert fight.effects("bruno", "booster") == []
    assert [e["type"] for e in fight.effects("ana", "indirect")] == ["quemadura"]


def test_indirect_tick_can_bring_down() -> None:
    fight = Fight(
        {"ana": sheet("Ana", attack(damage=0, effects=[burn(600, 5)])), "bruno": sheet("Bruno")}
    )
    fight.hit("Golpe", ["bruno"])
    fight.turn("bruno")
    fight.declared()
    events = fight.declared()
    assert [e.payload["cause"] for e in events if e.type == COMBATANT_DOWN] == ["indirect"]


def test_effect_applied_carries_blocks() -> None:
    skills = [
        attack(
            "Enamorar", damage=5, effects=[{"kind": "state", "type": "enamoramiento", "actions": 2}]
        ),
        attack("Atar", damage=5, effects=[{"kind": "state", "type": "derribo"}]),
        attack("Parar", damage=5, effects=[{"kind": "control", "type": "paralisis", "actions": 1}]),
    ]
    fight = Fight({"ana": sheet("Ana", *skills), "bruno": sheet("Bruno")})
    blocks = []
    for name in ("Enamorar", "Atar", "Parar"):
        fight.hit(name, ["bruno"])
        blocks += [e.payload["blocks"] for e in fight.events_of(EFFECT_APPLIED)]
    assert blocks == [
        ["attack:ana"],
        ["move", "evade_with_legs", "stand_up"],
        ["act_unless_telepathic"],
    ]


def test_regeneration_stops_at_soul_and_pain() -> None:
    soul = attack("Alma", damage=100, natures=["alma"])
    fight = Fight({"ana": sheet("Ana", soul), "bruno": sheet("Bruno", regeneration=50)})
    fight.hit("Alma", ["bruno"])
    fight.end_turn("bruno")
    assert fight.vit("bruno") == 900


def test_t000_69_collision_shares_with_companions() -> None:
    share = collision_shares(companions=1)
    assert share == Fraction(1, 4)
    assert collision_share(300, share, control=False) == 75
    assert collision_share(1, share, control=True) == 1
