"""The umh damage pipeline on its own: rule vectors and properties (umh 9.1.1)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from services.resolution.domain.umh.hit import Defense, Flow, HitContext, StepRecord
from services.resolution.domain.umh.pipeline import UMH_DAMAGE_STEPS, compute_damage
from services.resolution.domain.umh.steps import floor_damage, reduction_percent


def hit(
    damage: int,
    *,
    defense: int | None = None,
    resistance: int = 0,
    reductions: dict[str, float] | None = None,
    natures: tuple[str, ...] = ("fisica",),
) -> HitContext:
    chosen = Defense("Escudo", "internal", defense) if defense is not None else None
    return HitContext(
        skill="Puño",
        damage=damage,
        natures=natures,
        defense=chosen,
        defense_note=None if chosen else "no_reaction",
        resistance=resistance,
        reductions=reductions or {},
    )


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (Fraction("1402.1"), 1402),
        (Fraction("1199.99"), 1199),
        (Fraction(160), 160),
        (Fraction(0), 0),
    ],
    ids=["T000-05 1402.1", "T000-05 1199.99", "umh 2.7.1 whole", "umh 2.7.1 zero"],
)
def test_floor_rounds_integral_damage_down(amount: Fraction, expected: int) -> None:
    row = floor_damage(hit(0), amount).to_dict()
    assert row["after"] == expected
    assert isinstance(row["after"], int)


@pytest.mark.parametrize(
    ("context", "expected"),
    [
        (hit(500, defense=200, resistance=100, reductions={"general": 20}), 160),
        (hit(400, reductions={"fuego": 15, "general": 15}, natures=("fuego",)), 300),
        (hit(400, reductions={"general": 10, "fuego": 10}, natures=("fuego",)), 320),
        (hit(400, reductions={"agua": 20}, natures=("fuego",)), 400),
        (hit(400, reductions={"agua": 10, "fuego": 10}, natures=("fuego", "agua")), 320),
        (hit(100, defense=300), 0),
        (hit(100, resistance=150), 0),
        (hit(500, defense=200), 300),
        (hit(500, resistance=100), 400),
        (hit(333, reductions={"general": 12.5}), 291),
        (hit(7, reductions={"general": 10}), 6),
    ],
    ids=[
        "T000-52 defense, resistance, then reduction",
        "T000-54 15+15 capped at 25 (A-36)",
        "A-36 general + nature add",
        "umh 9.4.3 other nature does not apply",
        "A-36 every nature of the skill adds",
        "umh 9.2.1 defense above damage floors at 0",
        "umh 9.3.2 resistance above damage floors at 0",
        "umh 9.2.1 defense only",
        "umh 9.3.2 resistance only",
        "umh 2.7.1 291.375 floors to 291",
        "umh 2.7.1 6.3 floors to 6",
    ],
)
def test_pipeline_vectors(context: HitContext, expected: int) -> None:
    assert compute_damage(context).damage == expected


def test_breakdown_lists_every_step_in_the_9_1_1_order() -> None:
    breakdown = compute_damage(hit(500, defense=200, resistance=100, reductions={"general": 20}))
    rows = breakdown.steps_as_dicts()
    assert [(r["step"], r["before"], r["after"]) for r in rows] == [
        ("base", 500, 500),
        ("defense", 500, 300),
        ("resistance", 300, 200),
        ("reduction", 200, 160),
        ("floor", 160, 160),
    ]
    assert [r["rule"] for r in rows] == [
        "umh 9.1.1",
        "umh 9.2.1",
        "umh 9.3.2",
        "umh 9.4.3",
        "umh 2.7.1",
    ]
    assert rows[1]["skill"] == "Escudo" and rows[1]["defense"] == 200
    assert rows[2]["value"] == 100
    assert rows[3]["percent"] == 20


def test_no_defense_step_says_why() -> None:
    rows = compute_damage(hit(500)).steps_as_dicts()
    assert rows[1] == {
        "step": "defense",
        "rule": "umh 9.2.1",
        "before": 500,
        "after": 500,
        "skill": None,
        "defense": 0,
        "note": "no_reaction",
    }


def test_resistance_is_not_taken_from_indirect_damage() -> None:
    """umh 9.3.2: passive resistance only against direct damage."""
    context = HitContext(skill="x", damage=100, natures=("fuego",), direct=False, resistance=60)
    assert compute_damage(context).damage == 100


def test_steps_are_a_list_that_can_be_extended() -> None:
    def halve(context: HitContext, flow: Flow) -> StepRecord:
        return StepRecord("halve", "test", flow.amount, flow.amount / 2)

    breakdown = compute_damage(hit(501), (halve, *UMH_DAMAGE_STEPS))
    assert breakdown.damage == 250
    assert [step.step for step in breakdown.steps][:3] == ["base", "halve", "defense"]


# --- properties -------------------------------------------------------------------------

damages = st.integers(min_value=0, max_value=10_000_000)
defenses = st.integers(min_value=0, max_value=10_000_000)
percents = st.floats(min_value=0, max_value=100, allow_nan=False).map(lambda x: round(x, 2))
NATURES = ("fisica", "fuego", "agua", "mental")
reduction_maps = st.dictionaries(st.sampled_from(("general", *NATURES)), percents, max_size=5)
nature_sets = st.lists(st.sampled_from(NATURES), min_size=1, max_size=3, unique=True).map(tuple)


@st.composite
def hits(draw: st.DrawFn) -> HitContext:
    return hit(
        draw(damages),
        defense=draw(st.none() | defenses),
        resistance=draw(defenses),
        reductions=draw(reduction_maps),
        natures=draw(nature_sets),
    )


@settings(database=None, max_examples=300)
@given(hits())
def test_integral_damage_is_never_negative_nor_above_base(context: HitContext) -> None:
    breakdown = compute_damage(context)
    assert isinstance(breakdown.damage, int)
    assert 0 <= breakdown.damage <= context.damage
    assert all(step.after >= 0 for step in breakdown.steps)


@settings(database=None, max_examples=300)
@given(hits(), defenses, defenses, percents)
def test_damage_never_grows_when_a_defense_grows(
    context: HitContext, more_defense: int, more_resistance: int, more_percent: float
) -> None:
    before = compute_damage(context).damage
    stronger_defense = hit(
        context.damage,
        defense=(context.defense.value if context.defense else 0) + more_defense,
        resistance=context.resistance,
        reductions=dict(context.reductions),
        natures=context.natures,
    )
    stronger_resistance = hit(
        context.damage,
        defense=context.defense.value if context.defense else None,
        resistance=context.resistance + more_resistance,
        reductions=dict(context.reductions),
        natures=context.natures,
    )
    general = context.reductions.get("general", 0) + more_percent
    stronger_reduction = hit(
        context.damage,
        defense=context.defense.value if context.defense else None,
        resistance=context.resistance,
        reductions={**context.reductions, "general": general},
        natures=context.natures,
    )
    assert compute_damage(stronger_defense).damage <= before
    assert compute_damage(stronger_resistance).damage <= before
    assert compute_damage(stronger_reduction).damage <= before


@settings(database=None, max_examples=300)
@given(reduction_maps, nature_sets)
def test_effective_reduction_is_never_above_25_percent(
    reductions: dict[str, float], natures: tuple[str, ...]
) -> None:
    effective, uncapped = reduction_percent(reductions, natures)
    assert 0 <= effective <= 25
    assert effective == min(uncapped, 25)


@settings(database=None, max_examples=300)
@given(hits())
def test_reduction_step_takes_at_most_a_quarter(context: HitContext) -> None:
    rows = compute_damage(context).steps
    reduction = next(step for step in rows if step.step == "reduction")
    assert reduction.after >= reduction.before * Fraction(3, 4)


# --- properties of the whole pipeline (boosters, natures, pierce, coatings, shields) ------

fractions_pct = st.integers(min_value=0, max_value=200).map(Fraction)


@st.composite
def rich_hits(draw: st.DrawFn) -> HitContext:
    """Any combination of the pipeline's inputs (umh 7 - 9)."""
    value = draw(st.none() | defenses)
    chosen = (
        Defense(
            "Escudo",
            draw(st.sampled_from(("internal", "external", "counter"))),
            value,
            draw(st.booleans()),
        )
        if value is not None
        else None
    )
    natures = draw(nature_sets)
    return HitContext(
        skill="x",
        damage=draw(damages),
        natures=natures,
        boost_percent=draw(fractions_pct),
        immunity_cut=draw(st.sampled_from((Fraction(0), Fraction(1, 4), Fraction(1, 2)))),
        mental_share=draw(st.sampled_from((Fraction(0), Fraction(1, 2), Fraction(1)))),
        evasion=draw(st.sampled_from((None, "half_down", "half_up"))),
        defense=chosen,
        defense_note=None if chosen else "no_reaction",
        spares_mental=draw(st.booleans()),
        sonic=draw(st.sampled_from((None, "recommended", "literal"))),
        ignore_percent=Fraction(draw(st.integers(0, 100))),
        pierces=draw(st.booleans()),
        coating=draw(st.integers(0, 1000)),
        resistance=draw(defenses),
        ignores_passive=draw(st.booleans()),
        shield=draw(st.integers(0, 1000)),
        reductions=draw(reduction_maps),
        temporary_reductions={"general": Fraction(draw(st.integers(0, 100)))},
    )


