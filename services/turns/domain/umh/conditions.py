"""Crowd control and altered states as turns mirrors them (umh 11.4, 11.5): what they forbid.

services/resolution owns the effects; its ``effect.applied`` names what each one blocks
(``EffectApplied.blocks``) and turns refuses those actions with the rule's code. Checks in
the order: stun (11.4.1), paralysis (11.4.2), knockdown (11.5.2), immobilisation (11.5.1),
muteness (11.5.8), enamourment (11.5.10).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from services.turns.domain.umh.participant import Mirrored, Participant, SkillInfo
from shared.errors import RuleViolation
from shared.payloads import EffectApplied, EffectExpired

STUN: Final = "act"
PARALYSIS: Final = "act_unless_telepathic"
NO_MOVE: Final = "move"
NO_LEG_EVASION: Final = "evade_with_legs"
NO_SPEECH: Final = "speech"
KNOCKED_DOWN: Final = "stand_up"
ENAMORED_OF: Final = "attack:"


def mirror_applied(participant: Participant, payload: dict[str, Any]) -> EffectApplied:
    """``effect.applied``: keep the effect and what it blocks, by effect id."""
    applied = EffectApplied.model_validate(payload)
    participant.effects[applied.effect.effect_id] = Mirrored(applied.effect, tuple(applied.blocks))
    return applied


def mirror_expired(participant: Participant, payload: dict[str, Any]) -> bool:
    """``effect.expired``: forget the effect; False if it was not mirrored."""
    expired = EffectExpired.model_validate(payload)
    return participant.effects.pop(expired.effect_id, None) is not None


def stand_up(participant: Participant) -> list[str]:
    """umh 11.5.2 *Levantarse*: the knockdowns end; their effect ids."""
    ids = [eid for eid, e in participant.effects.items() if KNOCKED_DOWN in e.blocks]
    for eid in ids:
        del participant.effects[eid]
    return ids


def _refuse_control(blocks: set[str], telepathic: bool) -> None:
    if STUN in blocks:
        raise RuleViolation("stunned", "umh 11.4.1")
    if PARALYSIS in blocks and not telepathic:
        raise RuleViolation("paralyzed", "umh 11.4.2")


def check_skill(actor: Participant, skill: SkillInfo) -> None:
    """umh 11.4.1 / 11.4.2 / 11.5.8: may he use this skill in his turn at all?

    Immobilisation and its variant the knockdown (11.5.1, 11.5.2: "tiene el mismo
    efecto") forbid moving and the evasions that need the legs, not skills: a
    knocked-down player attacks, supports and teleports from the ground like an
    immobilised one (a teleport needs no displacement, 7.1.1.1).
    """
    blocks = actor.blocks()
    _refuse_control(blocks, skill.telepathic)
    if NO_SPEECH in blocks and skill.speech:
        raise RuleViolation("muted", "umh 11.5.8", skill=skill.name)


def check_targets(actor: Participant, skill: SkillInfo, targets: Iterable[str]) -> None:
    """umh 11.5.10 / A-44: an enamoured player cannot attack the one he loves."""
    if not skill.offensive:
        return
    loved = {b.removeprefix(ENAMORED_OF) for b in actor.blocks() if b.startswith(ENAMORED_OF)}
    for target in targets:
        if target in loved:
            raise RuleViolation("enamored", "umh 11.5.10", target=target)


def check_move(actor: Participant) -> None:
    """umh 11.4.1 / 11.4.2 / 11.5.2 / 11.5.1: crowd control and immobilisation stop moving."""
    blocks = actor.blocks()
    _refuse_control(blocks, telepathic=False)
    if KNOCKED_DOWN in blocks:
        raise RuleViolation("immobilized", "umh 11.5.2")
    if NO_MOVE in blocks:
        raise RuleViolation("immobilized", "umh 11.5.1")


def check_reaction(actor: Participant, skill: SkillInfo | None) -> None:
    """umh 11.4.1 / 11.4.2 / 11.5.1 / 11.5.2 / 11.5.8: taking the hit (or RESISTIR) is always
    allowed; a defensive skill is not while stunned or paralysed (unless telepathic), nor an
    evasion that needs the legs while immobilised or knocked down, nor a spoken one while
    mute."""
    if skill is None:
        return
    blocks = actor.blocks()
    _refuse_control(blocks, skill.telepathic)
    legs = skill.defense_kind == "evasion" and skill.needs_legs
    if legs and KNOCKED_DOWN in blocks:
        raise RuleViolation("immobilized", "umh 11.5.2", skill=skill.name)
    if legs and NO_LEG_EVASION in blocks:
        raise RuleViolation("immobilized", "umh 11.5.1", skill=skill.name)
    if NO_SPEECH in blocks and skill.speech:
        raise RuleViolation("muted", "umh 11.5.8", skill=skill.name)


def check_flight(actor: Participant, skill: SkillInfo | None) -> None:
    """umh 4.1.1.1 with 11.4 / 11.5.1 / 7.1.1.1: fleeing needs to move, unless the flight
    skill is a teleport (no active displacement)."""
    blocks = actor.blocks()
    _refuse_control(blocks, telepathic=bool(skill and skill.telepathic))
    if skill is not None:
        check_skill(actor, skill)
    if skill is not None and skill.teleport:
        return
    if KNOCKED_DOWN in blocks:
        raise RuleViolation("immobilized", "umh 11.5.2")
    if NO_MOVE in blocks:
        raise RuleViolation("immobilized", "umh 11.5.1")


def effects_view(participant: Participant) -> list[dict[str, Any]]:
    """The mirrored effects as docs/api.md shows them (with what each one blocks)."""
    return [
        {**e.effect.model_dump(mode="json"), "blocks": list(e.blocks)}
        for e in participant.effects.values()
    ]
