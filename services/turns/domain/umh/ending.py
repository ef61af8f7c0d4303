"""The end of a combat (umh 4.1.1, 4.3.3, 4.1.1.3, 2.3.3.1, 4.2.4) and its ``combat.ended``."""

from __future__ import annotations

from services.turns.domain.umh.participant import Side
from services.turns.domain.umh.state import SIDES, CombatState, Result, other_side
from shared.messages import COMBAT_ENDED, COMBAT_PHASE_CHANGED
from shared.outcome import Outcome, cancel_timer
from shared.payloads import CombatEnded, CombatEndedParticipant
from shared.vocabulary import EndReason, Phase, PublicStatus
from shared.vocabulary import Side as SideName


def beaten_sides(state: CombatState) -> list[Side]:
    """umh 4.1.1: the sides none of whose members can still fight (down, fled, or out after
    the disconnection grace, 4.3.3)."""
    return [side for side in SIDES if not state.fighting_members(side)]


def end_if_a_side_is_beaten(
    state: CombatState, out: Outcome, now_ms: int, reason: EndReason
) -> bool:
    """umh 4.1.1 / 4.1.1.1 / 4.1.1.2 / 4.3.3: a side with nobody left loses; ``reason`` is
    what took its last member out (``defeat``, ``fled``, ``disconnected``). Both sides at
    once: no winner. A hit already being resolved comes first (2.1.3: the last action ends
    after its defenses are resolved): the end waits for its ``action.resolved``, which checks
    again. True when the combat ended or waits to (nothing else moves meanwhile)."""
    if state.phase == Phase.ENDED:
        return True
    beaten = beaten_sides(state)
    if not beaten:
        state.end_reason = None  # a side joined while its end waited: the fight goes on
        return False
    if state.resolving():
        state.end_reason = state.end_reason or reason
        return True
    winner = other_side(beaten[0]) if len(beaten) == 1 else None
    end_combat(state, out, now_ms, winner, EndReason(state.end_reason or reason))
    return True


def end_if_agreed(state: CombatState, out: Outcome, now_ms: int) -> bool:
    """umh 4.1.1.3: once every active member of both sides offered the pact, the combat ends
    with no winner; a hit already being resolved comes first (2.1.3), whose
    ``action.resolved`` checks again. True when it ended."""
    everyone = state.active_members("attackers") + state.active_members("defenders")
    agreed = bool(state.pact_offers) and all(c in state.pact_offers for c in everyone)
    if not agreed or state.resolving() or state.phase == Phase.ENDED:
        return False
    end_combat(state, out, now_ms, None, EndReason.PACT)
    return True


def ended_participant(state: CombatState, character: str) -> CombatEndedParticipant:
    """A participant as services/states needs him (umh 4.1.4, 4.3.4, 4.4.4, 4.4.5)."""
    p = state.participants[character]
    stats = p.sheet.get("stats", {})
    rank = stats.get("rank")
    alliance = p.sheet.get("alliance")
    return CombatEndedParticipant(
        side=SideName(p.side),
        status=PublicStatus(p.status),
        reached_zero_vit=p.reached_zero_vit,
        rank=int(rank) if isinstance(rank, int) else None,
        alliance=str(alliance) if alliance else None,
    )


def end_combat(
    state: CombatState,
    out: Outcome,
    now_ms: int,
    winner: Side | None,
    reason: EndReason,
    annul_reason: str | None = None,
) -> None:
    """umh 4.1.1: the combat ends; every armed timer is cancelled, nothing stays pending
    (actions in flight, joins, pact offers, interference turns)."""
    previous = state.phase
    for timer_id in list(state.timers):
        cancel_timer(state, out, timer_id)
    state.phase = Phase.ENDED
    state.phase_deadline_ms = None
    state.result = Result(winner=winner, reason=reason, annul_reason=annul_reason)
    state.ended_at_ms = now_ms
    state.actions = {}
    state.turn = None
    state.pending_joins = {}
    state.pact_offers = []
    state.interference = None
    state.interference_queue = []
    out.emit(COMBAT_PHASE_CHANGED, {"from": previous, "to": Phase.ENDED})
    ended = CombatEnded(
        combat_id=state.id,
        ruleset=state.ruleset,
        winner=None if winner is None else SideName(winner),
        reason=reason,
        participants={cid: ended_participant(state, cid) for cid in state.participants},
        ended_at_ms=now_ms,
        room=state.room,
        annul_reason=annul_reason,
    )
    out.emit(COMBAT_ENDED, ended.model_dump(mode="json"))