def _boosted(context: HitContext) -> int:
    return math.floor(context.damage * (1 + context.boost_percent / 100))


@settings(database=None, max_examples=200)
@given(rich_hits())
def test_integral_damage_is_within_zero_and_the_boosted_attack(context: HitContext) -> None:
    breakdown = compute_damage(context)
    assert 0 <= breakdown.damage <= _boosted(context)
    assert 0 <= breakdown.mental <= breakdown.damage
    assert all(step.after >= 0 for step in breakdown.steps)


@settings(database=None, max_examples=200)
@given(
    rich_hits(),
    st.integers(1, 5000),
    st.sampled_from(("defense", "resistance", "coating", "shield", "reduction", "temporary")),
)
def test_damage_never_grows_when_any_defense_grows(
    context: HitContext, more: int, which: str
) -> None:
    before = compute_damage(context).damage
    if which == "defense":
        base = context.defense or Defense("Escudo", "external", 0)
        stronger = replace(
            context, defense=replace(base, value=base.value + more), defense_note=None
        )
        if context.defense is None:
            assume(False)
    elif which == "resistance":
        stronger = replace(context, resistance=context.resistance + more)
    elif which == "coating":
        stronger = replace(context, coating=context.coating + more)
    elif which == "shield":
        stronger = replace(context, shield=context.shield + more)
    elif which == "reduction":
        general = context.reductions.get("general", 0) + more % 100
        stronger = replace(context, reductions={**context.reductions, "general": general})
    else:
        stronger = replace(context, temporary_reductions={"general": Fraction(more % 101)})
        assume(Fraction(more % 101) >= context.temporary_reductions["general"])
    assert compute_damage(stronger).damage <= before


