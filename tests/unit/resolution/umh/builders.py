"""Sheets, ``combat.started`` and ``resolution.requested`` payloads for resolution tests."""

from __future__ import annotations

from typing import Any

ATTACK = "Puño"
SHIELD = "Escudo"  # internal defense
FIELD = "Campo"  # external defense
DODGE = "Esquiva"  # evasion: not refereed in this slice
BLESSING = "Bendición"  # supplementary


def skill(name: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": name, "tier": 1, "pa": 1, "type": "offensive"}
    return {**base, "natures": ["fisica"], **fields}


def sheet(
    name: str,
    *,
    vit: int = 1000,
    damage: int = 500,
    natures: list[str] | None = None,
    defense: int = 200,
    resistance: int = 0,
    hardness: str | None = None,
    reductions: dict[str, float] | None = None,
) -> dict[str, Any]:
    """A valid umh sheet with an attack, two numeric defenses, an evasion, a support skill."""
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": vit, "vel": 6, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "resistance": {"value": resistance, "hardness": hardness},
        "reductions": reductions or {},
        "skills": [
            skill(ATTACK, damage=damage, natures=natures or ["fisica"]),
            skill(SHIELD, type="defensive", defense_kind="internal", defense=defense),
            skill(FIELD, type="defensive", defense_kind="external", defense=defense),
            skill(DODGE, type="defensive", defense_kind="evasion", defense=defense),
            skill(BLESSING, type="supplementary"),
        ],
    }


def started(sheets: dict[str, dict[str, Any]], defenders: list[str]) -> dict[str, Any]:
    """``combat.started`` with ``ana`` attacking ``defenders``."""
    return {
        "combat_id": "c_1",
        "ruleset": "umh",
        "room": "plaza",
        "tenant": "t_1",
        "initiator": "ana",
        "sides": {"attackers": ["ana"], "defenders": defenders},
        "opening": {"kind": "challenge"},
        "positions": None,
        "sheets": sheets,
        "settings": {},
        "started_at_ms": 1_000,
    }


def requested(
    targets: list[str],
    reactions: dict[str, dict[str, Any]] | None = None,
    *,
    action_id: str = "a_1",
    skill_name: str = ATTACK,
    attacker: str = "ana",
) -> dict[str, Any]:
    return {
        "action_id": action_id,
        "attacker": attacker,
        "skill": skill_name,
        "targets": targets,
        "reactions": reactions or {},
        "round": 1,
    }
