"""Montar a caballo and Desarmar (seed 004, issue 17) through services/turns' and
services/resolution's handlers (:mod:`tests.unit.turns.l5r.session`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.turns.l5r.session import Combat, code, fighting, sheet, stance, wound


def riders(horsemanship: int, **over: Any) -> Combat:
    skills = {"kenjutsu": 3, "defense": 2, "horsemanship": horsemanship}
    sheets = {
        "ana": sheet("Ana", mounted=True, skills=skills, **over),
        "bruno": sheet("Bruno", mounted=True, skills=skills, **over),
    }
    c, _, _ = fighting(sheets=sheets)
    return c


@pytest.mark.parametrize(
    ("horsemanship", "body", "refused"),
    [
        pytest.param(0, {"type": "l5r.move", "meters": 6}, None, id="no ranks: rides (moves)"),
        pytest.param(
            0,
            {"type": "l5r.complex", "description": "jump the fence", "category": "ride"},
            None,
            id="no ranks: a riding feat",
        ),
        pytest.param(
            0,
            {"type": "l5r.attack", "target": "foe"},
            "cannot_fight_mounted",
            id="no ranks: fights",
        ),
        pytest.param(1, {"type": "l5r.attack", "target": "foe"}, None, id="1 rank: fights"),
        pytest.param(
            0, {"type": "l5r.move", "meters": 7}, "movement_exceeded", id="own Water x 3 is 6 m"
        ),
    ],
)
def test_004_montar_a_caballo_riding_is_movement(
    horsemanship: int, body: dict[str, Any], refused: str | None
) -> None:
    """ "Montar a caballo entra en las reglas de movimiento ... Un jinete sin rangos en
    equitación no puede luchar montado": a rider with no Horsemanship moves and rides; only
    fighting mounted needs a rank (T004-28)."""
    c = riders(horsemanship)
    actor = c.actor
    foe = next(x for x in c.state["participants"] if x != actor)
    stance(c, actor)
    action = {**body, "actor": actor}
    if action.get("target") == "foe":
        action["target"] = foe
    if refused is None:
        c.act(action)
    else:
        assert code(c, action) == refused


def test_004_montar_a_caballo_the_horses_movement() -> None:
    """ "puedes utilizar la capacidad de movimiento de tu caballo en vez de la tuya": a horse
    of 20 m a round carries him 20 m (his own Water 2 would give 6 m); running, 60 m."""
    c = riders(0, horse_movement=20)
    actor = c.actor
    stance(c, actor)
    moved = c.act({"type": "l5r.move", "actor": actor, "meters": 20})
    shown = next(e.payload for e in moved if e.type == "combatant.moved")
    assert shown["max"] == 20 and shown["mounted"] is True
    assert code(c, {"type": "l5r.move", "actor": actor, "meters": 1}) == "movement_limit"


def disarm_attempt(choice: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A strong swordsman (12k6) disarms a target of Agility 4, Strength 2, kenjutsu 3."""
    sheets = {
        "ana": sheet("Ana", traits={"agility": 6, "reflexes": 6}, skills={"kenjutsu": 6}),
        "bruno": sheet(
            "Bruno", traits={"agility": 4, "strength": 2, "reflexes": 1}, disarm_roll=choice
        ),
    }
    c = Combat(sheets)
    c.ready_all()
    while c.actor != "ana":
        stance(c, c.actor)
        c.act({"type": "pass_turn", "actor": c.actor})
    stance(c, "ana")
    c.act({"type": "l5r.attack", "actor": "ana", "target": "bruno", "raises": {"disarm": True}})
    resolved = c.of_type("action.resolved")[-1]
    step = next(s for s in resolved["steps"] if s["step"] == "disarm")
    opposed = next(r for r in c.of_type("dice.rolled") if r["purpose"] == "disarm_opposed")
    return step, opposed


@pytest.mark.parametrize(
    ("choice", "spec"),
    [
        pytest.param("usual", "7k4", id="his usual roll: (Agility + kenjutsu) k Agility"),
        pytest.param("strength", "5k2", id="(Strength + kenjutsu) k Strength"),
    ],
)
def test_004_desarmar_the_target_chooses_his_roll(choice: str, spec: str) -> None:
    """Desarmar (C-23): "El objetivo puede elegir usar su Fuerza/habilidad del arma en vez de
    la tirada habitual": the target opposes with his usual attack roll unless his sheet chose
    Strength; the attacker's total must be higher."""
    step, opposed = disarm_attempt(choice)
    assert step["roll"] == choice and opposed["spec"] == spec
    assert opposed["roller"] == "bruno" and opposed["action_id"]
    assert step["disarmed"] is (step["total"] > step["opposed"])


def wounded_attacker(**l5r: Any) -> tuple[Combat, str, str]:
    """Ana (Void 3) at 12 wounds (Nicked, penalty 3) on her turn, stance declared."""
    sheets = {"ana": sheet("Ana", rings={"void": 3}), "bruno": sheet("Bruno")}
    c = Combat(sheets, l5r=l5r)
    c.ready_all()
    while c.actor != "ana":
        stance(c, c.actor)
        c.act({"type": "pass_turn", "actor": c.actor})
    wound(c, "ana", 12)
    stance(c, "ana")
    return c, "ana", "bruno"


@pytest.mark.parametrize(
    ("uses", "refused", "rolled", "penalty", "spent"),
    [
        pytest.param(["persistencia"], None, 6, 0, 1, id="one point: no wound penalty"),
        pytest.param(["persistencia", "mejora_die"], None, 7, 0, 2, id="two points: +1k1 as well"),
        pytest.param(
            ["persistencia", "mejora_die", "mejora_rank"], None, 8, 0, 3, id="three points"
        ),
        pytest.param(["mejora_die", "mejora_rank"], "one_void_use_per_roll", 0, 0, 0, id="no P"),
        pytest.param(
            ["persistencia", "persistencia"], "one_void_use_per_roll", 0, 0, 0, id="twice"
        ),
    ],
)
def test_004_persistencia_more_than_one_point(
    uses: list[str], refused: str | None, rolled: int, penalty: int, spent: int
) -> None:
    """Persistencia: "Puedes gastar más de un punto de Vacío para mejorar esta tirada": the
    roll with Persistencia (no wound penalty) may carry each Mejora use too, a point each;
    without Persistencia one use per roll stays the rule (Vacío)."""
    c, actor, foe = wounded_attacker()
    body = {"type": "l5r.attack", "actor": actor, "target": foe, "void": uses}
    if refused is not None:
        assert code(c, body) == refused
        return
    events = c.act(body)
    request = next(e.payload for e in events if e.type == "resolution.requested")
    assert request["roll"]["rolled"] == rolled and request["roll"]["penalty"] == penalty
    assert next(e.payload for e in events if e.type == "void.spent")["cost"] == spent


def test_004_persistencia_one_use_when_the_setting_is_off() -> None:
    """``persistencia_more_points: false`` keeps test vector T004-05: one use per roll."""
    c, actor, foe = wounded_attacker(persistencia_more_points=False)
    body = {"type": "l5r.attack", "actor": actor, "target": foe, "void": ["persistencia"]}
    assert code(c, {**body, "void": ["persistencia", "mejora_die"]}) == "one_void_use_per_roll"
