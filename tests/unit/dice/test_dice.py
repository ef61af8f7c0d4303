"""Dice: notation, the ten-dice rule, seeded streams, replay and fair distributions."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from shared.dice.notation import NotationError, parse
from shared.dice.rolls import replay, roll
from shared.dice.streams import SeededStream, commitment, new_seed

SEED = "5eed" * 16


@pytest.mark.parametrize(
    ("expression", "normalised"),
    [
        pytest.param("12k4", "10k5", id="l5r-ten-dice-12k4-is-10k5"),
        pytest.param("13k9", "10k10+2", id="l5r-ten-dice-13k9-is-10k10+2"),
        pytest.param("10k12", "10k10+4", id="l5r-ten-dice-10k12-is-10k10+4"),
        pytest.param("14k12", "10k10+12", id="l5r-ten-dice-14k12-is-10k10+12"),
        pytest.param("3k2", "3k2", id="l5r-3k2"),
        pytest.param("2k5", "2k2", id="l5r-kept-never-more-than-rolled"),
        pytest.param("3k2~", "3k2~", id="l5r-unskilled-does-not-explode"),
        pytest.param("3d6+2", "3d6+2", id="xdy-plus-z"),
        pytest.param("4d6kh3", "4d6kh3", id="keep-highest"),
        pytest.param("2d10!", "2d10!", id="exploding"),
        pytest.param("1d20-1", "1d20-1", id="minus"),
    ],
)
def test_notation(expression: str, normalised: str) -> None:
    assert str(parse(expression)) == normalised


@pytest.mark.parametrize("bad", ["", "d20", "0d6", "3d1", "4d6kh5", "101d6", "3x2", "1d20+"])
def test_bad_notation_is_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse(bad)


def test_a_seeded_roll_replays_draw_for_draw() -> None:
    stream = SeededStream(SEED, "resolution")
    rolls = [roll("3k2", stream, purpose=f"attack {i}").as_dict() for i in range(200)]
    for record in rolls:
        assert replay(SEED, record).as_dict() == record
    assert sum(r["draws"] for r in rolls) == stream.draws


def test_tens_explode_and_add_to_the_same_die() -> None:
    stream = SeededStream(SEED, "explode")
    exploded = [r for r in (roll("1k1", stream) for _ in range(2000)) if len(r.dice[0]) > 1]
    assert exploded, "a ten in 2000 rolls"
    for r in exploded:
        assert all(face == 10 for face in r.dice[0][:-1])
        assert r.total == sum(r.dice[0])


def test_unskilled_tens_do_not_explode() -> None:
    stream = SeededStream(SEED, "calm")
    assert all(len(r.dice[0]) == 1 for r in (roll("1k1~", stream) for _ in range(2000)))


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    seed = new_seed()
    assert len(seed) == 64
    assert commitment(seed) != commitment(new_seed())
    assert commitment(seed) == commitment(seed)


def chi_square(counts: Counter[int], expected: dict[int, float]) -> float:
    return sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def test_d20_is_uniform_over_1_to_20() -> None:
    """200,000 seeded d20: every face 1-20 and nothing else; chi-square (19 d.f.) < 43.8
    (p = 0.001). A die of 0-19 or 1-19 fails at once."""
    stream = SeededStream(SEED, "d20")
    n = 200_000
    counts = Counter(roll("1d20", stream).total for _ in range(n))
    assert set(counts) == set(range(1, 21))
    assert chi_square(counts, {face: n / 20 for face in range(1, 21)}) < 43.8
    mean = sum(face * c for face, c in counts.items()) / n
    assert abs(mean - 10.5) < 0.03  # 10.5 exactly for 1-20; 10.0 for 0-19 or 1-19 (±0.013)


def exploding_d10() -> dict[int, float]:
    """Exact distribution of one exploding d10 (truncated where the tail is negligible)."""
    dist: dict[int, float] = {}
    for depth in range(8):
        for face in range(1, 10):
            dist[10 * depth + face] = (0.1**depth) * 0.1
    return dist


def three_keep_two() -> dict[int, float]:
    """Exact distribution of 3k2 with exploding tens: the sum of the 2 highest of 3 dice."""
    die = exploding_d10()
    out: dict[int, float] = {}
    for a, pa in die.items():
        for b, pb in die.items():
            for c, pc in die.items():
                total = a + b + c - min(a, b, c)
                out[total] = out.get(total, 0.0) + pa * pb * pc
    return out


def test_3k2_with_exploding_tens_matches_its_exact_distribution() -> None:
    """100,000 seeded 3k2: the mean and every bucket match the exact distribution."""
    exact = three_keep_two()
    stream = SeededStream(SEED, "3k2")
    n = 100_000
    totals = [roll("3k2", stream).total for _ in range(n)]
    mean = sum(totals) / n
    exact_mean = sum(t * p for t, p in exact.items())
    sd = math.sqrt(sum((t - exact_mean) ** 2 * p for t, p in exact.items()))
    assert abs(mean - exact_mean) < 4 * sd / math.sqrt(n)  # off by one die face: ~20 sd away
    buckets: Counter[int] = Counter(min(t, 30) for t in totals)
    expected: dict[int, float] = {}
    for t, p in exact.items():
        expected[min(t, 30)] = expected.get(min(t, 30), 0.0) + p * n
    expected = {k: v for k, v in expected.items() if v >= 20}
    assert chi_square(Counter({k: buckets[k] for k in expected}), expected) < 3 * len(expected)
