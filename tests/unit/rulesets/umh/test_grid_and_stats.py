"""Grid geometry, heights, STAT rounding and ambidextrous weapons (umh 2.6 - 2.8, 5, 6, 10, 12)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shared.rulesets.umh.attributes import (
    best_increases,
    disabled_limbs,
    feared_will,
    round_stat,
    stat_value,
)
from shared.rulesets.umh.grid import (
    approach_height,
    area_squares,
    cone_squares,
    distance,
    height_name,
    inside,
    reaches_height,
    regrab_height,
    squares_to_leave,
)
from shared.rulesets.umh.weapons import Wielded, combined_arma


@pytest.mark.parametrize(
    ("a", "b", "metric", "expected"),
    [((0, 0), (3, 2), "chebyshev", 3), ((0, 0), (3, 2), "manhattan", 5)],
    ids=["umh-5.1.1-A-61-chebyshev", "umh-5.1.1-A-61-manhattan-setting"],
)
def test_distance(a: tuple[int, int], b: tuple[int, int], metric: str, expected: int) -> None:
    assert distance(a, b, metric) == expected  # type: ignore[arg-type]


def test_areas_of_a_62() -> None:
    assert area_squares("on_self", 1, (0, 0), (0, 0)) == {
        (x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)
    } - {(0, 0)}
    assert len(area_squares("on_target", 1, (0, 0), (3, 0))) == 9
    assert area_squares("line", 3, (0, 0), (5, 5)) == {(1, 1), (2, 2), (3, 3)}
    assert cone_squares((0, 0), (2, 0), 2) == {(1, 0), (2, -1), (2, 0), (2, 1)}
    assert len(area_squares("square", 3, (0, 0), (4, 4))) == 9
    with pytest.raises(ValueError, match="cone"):
        cone_squares((0, 0), (1, 1), 2)
    assert inside({(1, 0)}, {"a": (1, 0), "b": (2, 0)}) == ["a"]
    assert (
        squares_to_leave(
            (0, 0), {(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)}
        )
        == 2
    )


@pytest.mark.parametrize(
    ("attacker", "target", "reach", "ok"),
    [
        ("suelo", "alzada", 2, False),
        ("suelo", "alzada", 3, True),
        ("suelo", "voladora", 4, False),
        ("suelo", "voladora", 5, True),
        ("alzada", "voladora", 2, True),
        ("alzada", "voladora", 1, False),
        ("voladora", "suelo", 1, True),
    ],
    ids=[f"T000-58-umh-10.2-{i}" for i in range(6)] + ["umh-10.2.3-downward-closes-in"],
)
def test_t000_58_reach_against_heights(attacker: str, target: str, reach: int, ok: bool) -> None:
    assert reaches_height(attacker, target, reach) is ok


def test_t000_10_to_12_temporary_positions() -> None:
    assert height_name(approach_height("alzada", "suelo", 1)) == "suelo"  # T000-10
    assert approach_height("voladora", "suelo", 3) == 3  # T000-11
    assert height_name(approach_height("alzada", "alzada", 1)) == "alzada"  # T000-12
    assert regrab_height("voladora", dropped_to_ground=True) == "suelo"  # umh 10.2.5


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [("ref", 2.7, Fraction(2)), ("vel", 0.6, Fraction(3, 5)), ("vol", 0.6, Fraction(0))],
    ids=["T000-27-umh-2.6.1.1-REF", "T000-27-umh-2.6.1.2-A-22-VEL", "T000-27-umh-2.6.2-VOL"],
)
def test_t000_27_rounding(name: str, value: float, expected: Fraction) -> None:
    assert round_stat(name, value) == expected  # type: ignore[arg-type]
    assert round_stat("vel", 0.6, clamp_below_one=True) == 1


def test_t000_28_xp_shop_last_and_t000_29_increases() -> None:
    assert stat_value("fue", 20, percent=25, xp_shop=4) == 29
    assert best_increases([1, 2], [10, 20]) == (2, 20)


@pytest.mark.parametrize(
    ("name", "value", "limbs", "expected"),
    [
        ("fue", 55, 1, 27),
        ("fue", 55, 2, 0),
        ("vel", 7, 1, 3),
        ("vel", 7, 2, 0),
        ("vel", 1, 1, Fraction(1, 2)),
    ],
    ids=["T000-63-arm", "T000-63-arms", "T000-63-leg", "T000-63-legs", "T000-63-A-22-leg-vel-1"],
)
def test_t000_63_disabled_limbs(name: str, value: int, limbs: int, expected: Fraction) -> None:
    assert disabled_limbs(value, limbs, name=name) == expected  # type: ignore[arg-type]


def test_t000_66_fear() -> None:
    assert feared_will(3) == (2, None)
    assert feared_will(1) == (1, 1)


W = Wielded


@pytest.mark.parametrize(
    ("first", "second", "unique", "expected"),
    [
        (W(2, 100, "short"), W(2, 100, "short"), False, 120),
        (W(3, 100, "short"), W(2, 80, "short"), False, 110),
        (W(4, 100, "short"), W(2, 60, "short"), False, 104),
        (W(5, 100, "short"), W(2, 50, "short"), False, 105),
        (W(1, 33, "short"), W(1, 33, "short"), False, 39),
        (W(1, 33, "firearm"), W(1, 33, "short"), False, None),
        (W(2, 80, "short", unique=True), W(3, 100, "short"), True, 106),
        (W(6, 100, "short"), W(1, 100, "short"), False, None),
    ],
    ids=[
        "T000-70-umh-12.2.1",
        "T000-71-umh-12.2.2",
        "T000-72-umh-12.2.3",
        "T000-73-umh-12.2.4",
        "T000-74-A-79-floor-the-sum",
        "T000-75-umh-12.1.1",
        "T000-76-umh-12.4-A-80-reading-A",
        "A-78-four-tiers-moderator",
    ],
)
def test_t000_70_to_76_ambidextrous(
    first: W, second: W, unique: bool, expected: int | None
) -> None:
    assert combined_arma(first, second, unique_used=unique) == expected


def test_ambidextrous_settings() -> None:
    assert (
        combined_arma(
            W(2, 80, "short", True), W(3, 100, "short"), unique_used=True, unique_alone=True
        )
        == 56
    )
    assert combined_arma(W(6, 100, "short"), W(1, 100, "short"), four_plus=(0.9, 0.3)) == 120