@settings(database=None, max_examples=300)
@given(rich_hits())
def test_passive_reductions_never_pass_the_cap(context: HitContext) -> None:
    row = next(s for s in compute_damage(context).steps if s.step == "reduction")
    passive = min(row.details["uncapped"], 25)
    assert row.details["percent"] <= min(100, passive + 100)
    assert reduction_percent(context.reductions, context.natures)[0] <= 25


# --- an external defense kept on the terrain (umh 9.2.4, 8.2.1.4) ---------------------------
@pytest.mark.parametrize(
    ("context", "expected", "rule"),
    [
        (replace(hit(500, defense=200), terrain_defense=100), 200, "umh 9.2.4"),
        (replace(hit(80), terrain_defense=100), 0, "umh 9.2.4"),
        (replace(hit(500), terrain_defense=100, pierces=True), 500, "umh 9.2.4"),
        (replace(hit(500), terrain_defense=100, ignore_percent=Fraction(50)), 400, "umh 9.2.4"),
        (replace(hit(500), terrain_defense=100, evasion="half_down"), 250, "umh 8.2.1.4"),
        (replace(hit(501), terrain_defense=100, evasion="half_up"), 251, "umh 8.2.1.4"),
    ],
    ids=[
        "umh 9.2.4 after the skill defense",
        "umh 9.2.4 above the damage floors at 0",
        "umh 9.2.2 pierced",
        "umh 9.2.3 half ignored",
        "umh 8.2.1.4 not against an unmet evasion's half",
        "umh 7.1.3.1 nor a sonic evasion's half",
    ],
)
def test_8_2_1_4_a_defense_kept_on_the_terrain(
    context: HitContext, expected: int, rule: str
) -> None:
    breakdown = compute_damage(context)
    (step,) = [s for s in breakdown.steps if s.step == "terrain_defense"]
    assert breakdown.damage == expected
    assert step.rule == rule
