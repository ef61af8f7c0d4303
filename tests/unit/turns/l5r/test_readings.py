"""The readings of docs/rules.md 6.3 marked "config" (C-5, C-17, C-24, C-27): the default is the
recommended one; each setting flips it for the combats that start afterwards. Paso 3."""

from __future__ import annotations

from typing import Any

import pytest

from services.turns.domain.l5r import rules
from tests.unit.turns.l5r.session import Combat, sheet


def in_turn(c: Combat) -> tuple[str, str]:
    c.ready_all()
    actor = c.actor
    c.act({"type": "l5r.stance", "actor": actor, "stance": "attack"})
    return actor, "bruno" if actor == "ana" else "ana"


def requested(c: Combat, body: dict[str, Any]) -> dict[str, Any]:
    return next(e.payload for e in c.act(body) if e.type == "resolution.requested")


@pytest.mark.parametrize(
    ("scope", "received"),
    [
        pytest.param("day", 2, id="C-5 per day: states' count today"),
        pytest.param("combat", 0, id="C-5 per combat: from zero"),
    ],
)
def test_c_5_alentar_scope(scope: str, received: int) -> None:
    c = Combat(counters={"bruno": {"alentar_received": 2}}, l5r={"alentar_scope": scope})
    assert c.p("bruno")["alentar_received"] == received


@pytest.mark.parametrize(
    ("settings", "tn"),
    [
        pytest.param({}, 20, id="C-27 Reflexes x 5 + 5"),
        pytest.param({"tn_reflexes_multiplier": 5, "tn_base": 10}, 25, id="C-27 base 10"),
    ],
)
def test_c_27_tn_to_be_hit(settings: dict[str, int], tn: int) -> None:
    c = Combat(l5r=settings)
    actor, foe = in_turn(c)
    assert requested(c, {"type": "l5r.attack", "actor": actor, "target": foe})["tn"] == tn


@pytest.mark.parametrize(
    ("reading", "bonus"),
    [
        pytest.param("alternate", (2, 1), id="C-24 3 raises +2k1"),
        pytest.param("rolled_only", (3, 0), id="C-24 other reading 3 raises +3k0"),
    ],
)
def test_c_24_damage_raises(reading: str, bonus: tuple[int, int]) -> None:
    assert rules.damage_bonus(3, reading) == bonus


@pytest.mark.parametrize(
    ("threshold", "allowed"),
    [
        pytest.param(3, False, id="C-17 Horsemanship 2 < 3: no Full Attack mounted"),
        pytest.param(2, True, id="C-17 threshold 2: allowed"),
    ],
)
def test_c_17_horsemanship_threshold(threshold: int, allowed: bool) -> None:
    riders = {
        c: sheet(c.capitalize(), mounted=True, skills={"kenjutsu": 3, "horsemanship": 2})
        for c in ("ana", "bruno")
    }
    c = Combat(riders, l5r={"horsemanship_for_stances": threshold})
    c.ready_all()
    body = {"type": "l5r.stance", "actor": c.actor, "stance": "full_attack"}
    if allowed:
        c.act(body)
    else:
        assert c.refused(body).code == "action_not_allowed_in_stance"


def test_paso_3_nobody_wants_to_keep_fighting() -> None:
    c = Combat()
    c.ready_all()
    c.act({"type": "pact", "actor": "ana"})
    assert c.state["phase"] == "fighting"
    c.act({"type": "pact", "actor": "bruno"})
    ended = c.of_type("combat.ended")[0]
    assert ended["reason"] == "pact" and ended["winner"] is None


def test_paso_3_an_attack_means_fighting_goes_on() -> None:
    c = Combat()
    actor, foe = in_turn(c)
    c.act({"type": "pact", "actor": foe})
    c.act({"type": "l5r.attack", "actor": actor, "target": foe})
    c.act({"type": "pact", "actor": actor})
    assert c.state["phase"] != "ended" or c.of_type("combat.ended")[0]["reason"] != "pact"
