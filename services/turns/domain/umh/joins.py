"""Joining a running combat (umh 1.2.3 - 1.2.5, 1.2.4.1, 2.2.2 - 2.2.3, 1.3.4, 4.2.3).

``join`` checks, in order (the first failing one is raised):
1. ``cannot_rejoin_fled_combat`` for someone who fled it (4.2.3); ``duplicate_participant``
   for anyone already in it or already waiting to enter (1.2.1);
2. the snapshot of his sheet (``unknown_character``, ``ruleset_mismatch``,
   ``invalid_request``);
3. an entry skill (1.2.4.1): known (``unknown_skill``), an entry skill (``joins_combat``,
   else ``invalid_request``), weekly uses left (2.3.4.2);
4. the side's places (1.2.3, 1.2.5): an entry skill that raises them is the side's only
   one (``slot_boost_already_used``); ``side_full`` counts everyone who ever entered and
   every IRRUMPIR waiting for its veto window.
IRRUMPIR waits out a veto window (a pending join visible in the combat); LLAMADA DE
AUXILIO and entry skills enter at once and cannot be vetoed. The states gates (bans,
immunity, IRRUMPIR lock) were asked by the gateway before the command.
"""

from __future__ import annotations

from services.turns.domain.umh import terrain
from services.turns.domain.umh.events import JOIN_VETO_CAST, SLOTS_RAISED, TURN_ORDER_CHANGED
from services.turns.domain.umh.flow import fighters
from services.turns.domain.umh.order import with_late_joiner
from services.turns.domain.umh.participant import FLED, Side
from services.turns.domain.umh.reactions import declare_use
from services.turns.domain.umh.roster import new_participant, parse_sheet
from services.turns.domain.umh.state import CombatState, PendingJoin
from shared.carried import Carried
from shared.domain import ms
from shared.errors import RuleViolation
from shared.messages import COMBATANT_JOINED, JOIN_REQUESTED, JOIN_VETOED
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.payloads import ActOnCombat, CombatantJoined
from shared.rulesets.umh.actions import JoinAction, VetoJoinAction
from shared.rulesets.umh.sheet import UmhSheet
from shared.vocabulary import Phase


def check_newcomer(state: CombatState, joiner: str) -> None:
    """Step 1: nobody enters twice; who fled a combat never comes back to it (4.2.3)."""
    known = state.participants.get(joiner)
    if known is not None and known.status == FLED:
        raise RuleViolation("cannot_rejoin_fled_combat", "umh 4.2.3", character=joiner)
    if known is not None or joiner in state.pending_joins:
        raise RuleViolation("duplicate_participant", "umh 1.2.1", character=joiner)


def check_entry_skill(
    sheet: UmhSheet, action: JoinAction, cmd: ActOnCombat, state: CombatState, now_ms: int
) -> int:
    """Step 3: an entry skill other than IRRUMPIR (1.2.4.1); returns the places it adds."""
    if action.skill is None:
        return 0
    skill = sheet.skill(action.skill)
    if skill is None:
        raise RuleViolation("unknown_skill", "umh 1.2.4.1", skill=action.skill)
    if not skill.joins_combat:
        raise RuleViolation("invalid_request", "umh 1.2.4.1", skill=skill.name, reason="entry")
    used = {k.casefold(): v for k, v in cmd.weekly_uses.items()}.get(skill.name.casefold(), 0)
    if skill.uses_per_week is not None and used >= skill.uses_per_week:
        raise RuleViolation("on_cooldown", "umh 2.3.4.2", skill=skill.name, used_this_week=used)
    return skill.raises_slots


def check_places(state: CombatState, side: Side, raises: int) -> None:
    """Step 4: umh 1.2.3 / 1.2.5 / A-12: a free place on the side (spent for good)."""
    if raises and side in state.slot_boosts:
        raise RuleViolation("slot_boost_already_used", "umh 1.2.3", side=side)
    capacity = state.capacity(side) + (raises if raises else 0)
    if state.slots_used(side) >= capacity:
        raise RuleViolation("side_full", "umh 1.2.3", side=side, max=capacity)


def check_square(state: CombatState, square: tuple[int, int] | None) -> None:
    """umh 11.6.1: a joiner enters on a free square (no fighter, no obstacle of the room or
    kept on the terrain, inside the room), in a combat played on a grid."""
    if square is None:
        return
    if not state.positions:
        raise RuleViolation("invalid_target", "umh 2.3.2.1", reason="this combat has no grid")
    taken = [c for c, sq in state.positions.items() if tuple(sq) == tuple(square)]
    if taken:
        raise RuleViolation("invalid_target", "umh 11.6.1", square=square, occupied_by=taken[0])
    terrain.check_free(state, square)


def join(state: CombatState, out: Outcome, cmd: ActOnCombat, now_ms: int) -> None:
    """IRRUMPIR / LLAMADA DE AUXILIO / an entry skill (see the module docstring)."""
    action = cmd.action
    assert isinstance(action, JoinAction)
    check_newcomer(state, action.actor)
    sheet = parse_sheet(action.actor, cmd.sheet)
    raises = check_entry_skill(sheet, action, cmd, state, now_ms)
    check_places(state, action.side, raises)
    check_square(state, action.square)
    if raises:
        state.slot_boosts[action.side] = raises
        out.emit(SLOTS_RAISED, {"side": action.side, "by": action.actor, "slots": raises})
    state.join_seq += 1
    via = "skill" if action.skill else action.via
    entry = sheet.skill(action.skill) if action.skill else None
    pending = PendingJoin(
        side=action.side,
        via=via,
        sheet=dict(cmd.sheet or {}),
        requested_at_ms=now_ms,
        seq=state.join_seq,
        deadline_ms=now_ms + ms(state.settings.join_veto_seconds),
        timer_id=None,
        weekly_uses=dict(cmd.weekly_uses),
        carried=cmd.carried.model_dump(mode="json") if cmd.carried else None,
        skill=entry.name if entry else None,
        square=list(action.square) if action.square else None,
    )
    if via != "irrumpir" or not state.active_members(action.side):
        enter(state, out, action.actor, pending, now_ms)
        if entry is not None:
            weekly = entry.uses_per_week
            declare_use(out, cmd.action_id, action.actor, entry.name, state.round, weekly)
        return
    data = {"joiner": action.actor}
    pending.timer_id = arm_timer(state, out, "join", pending.deadline_ms, data)
    state.pending_joins[action.actor] = pending
    out.emit(
        JOIN_REQUESTED,
        {
            "joiner": action.actor,
            "side": action.side,
            "via": via,
            "deadline_ms": pending.deadline_ms,
            "vetoes_needed": vetoes_needed(state, action.side),
        },
    )


