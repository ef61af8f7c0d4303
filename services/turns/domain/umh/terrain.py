"""Skills kept on squares of the grid (umh 4.1.5.1, 11.4.1 - 11.4.1.2, 8.2.1.4, 11.6.1).

A skill whose sheet has ``terrain`` names the squares it covers as the action's target
squares, like a special area (6.1.1 Área especial): within its reach (5.1.1), inside the
room (11.6.1), at most its ``size`` (an obstacle never on a fighter). Once the action
resolves (not anticipated or annulled) it is placed (``terrain.placed``) and lasts its
``rounds``: each new round takes one off, at 0 it ends (``terrain.ended``, ``expired``).

- 4.1.5.1: a fall does not end it (terrain skills "surtieron sus efectos"); nor does
  leaving the combat.
- 11.4.1 - 11.4.1.2: stunned, fainted or asleep, its keeper loses it (``broken``), unless
  the sheet marks the skill ``passive``.

What each kind does: an obstacle blocks moving, standing and pushes (:func:`blocked`); a
hazard hurts whoever starts a turn on it (:func:`hazards_under`, applied by
services/resolution as indirect damage); a defense reduces the hits aimed at whoever stands
on it (:func:`defenses`, applied by services/resolution, never to the 50 % of 8.2.1.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from services.turns.domain.umh import rulechecks
from services.turns.domain.umh.events import TERRAIN_ENDED, TERRAIN_PLACED
from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import SkillInfo
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.messages import derived_id
from shared.outcome import Outcome
from shared.payloads import Terrain
from shared.rulesets.umh.checks import effective_reach

KNOCKOUTS: Final = {
    "aturdimiento": "umh 11.4.1",
    "desmayo": "umh 11.4.1.1",
    "dormido": "umh 11.4.1.2",
}
"""umh 11.4.1 - 11.4.1.2: the controls that end what their receiver keeps on the terrain."""

SIZE_RULE: Final = "umh 6.1.1 Área especial"


def check_squares(
    state: CombatState, actor: str, skill: SkillInfo, squares: Sequence[Sequence[int]]
) -> None:
    """The squares a terrain skill names: some (``targets_not_declared``), at most its size
    (``invalid_target``, 6.1.1 Área especial), on the grid and inside the room
    (``invalid_target``, 11.6.1), within reach (``target_out_of_range``, 5.1.1, 11.5.9), and
    for an obstacle none where a fighter stands (``invalid_target``, 11.6.1)."""
    terrain = skill.terrain
    if terrain is None:
        return
    if not squares:
        raise RuleViolation("targets_not_declared", "umh 1.1.2", skill=skill.name)
    distinct = {(s[0], s[1]) for s in squares}
    if len(distinct) > int(terrain["size"]):
        raise RuleViolation("invalid_target", SIZE_RULE, total=len(distinct), max=terrain["size"])
    here = state.positions.get(actor)
    if here is None:
        raise RuleViolation("invalid_target", "umh 5.1.1", reason="no square on the grid")
    people = rulechecks.Combatants(state)
    user = people[actor]
    reach = effective_reach(user, rulechecks.sheet_skill(user, skill.name))
    for square in sorted(distinct):
        if not inside_room(state, square):
            raise RuleViolation("invalid_target", "umh 11.6.1", square=list(square))
        if rulechecks.squares_apart(state, here, square) > reach:
            raise RuleViolation(
                "target_out_of_range", "umh 5.1.1", square=list(square), reach=reach
            )
    if terrain["effect"] == "obstacle":
        for cid, at in state.positions.items():
            if (at[0], at[1]) in distinct and state.participants[cid].in_fight:
                raise RuleViolation("invalid_target", "umh 11.6.1", square=at, occupied_by=cid)


def inside_room(state: CombatState, square: Sequence[int]) -> bool:
    """umh 11.6.1: columns 0 to width - 1, rows 0 to height - 1 (no size: no edge)."""
    size = (state.terrain or {}).get("size")
    if not size:
        return True
    return bool(0 <= square[0] < size[0] and 0 <= square[1] < size[1])


def place(state: CombatState, out: Outcome, action_id: str, action: InFlight) -> None:
    """The resolved action's terrain skill takes its squares (``terrain.placed``)."""
    skill = state.participants[action.attacker].skill(action.skill)
    if skill is None or skill.terrain is None or not action.squares:
        return
    terrain = skill.terrain
    placed: dict[str, Any] = {
        "terrain_id": derived_id("t", action_id),
        "keeper": action.attacker,
        "skill": skill.name,
        "kind": terrain["effect"],
        "squares": sorted([s[0], s[1]] for s in action.squares),
        "rounds": terrain["rounds"],
        "rounds_left": terrain["rounds"],
        "passive": skill.passive,
    }
    if terrain["effect"] == "hazard":
        placed.update(damage=terrain["damage"], nature=terrain.get("nature"))
    if terrain["effect"] == "defense":
        placed["resistance"] = terrain["resistance"]
    if any(e["terrain_id"] == placed["terrain_id"] for e in state.terrain_effects):
        return
    state.terrain_effects.append(placed)
    out.emit(TERRAIN_PLACED, {**placed, "round": state.round, "rule": "umh 4.1.5.1"})


