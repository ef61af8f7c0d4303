"""Replay one umh combat from its log alone and compare the result with the stored combat.

The replay folds the public events in order through the umh rules they carry:

- VIT (umh 9.1.1): every target's VIT starts at its sheet's (``combat.started``,
  ``combatant.joined``) or at what he carries from his last combat (umh 4.1.7); every
  ``action.resolved`` result must start from the VIT the replay holds (a hit applied twice
  or lost shows here first), its damage steps must chain (each step starts where the
  previous one ended) and the hit leaves ``max(0, before - damage)``;
- PA (umh 3.1.1 / 3.1.2): ``round.started`` gives everyone the round's PA; an action or a
  defense pays its ``pa_spent``, from the lone fighter's bucket of the turn first (A-15);
  ``refunds`` of a resolved hit give PA back;
- the turn, the round, the phase, the fallen (``combatant.down``), the open defense windows
  and the result (``combat.ended``).

:func:`compare` then lists every field where the combat the API serves differs from the
replay. A replay that cannot be made (an event the rules forbid at that point) is itself a
mismatch.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]
PA_PER_ROUND = 10
"""umh 3.1.1 / A-16: the community setting's default (the chaos communities keep it)."""


@dataclass
class Fighter:
    vit: int
    vit_max: int
    pa: int = PA_PER_ROUND
    bonus: int = 0
    status: str = "active"


@dataclass
class Replayed:
    fighters: dict[str, Fighter] = field(default_factory=dict)
    round: int = 0
    phase: str = "preparation"
    actor: str | None = None
    open_windows: set[tuple[str, str]] = field(default_factory=set)
    result: JSON | None = None
    faults: list[str] = field(default_factory=list)


def _join(state: Replayed, sheets: JSON, carried: JSON) -> None:
    """Everyone enters at his sheet's VIT, or the VIT he carries from his last combat (umh
    4.1.7: ``carried`` of ``combat.started``, ``carries`` of ``combatant.joined``)."""
    for name, sheet in sheets.items():
        vit_max = int(sheet["stats"]["vit"])
        kept = (carried.get(name) or {}).get("vit")
        vit = min(vit_max, int(kept)) if kept is not None else vit_max
        state.fighters[name] = Fighter(vit=vit, vit_max=vit_max)


def _spend(state: Replayed, who: str | None, cost: int, what: str) -> None:
    """umh 3.1.2 / A-15: pay from the turn's bucket first, never below zero."""
    fighter = state.fighters.get(who or "")
    if fighter is None or not cost:
        return
    from_bucket = min(fighter.bonus, cost)
    fighter.bonus -= from_bucket
    fighter.pa -= cost - from_bucket
    if fighter.pa < 0:
        state.faults.append(f"{who} paid {cost} PA for {what} with too little left")


def _resolved(state: Replayed, data: JSON) -> None:
    """umh 9.1.1: each target's hit starts at the VIT replayed so far; its damage steps chain
    (defense, resistance, reduction, floor) and end at the damage taken off the VIT."""
    for result in data.get("results") or []:
        target = result.get("target")
        fighter = state.fighters.get(target)
        if fighter is None or "vit_after" not in result:
            continue
        hit = f"{data.get('action_id')} hit {data.get('hit', 1)} on {target}"
        if result.get("vit_before") != fighter.vit:
            state.faults.append(
                f"{hit} starts at VIT {result.get('vit_before')}, not {fighter.vit}"
            )
        damage = int(result.get("damage") or 0)
        steps = [s for s in result.get("steps") or [] if s.get("step") != "vitality"]
        for before, after in itertools.pairwise(steps):
            if before.get("after") != after.get("before"):
                state.faults.append(f"{hit}: step {after.get('step')} does not chain")
        if steps and steps[-1].get("after") != damage:
            state.faults.append(
                f"{hit}: damage {damage}, its steps end at {steps[-1].get('after')}"
            )
        expected = max(0, fighter.vit - damage)
        if result["vit_after"] != expected:
            state.faults.append(f"{hit} leaves VIT {result['vit_after']}, rules say {expected}")
        fighter.vit = int(result["vit_after"])
    for who, amount in (data.get("refunds") or {}).items():
        if who in state.fighters:
            state.fighters[who].pa += int(amount)