def vetoes_needed(state: CombatState, side: str) -> int:
    """umh 1.2.4.1 / A-59: strictly more than half of the side's active members."""
    return len(state.active_members(side)) // 2 + 1


def enter(state: CombatState, out: Outcome, joiner: str, pending: PendingJoin, now_ms: int) -> None:
    """umh 1.2.5 / 2.2.2 / 2.2.3 / 1.3.4: he is in; his place is spent for good. In the
    fight he plays at the end of this round (by speed, ties by join time) and had no
    preparation round; from the next round he is ordered like everyone (2.2.5)."""
    sheet = parse_sheet(joiner, pending.sheet)
    player = new_participant(
        sheet,
        pending.sheet,
        pending.side,
        100 + pending.seq,
        state.settings,
        now_ms,
        pending.weekly_uses,
    )
    player.joined_at_ms = pending.requested_at_ms
    player.joined_round = state.round
    player.via = pending.via
    player.late = state.phase == Phase.FIGHTING
    state.participants[joiner] = player
    state.sides[pending.side].append(joiner)
    state.heights[joiner] = sheet.position.value
    if pending.square is not None and state.positions:
        taken = [c for c, sq in state.positions.items() if list(sq) == pending.square]
        if not taken:  # a square taken during an IRRUMPIR's veto window: he enters off-grid
            state.positions[joiner] = list(pending.square)
    if state.phase == Phase.FIGHTING:
        newcomers = [
            f
            for f in fighters(state)
            if state.participants[f.id].late
            and state.participants[f.id].joined_round == state.round
            and state.participants[f.id].own_turns == 0
        ]
        state.turn_order = with_late_joiner(
            state.turn_order, state.turn_index, newcomers, state.initiator
        )
    joined = CombatantJoined(
        combat_id=state.id,
        ruleset=state.ruleset,
        character=joiner,
        side=pending.side,
        via=pending.via,  # type: ignore[arg-type]
        skill=pending.skill,
        joined_at_ms=pending.requested_at_ms,
        sheet=pending.sheet,
        square=_square(state.positions.get(joiner)),
        carries=Carried.model_validate(pending.carried) if pending.carried else None,
    )
    out.emit(COMBATANT_JOINED, joined.model_dump(mode="json"))
    if state.phase == Phase.FIGHTING:
        out.emit(TURN_ORDER_CHANGED, {"round": state.round, "turn_order": list(state.turn_order)})


def veto(state: CombatState, out: Outcome, action: VetoJoinAction) -> None:
    """umh 1.2.4.1 / A-59: a member of the side votes against an IRRUMPIR in its window.

    Order: a pending IRRUMPIR of ``joiner`` (an entry by another way cannot be denied:
    ``deny_not_allowed``; a window already over: ``wrong_phase``; nobody: ``not_in_combat``);
    the voter is an active member of that side (``deny_not_allowed``); one vote each
    (``already_reacted``). A majority denies the entry at once.
    """
    pending = state.pending_joins.get(action.joiner)
    if pending is None:
        entered = state.participants.get(action.joiner)
        if entered is None:
            raise RuleViolation("not_in_combat", "umh 1.2.4.1", character=action.joiner)
        if entered.via in (None, "irrumpir"):
            raise RuleViolation("wrong_phase", "umh 1.2.4.1", reason="no veto window open")
        raise RuleViolation("deny_not_allowed", "umh 1.2.4.1", via=entered.via)
    if action.actor not in state.active_members(pending.side):
        raise RuleViolation("deny_not_allowed", "umh 1.2.4.1", reason="not a member of the side")
    if action.actor in pending.vetoes:
        raise RuleViolation("already_reacted", "umh 1.2.4.1")
    pending.vetoes.append(action.actor)
    members = state.active_members(pending.side)
    votes = [v for v in pending.vetoes if v in members]
    out.emit(JOIN_VETO_CAST, {"joiner": action.joiner, "by": action.actor, "vetoes": len(votes)})
    if len(votes) >= vetoes_needed(state, pending.side):
        cancel_timer(state, out, pending.timer_id)
        del state.pending_joins[action.joiner]
        out.emit(
            JOIN_VETOED,
            {"joiner": action.joiner, "side": pending.side, "vetoes": votes, "rule": "umh 1.2.4.1"},
        )


def window_over(state: CombatState, out: Outcome, joiner: str, now_ms: int) -> bool:
    """umh 1.2.4.1: the veto window closed without a majority: the IRRUMPIR enters."""
    pending = state.pending_joins.pop(joiner, None)
    if pending is None:
        return False
    enter(state, out, joiner, pending, now_ms)
    return True


def _square(square: list[int] | None) -> tuple[int, int] | None:
    return (square[0], square[1]) if square else None
