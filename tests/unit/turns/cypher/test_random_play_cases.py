"""Cases the random player found in cypher (seed 001), each reduced to its smallest form and
driven through the turns and resolution rulesets as a combat runs them."""

from __future__ import annotations

import pytest

from shared.errors import RuleViolation

from .kit import Referee, pc


def test_b7_effort_that_empties_a_pool_moves_the_spender_down_the_track() -> None:
    """001 INDICADOR / B-7: impaired (Speed 0), Effort 1 costs 3 + 1 and empties Might: two
    pools at 0, the attacker is debilitated at once and his side, all out, loses."""
    hurt = pc("Ana", current={"might": 4, "speed": 0, "intellect": 10})
    ref = Referee.start({"ana": hurt, "bruno": pc("Bruno")}, "ana", ["bruno"])
    while ref.actor != "ana":
        ref.act({"type": "cypher.pass", "actor": ref.actor})
    assert ref.part("ana")["track_name"] == "impaired"
    body = {"type": "cypher.attack", "actor": "ana", "target": "bruno", "attack": "Espada"}
    ref.act({**body, "effort": 1})
    effort = ref.last("action.resolved")["effort"]
    assert (effort["cost"], effort["before"], effort["after"]) == (4, 4, 0)
    ana = ref.part("ana")
    assert ana["pools"]["might"] == 0 and ana["pools"]["speed"] == 0
    assert (ana["track_name"], ana["status"]) == ("debilitated", "debilitated")
    assert ref.turns["phase"] == "ended"
    assert ref.turns["result"]["winner"] == "defenders"


def test_b7_minimum_spend_and_effort_must_both_be_paid() -> None:
    """001 ACCIÓN (minimum spend) + B-7: Might 5, minimum 3, Effort 1 (cost 3): the pool
    cannot pay both, so the action is refused before anything is spent."""
    ref = Referee.start(
        {"ana": pc("Ana", current={"might": 5, "speed": 10, "intellect": 10}), "bruno": pc("B")},
        "ana",
        ["bruno"],
    )
    while ref.actor != "ana":
        ref.act({"type": "cypher.pass", "actor": ref.actor})
    body = {
        "type": "cypher.action",
        "actor": "ana",
        "stat": "might",
        "difficulty": 2,
        "minimum_spend": 3,
        "effort": 1,
    }
    with pytest.raises(RuleViolation) as caught:
        ref.act(body)
    assert caught.value.code == "insufficient_pool"
    assert caught.value.details == {
        "pool": "might",
        "cost": 3,
        "minimum_spend": 3,
        "have": 5,
    }
    assert ref.part("ana")["pools"]["might"] == 5
    ref.act({**body, "effort": 0})  # the minimum alone is paid
    assert ref.part("ana")["pools"]["might"] == 2


@pytest.mark.parametrize(
    ("ana", "bruno", "code"),
    [
        ({"might": 0, "speed": 0, "intellect": 0}, None, "dead"),
        ({"might": 0, "speed": 0, "intellect": 3}, None, "debilitated"),
        (
            {"might": 0, "speed": 0, "intellect": 0},
            {"might": 0, "speed": 0, "intellect": 0},
            "dead",
        ),
    ],
    ids=[
        "001 INDICADOR a dead fighter cannot start a combat",
        "001 INDICADOR a side all debilitated cannot start one",
        "001 INDICADOR everyone dead: refused, never a round without turns",
    ],
)
def test_a_combat_nobody_can_fight_is_refused(
    ana: dict[str, int], bruno: dict[str, int] | None, code: str
) -> None:
    sheets = {"ana": pc("Ana", current=ana), "bruno": pc("Bruno", current=bruno)}
    with pytest.raises(RuleViolation) as caught:
        Referee.start(sheets, "ana", ["bruno"])
    assert caught.value.code == code
    assert caught.value.rule is not None and caught.value.rule.startswith("cypher INDICADOR")
