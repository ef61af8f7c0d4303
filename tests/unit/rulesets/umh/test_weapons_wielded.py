"""umh 12: the weapons a skill is declared with (12.1, 12.3) and what a hit makes of them
(12.2 - 12.4): their ARMA together and whose additional effects apply."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.rulesets.umh.sheet import UmhSheet
from shared.rulesets.umh.weapons import armed, check_wielded

SOAK = {"kind": "state", "type": "mojado", "actions": 3}
BURN = {"kind": "indirect", "type": "quemadura", "amount": 20, "actions": 3}


def weapon(name: str, tier: int, arma: int, klass: str = "medium", **more: Any) -> dict[str, Any]:
    return {"name": name, "tier": tier, "arma": arma, "class": klass, **more}


def sheet(*weapons: dict[str, Any], effects: list[dict[str, Any]] | None = None) -> UmhSheet:
    skill = {
        "name": "Tajo",
        "tier": 1,
        "pa": 2,
        "type": "offensive",
        "natures": ["fisica"],
        "damage": 100,
        "reach": 1,
        "effects": effects or [],
    }
    return UmhSheet.model_validate(
        {
            "name": "Ana",
            "ruleset": "umh",
            "stats": {"vit": 500, "vel": 6, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
            "traits": ["ambidextrous"],
            "skills": [skill],
            "weapons": list(weapons),
        }
    )


def parsed(effects: list[dict[str, Any]]) -> list[Any]:
    """Effect specs as the sheet model reads them."""
    return list(sheet(effects=effects).skills[0].effects)


def dumped(effects: Any) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json", exclude_none=True) for e in effects]


KATANA = weapon("Katana", 3, 100, effects=[BURN])
WAKI = weapon("Wakizashi", 2, 80, effects=[SOAK])
PISTOL = weapon("Pistola", 3, 100, "firearm")
RELIC = weapon("Reliquia", 2, 80, unique=True, effects=[SOAK])
CLUB = weapon("Garrote", 6, 100)


@pytest.mark.parametrize(
    ("weapons", "effects_of", "rule"),
    [
        pytest.param(["Hacha"], None, "umh 12.1", id="umh-12.1-not-his-weapon"),
        pytest.param(["Katana", "Katana"], None, "umh 12.1", id="umh-12.1-the-same-twice"),
        pytest.param(["Katana"], "Wakizashi", "umh 12.3", id="umh-12.3-effects-of-another"),
    ],
)
def test_umh_12_1_declared_weapons_are_his_own(
    weapons: list[str], effects_of: str | None, rule: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        check_wielded(sheet(KATANA, WAKI), weapons, effects_of)
    assert (refused.value.code, refused.value.rule) == ("unknown_weapon", rule)


def test_umh_12_1_his_own_weapons_pass() -> None:
    check_wielded(sheet(KATANA, WAKI), ["Katana", "Wakizashi"], "Wakizashi")
    check_wielded(sheet(KATANA, WAKI), [], None)


@pytest.mark.parametrize(
    ("weapons", "effects_of", "arma", "arma_rule", "added"),
    [
        pytest.param(["Katana"], None, 100, None, [BURN], id="umh-12-one-weapon"),
        pytest.param(
            ["Katana", "Wakizashi"], None, 110, "umh 12.2.2", [BURN], id="T000-71-umh-12.2.2"
        ),
        pytest.param(
            ["Katana", "Wakizashi"],
            "Wakizashi",
            110,
            "umh 12.2.2",
            [SOAK],
            id="umh-12.3-the-player-chooses-whose-effects",
        ),
        pytest.param(
            ["Katana", "Pistola"], None, None, "umh 12.1.1", [BURN], id="T000-75-umh-12.1.1"
        ),
        pytest.param(
            ["Reliquia", "Katana"],
            "Reliquia",
            106,
            "umh 12.4",
            [SOAK],
            id="T000-76-umh-12.4-A-80-reading-A",
        ),
        pytest.param(
            ["Garrote", "Wakizashi"], None, None, "umh 12.2 (A-78)", [], id="A-78-four-tiers"
        ),
    ],
)
def test_umh_12_2_a_hit_with_weapons(
    weapons: list[str],
    effects_of: str | None,
    arma: int | None,
    arma_rule: str | None,
    added: list[dict[str, Any]],
) -> None:
    owner = sheet(KATANA, WAKI, PISTOL, RELIC, CLUB)
    skill = owner.skill("Tajo")
    assert skill is not None
    used, summary = armed(owner, skill, weapons, effects_of)
    assert summary is not None
    assert (summary["arma"], summary.get("arma_rule")) == (arma, arma_rule)
    assert dumped(used.effects) == dumped(parsed(added))  # the skill itself has none


def test_umh_12_no_weapons_leaves_the_skill_as_it_is() -> None:
    owner = sheet(KATANA)
    skill = owner.skill("Tajo")
    assert skill is not None
    assert armed(owner, skill, [], None) == (skill, None)


def test_a_78_four_tiers_apart_with_the_setting() -> None:
    owner = sheet(CLUB, WAKI)
    skill = owner.skill("Tajo")
    assert skill is not None
    _, summary = armed(owner, skill, ["Garrote", "Wakizashi"], None, four_plus=(0.9, 0.3))
    assert summary is not None and summary["arma"] == 90 + 24
