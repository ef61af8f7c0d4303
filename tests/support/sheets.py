"""Sheets for the tests that play combats (docs/api.md "Endpoints"): only what a test varies.

umh: :func:`umh_sheet` and its skills; cypher: :func:`pc`, :func:`npc`; l5r: :func:`samurai`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSON = dict[str, Any]


def offensive(name: str, *, damage: int = 120, pa: int = 2) -> JSON:
    return {
        "name": name,
        "tier": 1,
        "pa": pa,
        "type": "offensive",
        "natures": ["fisica"],
        "damage": damage,
        "reach": 1,
    }


def defensive(name: str, *, defense: int = 80, pa: int = 1) -> JSON:
    return {
        "name": name,
        "tier": 1,
        "pa": pa,
        "type": "defensive",
        "defense_kind": "internal",
        "natures": ["fisica"],
        "defense": defense,
    }


def supplementary(name: str, *, pa: int = 4) -> JSON:
    return {"name": name, "tier": 1, "pa": pa, "type": "supplementary", "natures": ["fisica"]}


DEFAULT_SKILLS: tuple[JSON, ...] = (
    offensive("Puño"),
    defensive("Bloqueo"),
    supplementary("Concentración"),
)


def umh_sheet(
    name: str,
    *,
    vel: float = 6,
    vit: int = 1000,
    resistance: int = 0,
    reductions: dict[str, float] | None = None,
    skills: Sequence[JSON] = DEFAULT_SKILLS,
) -> JSON:
    """A umh sheet (docs/api.md "Endpoints") with only what a test needs to vary."""
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": vit, "vel": vel, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "resistance": {"value": resistance, "hardness": "acero"},
        "reductions": dict(reductions or {}),
        "skills": [dict(skill) for skill in skills],
    }


def umh_sheet_with(
    name: str, *, skills: Sequence[JSON], stats: dict[str, Any] | None = None, **fields: Any
) -> JSON:
    """A umh sheet like :func:`umh_sheet` with any stat or top-level field overridden."""
    body = umh_sheet(name, skills=skills)
    body["stats"] = {**body["stats"], **(stats or {})}
    body.update(fields)
    return body


# --- cypher (seed 001) ----------------------------------------------------------------------
def pc(name: str, *, might: int = 8, speed: int = 8, intellect: int = 8, **extra: Any) -> JSON:
    return {
        "name": name,
        "ruleset": "cypher",
        "kind": "pc",
        "pools": {"might": might, "speed": speed, "intellect": intellect},
        "edges": {"might": 1},
        "tier": 1,
        "effort": 1,
        "armor": 1,
        "attacks": [
            {"name": "Espada", "damage": 5, "kind": "melee", "weapon": "slashing"},
            {"name": "Arco", "damage": 4, "kind": "ranged", "range": "long", "ranged_kind": "bow"},
        ],
        **extra,
    }


def npc(name: str, *, level: int = 2, health: int = 6) -> JSON:
    return {
        "name": name,
        "ruleset": "cypher",
        "kind": "npc",
        "level": level,
        "health": health,
        "armor": 0,
        "attacks": [{"name": "Garra", "damage": 4}],
    }


# --- l5r (seed 004) -------------------------------------------------------------------------
def samurai(name: str, **over: Any) -> JSON:
    """Reflexes 1 (TN to be hit 10), a short wound table so that one or two hits end it."""
    sheet: JSON = {
        "name": name,
        "ruleset": "l5r",
        "rings": {"earth": 2, "air": 2, "water": 2, "fire": 2, "void": 2},
        "traits": {"reflexes": 1, "agility": 3, "strength": 2},
        "insight_rank": 1,
        "skills": {"kenjutsu": 2, "defense": 1},
        "armor_tn": 0,
        "weapon": {"name": "katana", "skill": "kenjutsu", "damage": "3k2"},
        "wounds": [
            {"name": n, "up_to": up, "penalty": pen}
            for n, up, pen in [
                ("healthy", 4, 0),
                ("nicked", 6, 3),
                ("grazed", 8, 5),
                ("hurt", 10, 10),
                ("injured", 12, 15),
                ("crippled", 14, 20),
                ("down", 16, 40),
                ("out", 18, 40),
            ]
        ],
    }
    sheet.update(over)
    return sheet
