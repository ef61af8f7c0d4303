"""Turn order (umh 2.2, 1.2.6): the pure functions of ``domain/order.py``."""

from __future__ import annotations

import pytest

from services.turns.domain.umh.order import (
    Fighter,
    alternate,
    by_speed,
    first_round_order,
    lone_fighter_order,
    round_order,
)


def fa(cid: str, vel: float, seq: int = 0) -> Fighter:
    return Fighter(cid, "attackers", vel, seq)


def fd(cid: str, vel: float, seq: int = 1) -> Fighter:
    return Fighter(cid, "defenders", vel, seq)


@pytest.mark.parametrize(
    ("lone_starts", "opponents", "expected"),
    [
        pytest.param(False, ["O1", "O2"], ["O1", "S", "O2", "S"], id="umh-1.2.6.5-T000-01"),
        pytest.param(True, ["O1", "O2"], ["S", "O1", "S", "O2"], id="umh-1.2.6.5-T000-02"),
        pytest.param(
            False,
            ["O1", "O2", "O3"],
            ["O1", "S", "O2", "S", "O3", "S"],
            id="umh-1.2.6.5-T000-03",
        ),
        pytest.param(
            True,
            ["O1", "O2", "O3"],
            ["S", "O1", "S", "O2", "S", "O3"],
            id="umh-1.2.6.5-T000-04",
        ),
    ],
)
def test_lone_fighter_vectors(lone_starts: bool, opponents: list[str], expected: list[str]) -> None:
    assert lone_fighter_order("S", opponents, lone_starts=lone_starts) == expected


@pytest.mark.parametrize(
    ("fighters", "initiator", "expected"),
    [
        pytest.param(
            [fd("S", 3), fa("O1", 6), Fighter("O2", "attackers", 5, 2)],
            "O1",
            ["O1", "S", "O2", "S"],
            id="umh-1.2.6-A-13-T000-01-larger-side-faster",
        ),
        pytest.param(
            [fd("S", 7), fa("O1", 6), Fighter("O2", "attackers", 5, 2)],
            "O1",
            ["S", "O1", "S", "O2"],
            id="umh-1.2.6-A-13-T000-02-lone-fighter-faster",
        ),
        pytest.param(
            [fa("S", 3), fd("O1", 6, 1), fd("O2", 5, 2), fd("O3", 4, 3)],
            "S",
            ["O1", "S", "O2", "S", "O3", "S"],
            id="umh-1.2.6-A-13-T000-03-three-vs-one",
        ),
        pytest.param(
            [fa("S", 9), fd("O3", 4, 3), fd("O1", 6, 1), fd("O2", 5, 2)],
            "S",
            ["S", "O1", "S", "O2", "S", "O3"],
            id="umh-1.2.6-A-13-T000-04-three-vs-one-lone-starts",
        ),
        pytest.param(
            [fa("S", 6), fd("O1", 6, 1), fd("O2", 6, 2)],
            "S",
            ["S", "O1", "S", "O2"],
            id="umh-A-68-speed-tie-initiator-side-starts",
        ),
        pytest.param(
            [fa("A1", 8), fa("A2", 5, 3), fa("A3", 3, 4), fd("B1", 6, 1), fd("B2", 4, 2)],
            "A1",
            ["A1", "B1", "A2", "B2", "A3"],
            id="umh-2.2.4.1-A-68-three-vs-two-larger-side-starts",
        ),
        pytest.param(
            [fa("A1", 5), fa("A2", 4, 3), fa("A3", 3, 4), fd("B1", 6, 1), fd("B2", 2, 2)],
            "A1",
            ["B1", "A1", "B2", "A2", "A3"],
            id="umh-2.2.4.1-A-68-three-vs-two-smaller-side-starts-rest-follow",
        ),
        pytest.param(
            [fa("A1", 5), fa("A2", 7, 2), fd("B1", 6, 1), fd("B2", 8, 3)],
            "A1",
            ["B2", "A2", "B1", "A1"],
            id="umh-2.2.4-A-68-two-vs-two-alternate",
        ),
        pytest.param(
            [fa("ana", 5), fd("bruno", 5)],
            "ana",
            ["ana", "bruno"],
            id="umh-2.2.1.1-T000-20-initiator-first-on-tie",
        ),
        pytest.param(
            [fa("ana", 4), fd("bruno", 5)],
            "ana",
            ["bruno", "ana"],
            id="umh-2.2.5-faster-first-in-later-rounds",
        ),
        pytest.param([fa("ana", 4)], "ana", ["ana"], id="umh-2.2.5-one-side-left"),
        pytest.param([], "ana", [], id="umh-2.2.5-nobody"),
    ],
)
def test_round_order(fighters: list[Fighter], initiator: str, expected: list[str]) -> None:
    assert round_order(fighters, initiator, "attackers") == expected


@pytest.mark.parametrize(
    ("fighters", "initiator", "expected"),
    [
        pytest.param(
            [fd("def", 5, 1), fa("init", 5, 0)],
            "init",
            ["init", "def"],
            id="umh-2.2.1.1-A-67-initiator-first-on-tie",
        ),
        pytest.param(
            [Fighter("J2", "attackers", 6, 3), Fighter("J1", "attackers", 6, 2)],
            "init",
            ["J1", "J2"],
            id="umh-2.2.3-T000-20-earlier-joiner-first",
        ),
        pytest.param(
            [fd("d2", 5, 2), fd("d1", 5, 1)],
            "init",
            ["d1", "d2"],
            id="umh-2.2.1.2-A-67-declared-order-of-targets",
        ),
        pytest.param(
            [fd("slow", 2, 1), fd("fast", 7.5, 2)],
            "init",
            ["fast", "slow"],
            id="umh-2.2.5-total-speed-descending",
        ),
    ],
)
def test_by_speed(fighters: list[Fighter], initiator: str, expected: list[str]) -> None:
    assert [f.id for f in by_speed(fighters, initiator)] == expected


@pytest.mark.parametrize(
    ("targets", "expected"),
    [
        pytest.param([fd("bruno", 9)], ["ana", "bruno"], id="umh-2.2.1-aggressor-first"),
        pytest.param(
            [fd("d1", 5, 1), fd("d2", 5, 2)],
            ["ana", "d1", "ana", "d2"],
            id="umh-2.2.1-A-66-one-vs-two-declared-order-on-tie",
        ),
        pytest.param(
            [fd("d1", 3, 1), fd("d2", 8, 2)],
            ["ana", "d2", "ana", "d1"],
            id="umh-2.2.1-A-66-targets-by-speed",
        ),
    ],
)
def test_first_round_order(targets: list[Fighter], expected: list[str]) -> None:
    assert first_round_order(fa("ana", 1), targets) == expected


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        pytest.param(["a"], ["b"], ["a", "b"], id="umh-2.2.4-alternate-one-each"),
        pytest.param(
            ["a1", "a2", "a3"], ["b1"], ["a1", "b1", "a2", "a3"], id="umh-A-68-rest-follows"
        ),
        pytest.param(["a1"], ["b1", "b2"], ["a1", "b1", "b2"], id="umh-A-68-rest-of-second"),
    ],
)
def test_alternate(first: list[str], second: list[str], expected: list[str]) -> None:
    assert alternate(first, second) == expected