def replay(events: list[JSON]) -> Replayed:
    """Fold the log in order (module docstring)."""
    state = Replayed()
    for event in events:
        kind, data = event["type"], event.get("data") or {}
        if kind == "combat.started":
            _join(state, data.get("sheets") or {}, data.get("carried") or {})
        elif kind == "combatant.joined":
            if data.get("sheet"):
                joiner = str(data.get("character"))
                _join(state, {joiner: data["sheet"]}, {joiner: data.get("carries") or {}})
        elif kind == "combat.phase_changed":
            state.phase = str(data.get("to"))
        elif kind == "round.started":
            state.round = int(data.get("round") or 0)
            for fighter in state.fighters.values():
                fighter.pa, fighter.bonus = PA_PER_ROUND, 0
        elif kind == "turn.started":
            state.actor = data.get("actor")
            starting = state.fighters.get(state.actor or "")
            if starting is not None:
                starting.bonus = int(data.get("pa_bonus") or 0)
        elif kind in ("turn.ended", "turn.timed_out"):
            ending = state.fighters.get(state.actor or "")
            if ending is not None:
                ending.bonus = 0
            state.actor = None if kind == "turn.ended" else state.actor
        elif kind == "action.declared":
            _spend(state, data.get("attacker"), int(data.get("pa_spent") or 0), "an action")
        elif kind == "reaction.requested":
            state.open_windows.add((str(data.get("action_id")), str(data.get("reactor"))))
        elif kind in ("reaction.answered", "reaction.timed_out"):
            if kind == "reaction.timed_out" or not data.get("answers_left"):  # umh 8.1.1.3
                window = (str(data.get("action_id")), str(data.get("reactor")))
                state.open_windows.discard(window)
            _spend(state, data.get("reactor"), int(data.get("pa_spent") or 0), "a defense")
        elif kind == "action.resolved":
            _resolved(state, data)
        elif kind == "combatant.down" and data.get("character") in state.fighters:
            state.fighters[data["character"]].status = "down"
        elif kind == "combat.ended":
            state.phase, state.actor = "ended", None
            state.open_windows.clear()
            state.result = {"winner": data.get("winner"), "reason": data.get("reason")}
    return state


def compare(state: Replayed, combat: JSON) -> list[str]:
    """Every field where the stored combat (GET /v1/combats/{id}) differs from the replay."""
    out = list(state.faults)
    if combat.get("phase") != state.phase:
        out.append(f"phase {combat.get('phase')} (replay {state.phase})")
    if state.round and combat.get("round") != state.round:
        out.append(f"round {combat.get('round')} (replay {state.round})")
    turn = combat.get("turn") or {}
    if state.phase == "fighting" and turn.get("actor") != state.actor:
        out.append(f"turn of {turn.get('actor')} (replay {state.actor})")
    pending = {
        (p.get("action_id"), p.get("reactor")) for p in combat.get("pending_reactions") or []
    }
    if pending != state.open_windows:
        out.append(f"open windows {sorted(pending)} (replay {sorted(state.open_windows)})")
    if state.result is not None and combat.get("result") != state.result:
        out.append(f"result {combat.get('result')} (replay {state.result})")
    stored = combat.get("participants") or {}
    for name, fighter in state.fighters.items():
        seen = stored.get(name)
        if seen is None:
            out.append(f"{name} missing from the stored combat")
            continue
        for key, value in (
            ("vit", fighter.vit),
            ("pa", fighter.pa),
            ("pa_bonus", fighter.bonus),
            ("status", fighter.status),
        ):
            if seen.get(key) != value:
                out.append(f"{name} {key} {seen.get(key)} (replay {value})")
    return out
