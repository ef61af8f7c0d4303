"""001 RECUPERAR: what services/states kept of a PC's pools (the last combat, the rests since)
is where his next combat starts; his sheet's maxima stay the bound (B-5 for the track)."""

from __future__ import annotations

from typing import Any

import pytest

from services.states.domain.cypher.ruleset import CypherAftermath
from services.turns.domain.cypher.checks import check_recover
from services.turns.domain.cypher.opening import condition_of
from shared.errors import RuleViolation
from shared.payloads import StatesCheck
from shared.rulesets.cypher.actions import CypherRecover
from shared.rulesets.cypher.sheet import CypherSheet
from shared.vocabulary import Side
from tests.unit.turns.cypher.kit import npc, pc

ANA = CypherSheet.model_validate(pc("Ana", might=8, speed=6, intellect=4))


@pytest.mark.parametrize(
    ("kept", "pools", "track"),
    [
        pytest.param(None, {"might": 8, "speed": 6, "intellect": 4}, "unhurt", id="never-kept"),
        pytest.param(
            {"might": 3, "speed": 6, "intellect": 4, "special_steps": 0},
            {"might": 3, "speed": 6, "intellect": 4},
            "unhurt",
            id="RECUPERAR-pools-kept",
        ),
        pytest.param(
            {"might": 0, "speed": 6, "intellect": 4, "special_steps": 0},
            {"might": 0, "speed": 6, "intellect": 4},
            "impaired",
            id="B-5-a-pool-at-0-impaired",
        ),
        pytest.param(
            {"might": 3, "speed": 6, "intellect": 4, "special_steps": 1},
            {"might": 3, "speed": 6, "intellect": 4},
            "impaired",
            id="B-5-special-damage-carried",
        ),
        pytest.param(
            {"might": 20, "speed": 6, "intellect": 4, "special_steps": 0},
            {"might": 8, "speed": 6, "intellect": 4},
            "unhurt",
            id="RECUPERAR-never-above-the-maximum",
        ),
    ],
)
def test_recuperar_a_combat_starts_from_the_pools_kept(
    kept: dict[str, int] | None, pools: dict[str, int], track: str
) -> None:
    cond = condition_of(ANA, Side.ATTACKERS, kept).to_dict()
    assert (cond["pools"], cond["track_name"]) == (pools, track)


def test_an_npc_keeps_nothing() -> None:
    orco = CypherSheet.model_validate(npc("Orco", health=9))
    assert condition_of(orco, Side.DEFENDERS, {"might": 1}).to_dict()["health"] == 9


def test_states_answers_the_pools_it_kept() -> None:
    kept: dict[str, Any] = {"pools": {"might": 3, "speed": 6, "intellect": 4}, "special_steps": 1}
    query = StatesCheck(
        purpose="start",
        ruleset="cypher",
        combat_id="c_1",
        characters=["ana", "bruno"],
        attacker="ana",
        defenders=["bruno"],
        challenge=True,
    )
    answer = CypherAftermath().check(
        {"ana": kept, "bruno": None}, query, room="r", ended_combats=set(), now_ms=0
    )
    assert answer.allowed
    assert answer.weekly_uses == {
        "ana": {"might": 3, "speed": 6, "intellect": 4, "special_steps": 1, "rests_today": 0}
    }


@pytest.mark.parametrize(
    ("rested_today", "refused"),
    [
        pytest.param(0, False, id="B-10-the-days-first-rest-in-combat"),
        pytest.param(1, True, id="B-10-rested-earlier-today-no-rest-in-combat"),
    ],
)
def test_b_10_in_combat_only_the_days_first_rest(rested_today: int, refused: bool) -> None:
    part = condition_of(
        ANA, Side.ATTACKERS, {"might": 3, "speed": 6, "intellect": 4, "rests_today": rested_today}
    )
    action = CypherRecover(type="cypher.recover", actor="ana", distribution=["might"])
    if not refused:
        check_recover(action, part)
        return
    with pytest.raises(RuleViolation) as caught:
        check_recover(action, part)
    assert (caught.value.code, caught.value.rule) == ("no_rests_left", "cypher RECUPERAR, B-10")
