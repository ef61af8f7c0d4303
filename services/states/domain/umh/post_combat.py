"""Post-combat effects a winner applies to a defeated rival (umh 4.1.2, 4.1.3, 4.3.1, 4.5.1).

The command lands on the target's record, which keeps what it needs of the combat: how it
ended, everyone's side and fate, and the snapshot of the sheets it knew.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from services.states.domain.umh.facts import PostCombatFacts, SheetFacts
from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.imprisonment import imprison, imprison_refusal
from services.states.domain.umh.record import (
    AppliedEffect,
    CharacterRecord,
    EndedCombat,
    PostCombatState,
)
from services.states.domain.umh.vigor import VigorCost, lose_vigor
from shared.domain import rfc3339
from shared.errors import RuleViolation
from shared.outcome import Outcome

CELL = "cell"
"""The name an imprisonment by the actor's cell (not a skill) is recorded under (4.5.1)."""


@dataclass(frozen=True)
class PostCombatRequest:
    """The domain form of ``aftermath.post_combat``."""

    combat_id: str
    actor: str
    skill: str | None
    cell: bool
    actor_fallback: SheetFacts | None
    at_ms: int


def winner_refusal(combat: EndedCombat, actor: str, target: str) -> RuleViolation | None:
    """umh 4.1.3 (A-55, A-90): only a winner who neither fled nor fell, on a defeated rival.

    Order: a combat without winner (pact, annulment) grants nothing; the actor must be a
    participant of the winning side whose VIT never reached 0, who did not flee and was not
    disconnected (4.3.4: he falls); the target must be on the losing side.
    """
    rule = "umh 4.1.3"
    if combat.winner is None:
        return RuleViolation("not_eligible_for_postcombat", rule, reason="no_winner")
    me = combat.participants.get(actor)
    if me is None:
        return RuleViolation("not_in_combat", None, character=actor)
    if me.side != combat.winner:
        return RuleViolation("not_eligible_for_postcombat", rule, reason="not_a_winner")
    if me.reached_zero_vit or me.status in ("down", "fled", "disconnected"):
        reason = "reached_zero_vit" if me.reached_zero_vit else me.status
        return RuleViolation("not_eligible_for_postcombat", rule, reason=reason)
    if combat.participants[target].side == combat.winner:
        return RuleViolation("not_eligible_for_postcombat", rule, reason="target_not_defeated")
    return None


def overlaps(effect: PostCombatFacts, earlier: AppliedEffect) -> bool:
    """umh 4.1.2: two effects overlap when they do the same thing (vigor, prison, one state)."""
    if effect.kind != earlier.kind:
        return False
    return effect.kind != "state" or effect.state == earlier.state


def stack_refusal(
    effect: PostCombatFacts, applied: Iterable[AppliedEffect]
) -> RuleViolation | None:
    """umh 4.1.2 (A-71): per defeated rival and combat, one effect of each kind; a skill that
    allows stacking may add to an overlapping one (never a second imprisonment). Effects of
    other kinds do not overlap and are allowed."""
    for earlier in applied:
        if overlaps(effect, earlier) and (effect.kind == "imprison" or not effect.stacks):
            return RuleViolation(
                "postcombat_effect_stack", "umh 4.1.2", kind=effect.kind, applied_by=earlier.by
            )
    return None


def chosen_effect(combat: EndedCombat, request: PostCombatRequest) -> tuple[str, PostCombatFacts]:
    """The effect asked for: the actor's post-combat skill, or his cell (imprison, 4.5.1)."""
    facts = combat.facts_of(request.actor) or request.actor_fallback
    if request.cell:
        if facts is None or not facts.cell:
            raise RuleViolation("imprison_not_eligible", "umh 4.5.1", reason="no_cell")
        return CELL, PostCombatFacts(kind="imprison")
    found = facts.post_combat_skill(request.skill or "") if facts else None
    if found is None:
        raise RuleViolation(
            "not_eligible_for_postcombat",
            "umh 4.1.2",
            reason="no_post_combat_skill",
            skill=request.skill,
        )
    return found


