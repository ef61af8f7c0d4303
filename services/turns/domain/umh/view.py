"""The read model of docs/api.md "Fields", the fields services/turns owns.

Beyond docs/api.md: ``pending_joins`` (IRRUMPIR veto windows), ``pact_offers``, ``interference``,
``stalemate_rounds``, ``slot_boosts``, ``timers`` (every clock with its deadline), and per
participant his position, PA bucket, per-round and per-combat counters, cooldowns (rounds
left), mirrored effects and what they block, his disconnection grace, and ``stats``: the
VEL, REF, VOL and FUE the combat reads now (umh 11.5.4 - 11.5.5: FUE halved by an arm).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import again, terrain
from services.turns.domain.umh.conditions import effects_view
from services.turns.domain.umh.inflight import Reaction
from services.turns.domain.umh.participant import Participant
from services.turns.domain.umh.state import SIDES, CombatState
from services.turns.domain.umh.stats import stats_view
from shared.domain import rfc3339
from shared.vocabulary import Phase


def slots_left(state: CombatState) -> dict[str, int]:
    """umh 1.2.3 / 1.2.5: places per side, spent for good by whoever entered (or waits)."""
    return {side: max(0, state.capacity(side) - state.slots_used(side)) for side in SIDES}


def turn_view(state: CombatState) -> dict[str, Any] | None:
    turn = state.turn
    if turn is None:
        return None
    paused = turn.paused_remaining_ms
    return {
        "index": state.turn_index,
        "actor": turn.actor,
        "deadline": rfc3339(turn.deadline_ms),
        "paused_remaining": paused / 1000 if paused is not None else None,
    }


def pending_reactions(state: CombatState) -> list[dict[str, Any]]:
    """umh 2.4.2 / 8.2.2.4 / 8.2.5.2: the open windows, in declaration order, with their hit;
    the window of a reflected hit's new target names the reflector (``reflected_by``); a
    window against a skill reactable several times, the answers it still takes (8.1.1.3)."""
    pending: list[dict[str, Any]] = []
    for action_id, action in state.actions.items():
        windows: list[tuple[str, Reaction, str | None]] = [
            (r, w, None) for r, w in action.reactions.items()
        ]
        windows += [(action.attacker, w, a) for a, w in action.answers.items()]
        for reactor, window, anticipator in windows:
            if window.is_open:
                entry = {
                    "action_id": action_id,
                    "reactor": reactor,
                    "attacker": action.attacker,
                    "skill": action.skill,
                    "deadline": rfc3339(window.deadline_ms),
                    "hit": action.hit,
                    "hits": action.hits,
                    "anticipation_by": anticipator,
                }
                if window.reflected_by is not None:
                    entry["reflected_by"] = window.reflected_by
                if anticipator is None and again.times(state, action) > 1:  # umh 8.1.1.3
                    entry["answers_left"] = again.times(state, action) - window.given
                pending.append(entry)
    return pending


def by_name(p: Participant, counters: dict[str, int]) -> dict[str, int]:
    """Counters keyed by skill key, shown by the sheet's skill name."""
    return {p.skill_name(k): v for k, v in counters.items()}


def participant_view(state: CombatState, cid: str, p: Participant) -> dict[str, Any]:
    square = state.positions.get(cid)
    cooldowns = {k: max(0, ready - state.round) for k, ready in p.cooldowns.items()}
    return {
        "side": p.side,
        "status": p.status,
        "pa": p.pa_available,
        "pa_bonus": p.bonus_pa,
        "movement_left": p.movement_left,
        "stats": stats_view(p, state.settings.readings.stat_below_one),
        "cooldowns": by_name(p, cooldowns),
        "uses": dict(p.uses),
        "uses_this_combat": by_name(p, p.reaction_uses),
        "uses_this_round": by_name(p, p.used_round),
        "weekly_uses": by_name(p, p.weekly_uses),
        "offensive_1pa_this_round": p.offensive_1pa,
        "zero_pa_actions_this_turn": p.zero_pa_actions,
        "position": {
            "square": list(square) if square else None,
            "height": state.heights.get(cid, "suelo"),
        },
        "effects": effects_view(p),
        "blocks": sorted(p.blocks()),
        "joined": {"via": p.via, "at": rfc3339(p.joined_at_ms), "late": p.late} if p.via else None,
        "ready": p.ready,
        "disconnected": {
            "since": rfc3339(p.disconnected_at_ms),
            "deadline": rfc3339(p.grace_deadline_ms),
            "out": p.grace_over,
        }
        if p.disconnected_at_ms is not None
        else None,
    }


def extras(state: CombatState) -> dict[str, Any]:
    """Joins, pact, interference, stalemate, slots and clocks (see the module docstring)."""
    turn = state.interference
    return {
        "pending_joins": [
            {
                "joiner": joiner,
                "side": j.side,
                "via": j.via,
                "deadline": rfc3339(j.deadline_ms),
                "vetoes": list(j.vetoes),
                "vetoes_needed": len(state.active_members(j.side)) // 2 + 1,
            }
            for joiner, j in state.pending_joins.items()
        ],
        "pact_offers": list(state.pact_offers),
        "interference": {
            "holder": turn.holder,
            "kind": turn.kind,
            "skill": turn.skill,
            "deadline": rfc3339(turn.deadline_ms),
        }
        if turn
        else None,
        "stalemate_rounds": state.stalemate_rounds,
        "terrain": state.terrain,
        "terrain_effects": terrain.view(state),
        "slot_boosts": dict(state.slot_boosts),
        "timers": sorted(
            (
                {"kind": t.kind, "deadline": rfc3339(t.due_ms), **t.data}
                for t in state.timers.values()
            ),
            key=lambda t: (str(t["deadline"]), str(t["kind"])),
        ),
    }


def result_view(state: CombatState) -> dict[str, Any] | None:
    """umh 4.1.1: the winning side (or none) and why; an annulment also says its reason."""
    if state.result is None:
        return None
    result: dict[str, Any] = {"winner": state.result.winner, "reason": state.result.reason}
    if state.result.annul_reason is not None:
        result["annul_reason"] = state.result.annul_reason
    return result


def view(state_dict: dict[str, Any]) -> dict[str, Any]:
    """docs/api.md "Fields": everything but ``version`` and the condition owned by resolution."""
    state = CombatState.from_dict(state_dict)
    return {
        "id": state.id,
        "tenant": state.tenant,
        "room": state.room,
        "ruleset": state.ruleset,
        "phase": state.phase,
        "round": state.round,
        "sides": {side: list(members) for side, members in state.sides.items()},
        "slots_left": slots_left(state),
        "turn_order": list(state.turn_order),
        "turn": turn_view(state),
        "pending_reactions": pending_reactions(state),
        "participants": {
            cid: participant_view(state, cid, p) for cid, p in state.participants.items()
        },
        "result": result_view(state),
        "created_at": rfc3339(state.created_at_ms),
        "ended_at": rfc3339(state.ended_at_ms),
        "phase_deadline": rfc3339(state.phase_deadline_ms),
        **extras(state),
    }


def is_active(state_dict: dict[str, Any]) -> bool:
    """False once the combat has ended (umh 4.1.1)."""
    return bool(state_dict["phase"] != Phase.ENDED)


def armed_timers(state_dict: dict[str, Any]) -> dict[str, int]:
    """Every timer the state expects to be armed, id -> due (Unix ms), for the reconciler."""
    return {tid: int(t["due_ms"]) for tid, t in state_dict["timers"].items()}
