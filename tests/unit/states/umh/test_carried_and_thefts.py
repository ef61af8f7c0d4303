"""umh 4.1.7 (seed 000 l.138) and 4.2.5 (l.146) in services/states' umh handlers, table-driven:
what a participant keeps from a combat's end, and each stolen item kept or returned."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.umh.carried import lasts
from services.resolution.domain.umh.effect import Effect
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, CONDITION_CARRIED, ITEM_STOLEN
from shared.vocabulary import EffectKind
from tests.unit.states.umh.builders import MINUTE, T0, World, ended, sheet, started

JSON = dict[str, Any]
HOUR = 60 * MINUTE
AMPUTATION: JSON = {"effect_id": "e_1", "kind": "state", "type": "amputacion", "limb": "pierna"}


def carried(vit: int, *, effects: tuple[JSON, ...] = (), reason: str = "pact") -> JSON:
    """``condition.carried`` for bruno (VIT max 300) and an unhurt ana."""
    return {
        "combat_id": "c_1",
        "ruleset": "umh",
        "reason": reason,
        "ended_at_ms": T0 + 10 * MINUTE,
        "participants": {
            "ana": {"vit": 300, "vit_max": 300, "effects": []},
            "bruno": {"vit": vit, "vit_max": 300, "effects": list(effects)},
        },
    }


@pytest.mark.parametrize(
    ("vit", "effects", "reason", "expected"),
    [
        pytest.param(140, (), "pact", (140, 0), id="umh 4.1.7 VIT below the max is kept"),
        pytest.param(0, (), "defeat", (1, 0), id="umh 4.1.7 VIT 0 keeps 1"),
        pytest.param(300, (AMPUTATION,), "fled", (None, 1), id="umh 4.1.7 a lasting effect"),
        pytest.param(300, (), "defeat", None, id="umh 4.1.7 nothing lost nothing carried"),
        pytest.param(140, (), "annulled", None, id="umh 4.2.4 an annulment counts nothing"),
    ],
)
def test_4_1_7_what_the_end_leaves_him(
    vit: int, effects: tuple[JSON, ...], reason: str, expected: tuple[int | None, int] | None
) -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(COMBAT_ENDED, ended(reason=reason))
    world.on(CONDITION_CARRIED, carried(vit, effects=effects, reason=reason))
    kept = world.status("bruno", T0 + 11 * MINUTE)["carried"]
    if expected is None:
        assert kept is None
        assert "carried" not in [e["change"] for e in world.history("bruno")]
        return
    assert (kept["vit"], len(kept["effects"]), kept["vit_max"]) == (*expected, 300)
    assert world.status("ana", T0 + 11 * MINUTE)["carried"] is None
    answer = world.check(
        {"purpose": "start", "characters": ["bruno", "ana"], "attacker": "bruno"}, now=T0 + HOUR
    )
    assert set(answer.carried) == {"bruno"}
    assert answer.carried["bruno"].vit == expected[0]


def test_4_1_7_a_redelivered_condition_changes_nothing() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(CONDITION_CARRIED, carried(140))
    again = world.on(CONDITION_CARRIED, carried(100))
    assert again["bruno"].state is None
    assert world.status("bruno", T0)["carried"]["vit"] == 140


@pytest.mark.parametrize(
    ("effect", "lasting"),
    [
        pytest.param(
            Effect("e", EffectKind.STATE, "amputacion"), True, id="umh 11.5.5 until healed"
        ),
        pytest.param(
            Effect("e", EffectKind.INDIRECT, "quemadura", 10, actions_left=2), True, id="indirect"
        ),
        pytest.param(
            Effect("e", EffectKind.CONTROL, "aturdimiento", actions_left=0), False, id="run out"
        ),
        pytest.param(Effect("e", EffectKind.BOOSTER, "fuego", 20), False, id="umh 4.1.5 kept up"),
        pytest.param(Effect("e", EffectKind.SHIELD, "mental", 100), False, id="umh 9.7 a shield"),
    ],
)
def test_4_1_7_which_effects_outlast_the_combat(effect: Effect, lasting: bool) -> None:
    assert lasts(effect) is lasting


def stolen(item: str = "Espada corta") -> JSON:
    return {"character": "ana", "target": "bruno", "item": item, "skill": "Hurto", "round": 1}


@pytest.mark.parametrize(
    ("ana_rank", "bruno_rank", "reason", "kept"),
    [
        pytest.param(2, 2, "equal_or_higher_rank", True, id="umh 4.2.5 equal rank kept"),
        pytest.param(2, 4, "equal_or_higher_rank", True, id="umh 4.2.5 higher rank kept"),
        pytest.param(4, 2, "lower_rank", False, id="umh 4.2.5 lower rank returned"),
        pytest.param(None, 2, "rank_unknown", False, id="umh 4.2.5 own rank unknown returned"),
        pytest.param(2, None, "rank_unknown", False, id="umh 4.2.5 rival unknown returned"),
    ],
)
def test_4_2_5_each_theft_is_decided_at_the_end(
    ana_rank: int | None, bruno_rank: int | None, reason: str, kept: bool
) -> None:
    ranks = {"ana": ana_rank, "bruno": bruno_rank}
    sheets = {c: sheet(c.capitalize(), rank=r) for c, r in ranks.items() if r is not None}
    world = World()
    world.on(COMBAT_STARTED, started(sheets=sheets))
    world.on(ITEM_STOLEN, stolen(), combat_id="c_1")
    world.on(ITEM_STOLEN, stolen("espada CORTA"), combat_id="c_1")  # the same item, once
    world.on(COMBAT_ENDED, ended(reason="pact", winner=None))
    (theft,) = [e for e in world.history("ana") if e["change"] == "theft"]
    assert (theft["kept"], theft["reason"], theft["rule"]) == (kept, reason, "umh 4.2.5")
    assert (theft["thief_rank"], theft["target_rank"]) == (ana_rank, bruno_rank)
    assert not [e for e in world.history("bruno") if e["change"] == "theft"]


def test_4_2_5_a_theft_outside_his_open_combat_is_ignored() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    decisions = world.on(ITEM_STOLEN, stolen(), combat_id="c_other")
    assert decisions["ana"].state is None