def apply_post_combat(
    record: CharacterRecord, out: Outcome, request: PostCombatRequest
) -> CharacterRecord:
    """umh 4.1.2 - 4.1.3, 4.5.1, 2.3.3.1.1: one post-combat effect on this (defeated) character.

    Order: the combat must have ended for him (``wrong_phase`` while it runs,
    ``not_in_combat`` if he was not in it); after a stalemate nothing applies (2.3.3.1.1);
    :func:`winner_refusal`; the effect (:func:`chosen_effect`); imprisonment's conditions
    (4.5.1); :func:`stack_refusal`. Then it applies, counted from the end (4.3.1).
    """
    combat = record.ended_combat(request.combat_id)
    if combat is None:
        if record.open_combat(request.combat_id) is not None:
            raise RuleViolation("wrong_phase", "umh 4.1.3", combat_id=request.combat_id)
        raise RuleViolation("not_in_combat", None, character=record.character)
    if combat.reason == "stalemate":
        raise RuleViolation("no_effects_on_stalemate", "umh 2.3.3.1.1")
    refusal = winner_refusal(combat, request.actor, record.character)
    if refusal is not None:
        raise refusal
    skill, effect = chosen_effect(combat, request)
    if effect.kind == "imprison":
        refusal = imprison_refusal(record, owns_means=True)
        if refusal is not None:
            raise refusal
    refusal = stack_refusal(effect, combat.effects)
    if refusal is not None:
        raise refusal
    applied = AppliedEffect(effect.kind, skill, request.actor, effect.stacks, effect.state)
    record = record.with_ended(replace(combat, effects=(*combat.effects, applied)))
    return apply_effect(record, out, combat, request, skill, effect)


def apply_effect(
    record: CharacterRecord,
    out: Outcome,
    combat: EndedCombat,
    request: PostCombatRequest,
    skill: str,
    effect: PostCombatFacts,
) -> CharacterRecord:
    """The effect itself: vigor points removed, a post-combat state, or imprisonment."""
    if effect.kind == "imprison":
        return imprison(
            record,
            out,
            combat,
            by=request.actor,
            skill=skill,
            seconds=effect.seconds,
            at_ms=request.at_ms,
        )
    if effect.kind == "vigor":
        cost = VigorCost(effect.vigor, f"post_combat:{skill}", "umh 4.1.2")
        return lose_vigor(
            record,
            out,
            cost,
            at_ms=combat.ended_ms,
            combat_id=combat.combat_id,
            config=combat.config,
        )
    return add_state(record, out, combat, request, skill, effect)


def add_state(
    record: CharacterRecord,
    out: Outcome,
    combat: EndedCombat,
    request: PostCombatRequest,
    skill: str,
    effect: PostCombatFacts,
) -> CharacterRecord:
    """umh 4.3.1: a post-combat state, counted from the end even if posted later; one that
    names no duration lasts until a moderator lifts it (W11: the duration is the skill's)."""
    name = effect.state or skill
    previous = next((s for s in record.post_combat_states if s.state == name), None)
    disarm(out, previous.timed if previous else None)
    timed = None
    if effect.seconds is not None:
        record, timed = arm(
            record,
            out,
            kind="post_combat_state",
            since_ms=combat.ended_ms,
            until_ms=combat.ended_ms + effect.seconds * 1000,
            rule="umh 4.3.1",
            reason=f"post_combat:{skill}",
            combat_id=combat.combat_id,
            key=name,
        )
    held = PostCombatState(name, request.actor, combat.combat_id, skill, timed)
    others = tuple(s for s in record.post_combat_states if s.state != name)
    record = replace(record, post_combat_states=(*others, held))
    return note(
        record,
        out,
        at_ms=request.at_ms,
        change="post_combat_state",
        combat_id=combat.combat_id,
        rule="umh 4.1.3",
        reason="post_combat",
        state=name,
        by=request.actor,
        skill=skill,
        until=rfc3339(timed.until_ms) if timed else None,
    )
