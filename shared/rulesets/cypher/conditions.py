"""A combatant's condition in a cypher combat (pools or health, track, special damage), as
services/turns keeps it and services/resolution changes it. Plain JSON-ready dicts."""

from __future__ import annotations

import copy
from typing import Any

from shared.rulesets.cypher.damage import DEAD_STEP, STATS, track_name, track_step
from shared.rulesets.cypher.sheet import CypherSheet

Condition = dict[str, Any]


def initial(sheet: CypherSheet, side: str) -> Condition:
    """The condition a sheet starts a combat with: its current pools (else full), its health."""
    if sheet.kind == "npc":
        health = int(sheet.health or 1)
        pools = None
        maxima = None
    else:
        assert sheet.pools is not None
        maxima = sheet.pools.model_dump()
        pools = (sheet.current or sheet.pools).model_dump()
        health = None
    cond: Condition = {
        "kind": sheet.kind,
        "side": side,
        "pools": pools,
        "pools_max": maxima,
        "health": health,
        "health_max": health,
        "armor": sheet.armor,
        "special_steps": 0,
        "track": 0,
        "track_name": "unhurt",
        "status": "active",
        "dazed_turns": 0,
        "stunned": False,
        "paralyzed": False,
        "rests_taken": 0,
        "recovered_this_combat": False,
    }
    return refreshed(cond)


def refreshed(cond: Condition) -> Condition:
    """Track and status from the pools (B-5, B-6) or health: dead at step 3 / health 0,
    debilitated at step 2 (001 INDICADOR). A fled combatant stays fled."""
    out = copy.deepcopy(cond)
    if out["kind"] == "npc":
        dead = int(out["health"] or 0) <= 0
        out["track"] = DEAD_STEP if dead else 0
    else:
        out["track"] = track_step(out["pools"], int(out["special_steps"]))
    out["track_name"] = track_name(out["track"])
    if out["status"] == "fled":
        return out
    if out["track"] >= DEAD_STEP:
        out["status"] = "dead"
    elif out["track"] == 2:
        out["status"] = "debilitated"
    else:
        out["status"] = "active"
    return out


def impaired(cond: Condition) -> bool:
    """001 INDICADOR lesionado: one step down (or more)."""
    return int(cond["track"]) >= 1


def pool_of(cond: Condition, stat: str) -> int:
    pools = cond.get("pools") or {}
    return int(pools.get(stat, 0))


def pools_at_zero(cond: Condition) -> list[str]:
    pools = cond.get("pools") or {}
    return [s for s in STATS if int(pools.get(s, 0)) <= 0]