def _end(state: CombatState, out: Outcome, effect: dict[str, Any], reason: str, rule: str) -> None:
    state.terrain_effects.remove(effect)
    ended = {k: effect[k] for k in ("terrain_id", "keeper", "skill", "kind", "squares")}
    out.emit(TERRAIN_ENDED, {**ended, "reason": reason, "rule": rule})


def round_started(state: CombatState, out: Outcome) -> None:
    """umh 2.1.2: a new round takes one off each; what reaches 0 ends (``expired``)."""
    for effect in list(state.terrain_effects):
        effect["rounds_left"] = int(effect["rounds_left"]) - 1
        if effect["rounds_left"] <= 0:
            _end(state, out, effect, "expired", "umh 2.1.2")


def knocked_out(state: CombatState, out: Outcome, character: str, control: str) -> None:
    """umh 11.4.1 - 11.4.1.2: stunned, fainted or asleep, ``character`` loses what he keeps
    on the terrain (``broken``) unless it is passive. Other controls change nothing."""
    rule = KNOCKOUTS.get(control)
    if rule is None:
        return
    for effect in list(state.terrain_effects):
        if effect["keeper"] == character and not effect.get("passive"):
            _end(state, out, effect, "broken", rule)


def _of_kind(kind: str, state: CombatState) -> list[dict[str, Any]]:
    return [e for e in state.terrain_effects if e["kind"] == kind]


def blocked(state: CombatState, square: Sequence[int]) -> bool:
    """umh 11.6.1: the room's obstacles and the obstacles kept on the terrain."""
    at = [square[0], square[1]]
    room = [list(o) for o in (state.terrain or {}).get("obstacles") or []]
    kept = [s for e in _of_kind("obstacle", state) for s in e["squares"]]
    return at in room or at in kept


def check_free(state: CombatState, square: Sequence[int], rule: str = "umh 11.6.1") -> None:
    """umh 11.6.1: nobody moves, teleports or enters onto an obstacle or out of the room."""
    at = [square[0], square[1]]
    if blocked(state, square):
        raise RuleViolation("invalid_target", rule, square=at, reason="obstacle")
    if not inside_room(state, square):
        raise RuleViolation("invalid_target", rule, square=at, reason="outside the room")


def room(state: CombatState) -> Terrain | None:
    """The room resolution stops pushes at (11.6.1): its size, its obstacles and the ones kept
    on the terrain."""
    kept = [(s[0], s[1]) for e in _of_kind("obstacle", state) for s in e["squares"]]
    if state.terrain is None and not kept:
        return None
    base = Terrain.model_validate(state.terrain or {})
    return Terrain(size=base.size, obstacles=[*base.obstacles, *kept])


def _standing(state: CombatState, character: str, effect: dict[str, Any]) -> bool:
    at = state.positions.get(character)
    return at is not None and [at[0], at[1]] in effect["squares"]


def hazards_under(state: CombatState, actor: str) -> list[dict[str, Any]]:
    """The hazards ``actor`` starts his turn on: each hurts him once (services/resolution)."""
    return [
        {k: e[k] for k in ("terrain_id", "keeper", "skill", "damage", "nature")}
        for e in _of_kind("hazard", state)
        if _standing(state, actor, e)
    ]


def defenses(state: CombatState) -> dict[str, int]:
    """umh 8.2.1.4: of the defenses kept on the terrain, the strongest under each fighter."""
    found: dict[str, int] = {}
    for effect in _of_kind("defense", state):
        for cid in state.participants:
            if _standing(state, cid, effect):
                found[cid] = max(found.get(cid, 0), int(effect["resistance"]))
    return found


def view(state: CombatState) -> list[dict[str, Any]]:
    """The combat view's ``terrain_effects``: keeper, skill, kind, squares, rounds left."""
    return [dict(e) for e in state.terrain_effects]
