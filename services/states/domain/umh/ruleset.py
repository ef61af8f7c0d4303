"""The umh ruleset of services/states (seed 000): what outlives a combat for a character.

The boundary: payloads are validated here (pydantic) and turned into the domain's
dataclasses; the rules themselves live in :mod:`services.states.domain`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from services.states.domain.umh import gates
from services.states.domain.umh.aftermath import (
    CombatEntered,
    CombatOutcome,
    end_combat,
    enter_combat,
)
from services.states.domain.umh.carried import CarriedAdjustment, adjust_carried, keep, kept_of
from services.states.domain.umh.expiry import on_timer
from services.states.domain.umh.facts import AftermathConfig
from services.states.domain.umh.flight import Flight, flee
from services.states.domain.umh.history import timer_requests
from services.states.domain.umh.in_combat import Declared, on_declared, on_state_received
from services.states.domain.umh.moderation import Adjustment, adjust
from services.states.domain.umh.post_combat import PostCombatRequest, apply_post_combat
from services.states.domain.umh.record import CharacterRecord, Participant, Theft
from services.states.domain.umh.requirements import claim
from services.states.domain.umh.sheets import facts_of, roster_of
from services.states.domain.umh.status import read_model
from services.states.domain.umh.thefts import record_theft
from services.states.interface import Context, State
from shared.aftermath_commands import AdjustStatus, ApplyPostCombat, ClaimRequirement
from shared.carried import ItemStolen
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import (
    ACTION_DECLARED,
    CMD_MODERATE,
    CMD_POST_COMBAT,
    CMD_REQUIREMENT,
    COMBAT_ENDED,
    COMBAT_STARTED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    CONDITION_CARRIED,
    EFFECT_APPLIED,
    ITEM_STOLEN,
)
from shared.outcome import Outcome
from shared.payloads import (
    ActionDeclared,
    CombatantFled,
    CombatantJoined,
    CombatEnded,
    EffectApplied,
    StatesCheck,
    StatesChecked,
)

Change = Callable[[CharacterRecord, Outcome], CharacterRecord | None]


def side_of(character: str, sides: Mapping[str, list[str]]) -> str | None:
    """The side (``attackers`` / ``defenders``) that lists ``character``, if any."""
    return next((side for side, members in sides.items() if character in members), None)


def combat_started(
    character: str, payload: Mapping[str, Any], ctx: Context
) -> CombatEntered | None:
    """``combat.started`` as seen by ``character`` (None: not his): the sheets and settings
    the combat took (docs/DESIGN.md: a snapshot at the start)."""
    sides: Mapping[str, list[str]] = payload["sides"]
    side = side_of(character, sides)
    if side is None:
        return None
    if "combat_id" not in payload:
        raise ValueError("combat.started payload has no combat_id")
    initiator = payload.get("initiator") == character
    opponents = [c for s, members in sides.items() if s != side for c in members]
    opening = payload.get("opening") or {}
    return CombatEntered(
        combat_id=payload["combat_id"],
        side=side,
        at_ms=int(payload.get("started_at_ms", ctx.occurred_ms)),
        kind="combat_started",
        room=str(payload.get("room") or ctx.room),
        roster=roster_of(payload.get("sheets") or {}),
        config=AftermathConfig.from_settings(payload.get("settings") or {}),
        initiator=initiator,
        challenge=opening.get("kind") == "challenge",
        opponents=tuple(opponents),
    )


def combatant_joined(
    character: str, payload: Mapping[str, Any], ctx: Context
) -> CombatEntered | None:
    """``combatant.joined`` as seen by the joiner (umh 1.2.4): his sheet, the record's settings."""
    joined = CombatantJoined.model_validate(payload)
    if joined.character != character:
        return None
    facts = facts_of(joined.sheet)
    return CombatEntered(
        combat_id=joined.combat_id,
        side=joined.side,
        at_ms=joined.joined_at_ms,
        kind="combatant_joined",
        room=ctx.room,
        roster={character: facts} if facts else {},
    )


def combat_outcome(payload: Mapping[str, Any], ctx: Context) -> CombatOutcome:
    """Validate ``combat.ended`` at the boundary and take its domain form."""
    msg = CombatEnded.model_validate(payload)
    return CombatOutcome(
        combat_id=msg.combat_id,
        winner=msg.winner,
        reason=msg.reason,
        participants={
            cid: Participant(p.side, p.status, p.reached_zero_vit, p.rank, p.alliance)
            for cid, p in msg.participants.items()
        },
        ended_at_ms=msg.ended_at_ms,
        room=msg.room or ctx.room,
        annul_reason=msg.annul_reason,
    )


