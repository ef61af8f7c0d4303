"""shared.rulesets.umh.checks and reaction_checks: one refusal per error code, and what
passes (umh 5 - 12)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.payloads import EffectView, Position
from shared.rulesets.umh.checks import (
    Combatant,
    Declaration,
    check_declaration,
    effective_reach,
)
from shared.rulesets.umh.reaction_checks import Reaction, check_reaction
from shared.rulesets.umh.sheet import Skill, UmhSheet


def skill(name: str = "Golpe", **fields: Any) -> Skill:
    base: dict[str, Any] = {"name": name, "tier": 1, "pa": 1, "type": "offensive", "damage": 100}
    return Skill.model_validate({**base, "natures": ["fisica"], **fields})


def guard(kind: str, **fields: Any) -> Skill:
    return skill("Guardia", type="defensive", defense_kind=kind, damage=0, **fields)


def fighter(
    cid: str,
    *,
    side: str = "defenders",
    square: tuple[int, int] | None = None,
    height: str = "suelo",
    ref: float = 3,
    traits: list[str] | None = None,
    effects: list[str] | None = None,
    blocks: frozenset[str] = frozenset(),
) -> Combatant:
    sheet = UmhSheet.model_validate(
        {
            "name": cid,
            "ruleset": "umh",
            "stats": {"vit": 100, "vel": 6, "ref": ref, "vol": 2, "fue": 1, "rank": 1, "vigor": 1},
            "traits": traits or [],
        }
    )
    views = [
        EffectView(effect_id=f"e{i}", kind="state", type=t) for i, t in enumerate(effects or [])
    ]
    return Combatant(cid, side, sheet, Position(square=square, height=height), views, blocks)  # type: ignore[arg-type]


ANA = fighter("ana", side="attackers", square=(0, 0))
BRUNO = fighter("bruno", square=(1, 0))


def refused(code: str, call: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call()
    assert caught.value.code == code, caught.value
    return caught.value


def declare(s: Skill, *targets: Combatant, actor: Combatant = ANA, **more: Any) -> None:
    check_declaration(Declaration(actor, s, list(targets), **more))


def react(attack: Skill, defense: Skill | None, reactor: Combatant = BRUNO, **more: Any) -> None:
    attacker = more.pop("attacker", ANA)
    check_reaction(Reaction(reactor, attacker, attack, defense, **more))


# --- declarations ---------------------------------------------------------------------------
def test_declaration_passes_in_reach() -> None:
    declare(skill(reach=1), BRUNO)


@pytest.mark.parametrize(
    ("code", "call"),
    [
        pytest.param(
            "target_out_of_range",
            lambda: declare(skill(reach=1), fighter("b", square=(3, 0))),
            id="umh-1.1.2-out-of-range",
        ),
        pytest.param(
            "target_out_of_range",
            lambda: declare(
                skill(reach=5),
                fighter("b", square=(3, 0)),
                actor=fighter("ana", side="attackers", square=(0, 0), effects=["desorientacion"]),
            ),
            id="T000-65-umh-11.5.9-disoriented",
        ),
        pytest.param(
            "target_unreachable_height",
            lambda: declare(skill(reach=2), fighter("b", square=(1, 0), height="alzada")),
            id="T000-58-umh-10.2.1-height",
        ),
        pytest.param(
            "cone_diagonal",
            lambda: declare(
                skill(reach=3, area={"shape": "cone", "size": 2}), fighter("b", square=(1, 1))
            ),
            id="umh-6.1.1-cone-diagonal",
        ),
        pytest.param(
            "target_out_of_range",
            lambda: declare(
                skill(reach=3, area={"shape": "cone", "size": 1}),
                fighter("b", square=(2, 0)),
                squares=[(1, 0)],
            ),
            id="umh-6.1.1-outside-the-cone",
        ),
        pytest.param(
            "target_concealed",
            lambda: declare(skill(), fighter("b", square=(1, 0), effects=["ocultacion"])),
            id="umh-11.5.13-concealed",
        ),
        pytest.param(
            "supplementary_affects_enemy",
            lambda: declare(skill(type="supplementary", damage=0), BRUNO),
            id="umh-8.1.1.2-supplementary-on-enemy",
        ),
        pytest.param(
            "not_ambidextrous",
            lambda: declare(skill(), BRUNO, weapons=["a", "b"]),
            id="umh-12.1-two-weapons",
        ),
    ],
)
def test_declaration_refusals(code: str, call: Any) -> None:
    refused(code, call)


def test_declaration_allowances() -> None:
    declare(skill(), fighter("b", square=(1, 0), effects=["ocultacion"]), detected=frozenset({"b"}))
    ambi = fighter("ana", side="attackers", square=(0, 0), traits=["ambidextrous"])
    declare(skill(), BRUNO, actor=ambi, weapons=["a", "b"])
    declare(skill(reach=3), fighter("b", square=(1, 0), height="alzada"))
    assert effective_reach(fighter("x", effects=["desorientacion"]), skill(reach=3)) == 1


# --- reactions ------------------------------------------------------------------------------
LIGHT = skill(natures=["luz"])
CHRONO = skill(natures=["cronoquinetica"])
PSIONIC = skill(natures=["psionica"])


@pytest.mark.parametrize(
    ("code", "call"),
    [
        pytest.param(
            "reaction_requirement",
            lambda: react(LIGHT, guard("internal", defense=1), fighter("bruno", ref=2)),
            id="T000-38-umh-7.1.1.2-A-98-light-defense",
        ),
        pytest.param(
            "reaction_requirement",
            lambda: react(CHRONO, guard("evasion"), fighter("bruno", ref=5)),
            id="T000-37-umh-7.1.1-chrono-evasion-REF-5",
        ),
        pytest.param(
            "reaction_requirement",
            lambda: react(CHRONO, guard("internal", defense=9), fighter("bruno", ref=9)),
            id="umh-7.1.1-chrono-needs-resist",
        ),
        pytest.param(
            "resist_not_allowed",
            lambda: react(PSIONIC, guard("internal", defense=1), resist=True),
            id="T000-41-umh-7.1.2.4-resist-with-internal",
        ),
        pytest.param(
            "resist_not_allowed",
            lambda: react(skill(), None, resist=True),
            id="umh-7.1.2.3-resist-physical",
        ),
        pytest.param(
            "defense_not_applicable",
            lambda: react(skill(natures=["alma"]), guard("external", defense=1)),
            id="umh-7.1.1-soul",
        ),
        pytest.param(
            "defense_not_applicable",
            lambda: react(skill(natures=["fuego_infernal"]), guard("internal", defense=1)),
            id="T000-44-umh-7.1.1-hellfire-internal",
        ),
        pytest.param(
            "defense_not_applicable",
            lambda: react(skill(natures=["mental"]), guard("external", defense=1)),
            id="umh-7.1.1-A-76-mental-only-resisted",
        ),
        pytest.param(
            "defense_type",
            lambda: react(skill(damage=0), guard("internal", defense=1)),
            id="umh-8.1.1.3.1.1-no-direct-damage",
        ),
        pytest.param(
            "not_targeted",
            lambda: react(skill(), guard("internal", defense=1), targets=["carla"]),
            id="umh-8.1.1.3.1-not-targeted",
        ),
        pytest.param(
            "target_out_of_range",
            lambda: react(
                skill(),
                guard("annulment", reach=1),
                fighter("bruno", square=(5, 0)),
                targets=["carla"],
            ),
            id="umh-8.2.3.3-annul-out-of-reach",
        ),
        pytest.param(
            "cannot_defend_indirect",
            lambda: react(skill(), guard("external", defense=1), indirect=True),
            id="umh-8.1.1.3.1.2-indirect",
        ),
        pytest.param(
            "firearm_block",
            lambda: react(skill(), guard("internal", defense=1, firearm=True)),
            id="umh-9.2.5.1-firearm",
        ),
        pytest.param(
            "counter_needs_direct_damage",
            lambda: react(skill(type="supplementary", damage=0), guard("counter", defense=1)),
            id="umh-8.2.4.1-counter",
        ),
        pytest.param(
            "cannot_anticipate_defense",
            lambda: react(guard("internal", defense=1), guard("anticipation")),
            id="umh-8.2.2.3-anticipate-defense",
        ),
        pytest.param(
            "anticipation_chain",
            lambda: react(
                guard("anticipation"), guard("anticipation"), attack_is_anticipation=True
            ),
            id="umh-8.2.2.4.1-chain",
        ),
        pytest.param(
            "cannot_annul",
            lambda: react(
                skill(type="supplementary", joins_combat=True, damage=0), guard("annulment")
            ),
            id="umh-8.2.3.1-annul-entry",
        ),
        pytest.param(
            "invalid_target",
            lambda: react(skill(), guard("reflection"), redirect_to=fighter("carla")),
            id="umh-8.2.5.2-reflect-to-an-ally",
        ),
        pytest.param(
            "target_out_of_range",
            lambda: react(
                skill(),
                guard("reflection", reach=2),
                redirect_to=fighter("dario", side="attackers", square=(9, 0)),
            ),
            id="umh-8.2.5.2-reflect-out-of-reach",
        ),
        pytest.param(
            "not_reactable",
            lambda: react(guard("annulment"), guard("internal", defense=1)),
            id="umh-8.2.3.2-annulment",
        ),
        pytest.param(
            "not_reactable",
            lambda: react(guard("counter", melee=True, defense=1), guard("internal", defense=1)),
            id="umh-8.2.4.4-melee-counter",
        ),
        pytest.param(
            "blind_cannot_evade",
            lambda: react(
                skill(),
                guard("evasion"),
                fighter("bruno", ref=4, effects=["ceguera"]),
                attacker=fighter("ana", side="attackers", ref=5),
            ),
            id="T000-64-umh-11.5.6-blind",
        ),
        pytest.param(
            "immobilized",
            lambda: react(
                skill(),
                guard("evasion", needs_legs=True),
                fighter("bruno", blocks=frozenset({"evade_with_legs"})),
            ),
            id="umh-11.5.1-immobilised",
        ),
        pytest.param(
            "evasion_direction",
            lambda: react(skill(), guard("evasion"), BRUNO, to=(0, 0)),
            id="umh-8.2.1.5-straight-toward",
        ),
        pytest.param(
            "evasion_direction",
            lambda: react(
                skill(area={"shape": "cone", "size": 2}),
                guard("evasion"),
                fighter("bruno", square=(2, 0)),
                to=(1, 1),
                squares=[(1, 0), (2, -1), (2, 0), (2, 1)],
            ),
            id="umh-8.2.1.6-A-50-cone-diagonal-toward",
        ),
        pytest.param(
            "evasion_insufficient",
            lambda: react(
                skill(area={"shape": "on_target", "size": 1}),
                guard("evasion"),
                fighter("bruno", square=(3, 0)),
                to=(4, 0),
                squares=[(x, y) for x in (2, 3, 4) for y in (-1, 0, 1)],
            ),
            id="umh-8.2.1.3-insufficient",
        ),
        pytest.param(
            "evasion_overspend",
            lambda: react(skill(), guard("evasion"), BRUNO, to=(3, 0)),
            id="umh-8.2.1.3-overspend",
        ),
    ],
)
def test_reaction_refusals(code: str, call: Any) -> None:
    refused(code, call)


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(
            lambda: react(CHRONO, guard("evasion"), fighter("bruno", ref=6)), id="T000-37-REF-6"
        ),
        pytest.param(
            lambda: react(CHRONO, None, fighter("bruno", ref=0), resist=True), id="T000-37-resist"
        ),
        pytest.param(
            lambda: react(LIGHT, guard("evasion"), fighter("bruno", ref=2)),
            id="T000-38-umh-8.2.1.4-evasion-falls-back",
        ),
        pytest.param(
            lambda: react(
                skill(),
                guard("evasion"),
                fighter("bruno", ref=4, effects=["ceguera"]),
                attacker=fighter("ana", side="attackers", ref=4),
            ),
            id="T000-64-blind-equal-REF",
        ),
        pytest.param(
            lambda: react(skill(), guard("evasion"), BRUNO, to=(2, 1)),
            id="umh-8.2.1.5-diagonal-away",
        ),
        pytest.param(
            lambda: react(skill(), guard("evasion"), BRUNO, to=(1, 1)), id="umh-8.2.1.5-sideways"
        ),
        pytest.param(
            lambda: react(
                skill(natures=["fuego_infernal"]), guard("internal", against_hellfire=True)
            ),
            id="umh-7.1.1-hellfire-internal-that-says-so",
        ),
        pytest.param(
            lambda: react(skill(natures=["alma"]), guard("external", against_soul=True)),
            id="umh-7.1.1-soul-defense-that-says-so",
        ),
        pytest.param(
            lambda: react(
                skill(),
                guard("anticipation", reach=9),
                fighter("bruno", square=(4, 0)),
                targets=["carla"],
            ),
            id="umh-8.2.2.5-anticipate-in-reach",
        ),
        pytest.param(lambda: react(skill(), None), id="umh-8.1.1.3-take-the-hit"),
        pytest.param(
            lambda: react(skill(natures=["sonora"]), guard("evasion"), fighter("bruno", ref=1)),
            id="umh-7.1.3.1-sonic-evasion-without-REF",
        ),
    ],
)
def test_reaction_allowances(call: Any) -> None:
    call()
