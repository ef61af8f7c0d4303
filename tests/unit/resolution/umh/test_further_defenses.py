"""umh 8.1.1.3: against a skill reactable several times, the further blocks and evasions of a
target (``reaction.more``, in the order given) each work on what the one before let through,
in the ``further_defenses`` step right after the defense step; an evasion among them moves
him (8.2.1.1) and, in a volley on several targets, makes him an evader (8.1.1.3.2). Driven
through the resolution handler (``resolution.requested``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.resolution.umh.kit import Fight, attack, defense, result_of, sheet, step

JSON = dict[str, Any]
BRUNO = sheet(
    "Bruno",
    defense("Bloqueo", "internal", 100),
    defense("Escudo", "external", 50),
    defense("Esquiva", "evasion"),
    ref=2,
)


def answers(first: str, *more: str) -> JSON:
    return {"skill": first, "more": [{"skill": name} for name in more]}


@pytest.mark.parametrize(
    ("natures", "reaction", "damage", "further"),
    [
        # 300 - 100 - 50
        pytest.param(None, answers("Bloqueo", "Escudo"), 150, [200, 150], id="umh-8.1.1.3-blocks"),
        # a block first, then an evasion that avoids the rest (REF 2 meets a physical one)
        pytest.param(None, answers("Bloqueo", "Esquiva"), 0, [200, 0], id="umh-8.1.1.3-evaded"),
        # sonic (7.1.3.1, A-29): the rounded-up half passes each block without all angles:
        # 150 + max(0, 150 - 100) = 200, then 100 + max(0, 100 - 50) = 150
        pytest.param(
            ["sonora"], answers("Bloqueo", "Escudo"), 150, [200, 150], id="umh-8.1.1.3-sonic"
        ),
        # sonic and REF 2: the evasion lets the rounded-up half in (150), then the block
        # lets its rounded-up half past (75) and stops the rest: 75
        pytest.param(
            ["sonora"], answers("Esquiva", "Bloqueo"), 75, [150, 75], id="umh-8.1.1.3-order"
        ),
        # and the other way round: 200 after the block, then the evasion's half
        pytest.param(
            ["sonora"], answers("Bloqueo", "Esquiva"), 100, [200, 100], id="umh-8.1.1.3-reverse"
        ),
        # one answer only: no further_defenses step, as before
        pytest.param(None, answers("Bloqueo"), 200, None, id="umh-8.1.1.3-one-answer"),
    ],
)
def test_umh_8_1_1_3_further_defenses_in_the_order_given(
    natures: list[str] | None, reaction: JSON, damage: int, further: list[int] | None
) -> None:
    """``further``: what enters the further step and what leaves it (None: no such step)."""
    fight = Fight({"ana": sheet("Ana", attack("Ráfaga", 300, natures)), "bruno": BRUNO})
    resolved = fight.hit("Ráfaga", ["bruno"], reactions={"bruno": reaction})
    row = result_of(resolved, "bruno")
    found = step(row, "further_defenses")
    if further is None:
        assert found is None
        assert "more" not in row["reaction"]
    else:
        assert found is not None
        assert (found["rule"], [found["before"], found["after"]]) == ("umh 8.1.1.3", further)
        assert [a["skill"] for a in found["answers"]] == [m["skill"] for m in reaction["more"]]
        assert [m["skill"] for m in row["reaction"]["more"]] == [
            m["skill"] for m in reaction["more"]
        ]
    assert row["damage"] == damage


def test_umh_8_1_1_3_a_further_evasion_moves_him() -> None:
    """A block, then an evasion to [3, 0]: he ends there, having spent 2 squares (8.2.1.1)."""
    fight = Fight({"ana": sheet("Ana", attack("Ráfaga", 300)), "bruno": BRUNO})
    reaction = {"skill": "Bloqueo", "more": [{"skill": "Esquiva", "to": [3, 0]}]}
    positions = {"ana": {"square": [0, 0]}, "bruno": {"square": [1, 0]}}
    resolved = fight.hit("Ráfaga", ["bruno"], reactions={"bruno": reaction}, positions=positions)
    assert resolved["moved"]["bruno"]["square"] == [3, 0]
    assert resolved["speed_spent"] == {"bruno": 2}
    assert result_of(resolved, "bruno")["damage"] == 0


def test_umh_8_1_1_3_2_a_volley_meets_the_best_block_of_all() -> None:
    """Two impacts of 200 on bruno and carla (summed: 400, umh 8.1.1.3.2): bruno's second
    block (250) is the best any of them brought: 150 through, 75 each."""
    volley = attack("Ráfaga", 200, hits=2)
    carla = sheet("Carla", defense("Pared", "external", 100))
    bruno = sheet("Bruno", defense("Bloqueo", "internal", 100), defense("Muro", "external", 250))
    fight = Fight({"ana": sheet("Ana", volley), "bruno": bruno, "carla": carla})
    reactions = {"bruno": answers("Bloqueo", "Muro"), "carla": {"skill": "Pared"}}
    resolved = fight.hit("Ráfaga", ["bruno", "carla"], reactions=reactions, hits=2)
    assert [result_of(resolved, who)["damage"] for who in ("bruno", "carla")] == [75, 75]