def event_change(
    character: str, event_type: str, payload: Mapping[str, Any], ctx: Context
) -> Change | None:
    """The domain function an event calls for this character (None: not his concern)."""
    if event_type in (COMBAT_STARTED, COMBATANT_JOINED):
        reader = combat_started if event_type == COMBAT_STARTED else combatant_joined
        entered = reader(character, payload, ctx)
        return None if entered is None else (lambda r, out: enter_combat(r, entered, out))
    if event_type == COMBAT_ENDED:
        ended = combat_outcome(payload, ctx)
        return lambda r, out: end_combat(r, ended, out)
    if event_type == CONDITION_CARRIED:
        kept = kept_of(character, payload)
        if kept is None:
            return None

        def carry(r: CharacterRecord, out: Outcome) -> CharacterRecord | None:
            ended = r.ended_combat(kept.combat_id)
            config = ended.config if ended else r.config
            return keep(r, kept, out, recovery_ms=config.carried_vit_recovery_ms)

        return carry
    if event_type == ITEM_STOLEN:
        stolen = ItemStolen.model_validate(payload)
        if stolen.character != character:
            return None
        theft = Theft(stolen.target, stolen.item, stolen.skill, ctx.occurred_ms)
        return lambda r, _out: record_theft(r, ctx.combat_id, theft)
    if event_type == COMBATANT_FLED:
        fled = CombatantFled.model_validate(payload)
        if fled.character != character:
            return None
        flight = Flight(
            fled.combat_id,
            ctx.room,
            fled.skill,
            fled.flight_cooldown_hours,
            fled.profile,
            fled.fled_at_ms,
        )
        return lambda r, out: flee(r, out, flight, (r.open_combat(fled.combat_id) or r).config)
    if event_type == ACTION_DECLARED:
        action = ActionDeclared.model_validate(payload)
        if action.attacker != character:
            return None
        declared = Declared(
            ctx.combat_id, action.skill, action.offensive, action.weekly_limit, ctx.occurred_ms
        )
        return lambda r, out: on_declared(r, declared, out)
    if event_type == EFFECT_APPLIED:
        effect = EffectApplied.model_validate(payload)
        if effect.character != character:
            return None
        return lambda r, _out: on_state_received(r, effect.combat_id, effect.is_state)
    return None


def command_change(command_type: str, payload: Mapping[str, Any], ctx: Context) -> Change:
    """The domain function a gateway command calls on its character."""
    if command_type == CMD_POST_COMBAT:
        post = ApplyPostCombat.model_validate(payload)
        request = PostCombatRequest(
            post.combat_id,
            post.actor,
            post.skill,
            post.cell,
            facts_of(post.actor_sheet),
            ctx.now_ms,
        )
        return lambda r, out: apply_post_combat(r, out, request)
    if command_type == CMD_REQUIREMENT:
        asked = ClaimRequirement.model_validate(payload)
        fallback = roster_of(asked.sheets)
        return lambda r, out: claim(
            r,
            out,
            combat_id=asked.combat_id,
            kind=asked.kind,
            name=asked.name,
            fallback=fallback,
            at_ms=ctx.now_ms,
        )
    if command_type == CMD_MODERATE:
        moderation = AdjustStatus.model_validate(payload)
        if moderation.kind == "carried":
            carried = CarriedAdjustment(
                moderation.key,
                moderation.lift,
                moderation.vit,
                moderation.until_ms,
                moderation.reason,
                moderation.moderator,
                ctx.now_ms,
            )
            return lambda r, out: adjust_carried(r, out, carried)
        adjustment = Adjustment(
            moderation.kind,
            moderation.key,
            moderation.lift,
            moderation.until_ms,
            moderation.reason,
            moderation.moderator,
            ctx.now_ms,
        )
        return lambda r, out: adjust(r, out, adjustment)
    raise RuleViolation("not_implemented", None, command=command_type)


def decide(state: State | None, character: str, change: Change, ctx: Context) -> Decision[State]:
    """Run one change on the record (a new one for a character never seen)."""
    record = CharacterRecord.from_dict(state) if state else CharacterRecord(ctx.tenant, character)
    if record.tenant is None:
        record = replace(record, tenant=ctx.tenant)
    out = Outcome()
    changed = change(record, out)
    if changed is None or changed == record:
        return Decision(None)
    # keys the runtime keeps beside the record are carried over
    return out.decision({**(state or {}), **replace(changed, room=ctx.room).to_dict()})


class UmhAftermath:
    """:class:`services.states.interface.AftermathRuleset` for ``umh``."""

    name: str = "umh"

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        change = event_change(character, event_type, payload, ctx)
        return Decision(None) if change is None else decide(state, character, change, ctx)

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        change = command_change(command_type, payload, ctx)
        if state is None and command_type != CMD_MODERATE:
            raise RuleViolation("not_in_combat", None, character=character)
        return decide(state, character, change, ctx)

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        if state is None:
            return Decision(None)
        return decide(
            state, character, lambda r, out: on_timer(r, timer_id, out, now_ms=ctx.now_ms), ctx
        )

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        room: str,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        """``states.check`` (umh 1.1.1.2, 4.1.1.1.1, 4.2, 4.5): the gates before a start, a join
        or a flight."""
        records = {c: CharacterRecord.from_dict(s) if s else None for c, s in states.items()}
        return gates.check(records, query, room=room, ended_combats=ended_combats, now_ms=now_ms)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        return read_model(CharacterRecord.from_dict(state) if state else None, now_ms)

    def armed_timers(self, state: State) -> list[TimerRequest]:
        return timer_requests(CharacterRecord.from_dict(state))
