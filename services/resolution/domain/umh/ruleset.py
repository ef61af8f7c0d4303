"""The umh ruleset of services/resolution (seed 000): condition and damage of each hit.

The boundary: payloads are validated with the shared models and turned into the domain's
dataclasses; the domain answers with events whose payloads were built through the models.
"""

from __future__ import annotations

from typing import Any

from services.resolution.domain.umh.carried import carried_at_start, carry_in, condition_carried
from services.resolution.domain.umh.condition import (
    CombatCondition,
    condition_at_start,
    entering_combatant,
)
from services.resolution.domain.umh.effects import view_of
from services.resolution.domain.umh.hit import Reaction
from services.resolution.domain.umh.readings import from_settings
from services.resolution.domain.umh.released import release_on_flight
from services.resolution.domain.umh.resolve import ActionRequest, resolve_action
from services.resolution.domain.umh.terrain import hazards_hit
from services.resolution.domain.umh.ticks import (
    STAND_UP,
    general_action,
    stand_up,
    turn_ended,
    turn_started,
)
from services.resolution.interface import State
from shared.domain import Decision
from shared.messages import (
    ACTION_DECLARED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    RESOLUTION_REQUESTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from shared.payloads import (
    ActionDeclared,
    CombatantFled,
    CombatantJoined,
    ReactionChoice,
    ResolutionRequested,
    TurnEnded,
)
from shared.rulesets.umh.settings import UmhSettings
from shared.settings import settings_from_message
from shared.vocabulary import EffectKind


def _reaction(choice: ReactionChoice) -> Reaction:
    return Reaction(
        skill=choice.skill,
        resist=choice.resist,
        timed_out=choice.timed_out,
        to=choice.to,
        redirect_to=choice.redirect_to,
        more=tuple(_reaction(answer) for answer in choice.more or ()),
    )


def action_request(payload: dict[str, Any]) -> ActionRequest:
    """Validate ``resolution.requested`` at the boundary and take its domain form."""
    msg = ResolutionRequested.model_validate(payload)
    return ActionRequest(
        action_id=msg.action_id,
        attacker=msg.attacker,
        skill=msg.skill,
        targets=tuple(msg.targets),
        reactions={target: _reaction(choice) for target, choice in msg.reactions.items()},
        round=msg.round,
        hit=msg.hit,
        hits=msg.hits,
        squares=tuple(msg.squares),
        positions=dict(msg.positions),
        anticipation_answers={
            who: _reaction(choice) for who, choice in msg.anticipation_answers.items()
        },
        interference=msg.interference,
        weapons=tuple(msg.weapons),
        movement_left=dict(msg.movement_left),
        weapon_effects=msg.weapon_effects,
        room=msg.terrain.size if msg.terrain else None,
        obstacles=frozenset(msg.terrain.obstacles) if msg.terrain else frozenset(),
        terrain_defenses=dict(msg.terrain_defenses),
    )


class UmhResolution:
    """:class:`services.resolution.interface.ResolutionRuleset` for ``umh``."""

    name: str = "umh"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        """umh 1.2.1 / 4.1.7: every participant enters with his sheet's snapshot, at full VIT
        or with the VIT and effects he carries from his last combat; the combat keeps its
        community's readings of docs/rules.md 6.1 (the settings' snapshot)."""
        settings = settings_from_message(payload.get("settings"))
        condition = condition_at_start(
            payload, from_settings(settings.ruleset("umh", UmhSettings).readings)
        )
        condition, events = carried_at_start(condition, payload)
        return Decision(condition.to_dict(), events)

    def on_combat_ended(self, state: State, payload: dict[str, Any]) -> list[Event]:
        """umh 4.1.7: what each participant keeps (``condition.carried``, for states)."""
        return condition_carried(CombatCondition.from_dict(state), payload)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """Route one input; keys the runtime keeps beside the condition (``ended``) stay.

        ``resolution.requested`` resolves a hit once; ``action.declared`` counts a general
        action (A-26; not reactions, nor interference turns, 2.5.2); ``turn.started`` arms
        indirect damage (11.3.3) and hurts its actor with the hazards kept on the terrain he
        starts on (4.1.5.1); ``turn.ended`` applies regenerations (2.3.6);
        ``combatant.joined`` adds the joiner at full VIT or what he carries (1.2.4, 4.1.7);
        a declared *Levantarse* ends a knockdown (11.5.2); ``combatant.fled`` ends what the
        fugitive keeps up, on himself and on others (4.1.1.1, 4.1.5, A-91). Each applies the
        combat's own readings (its condition's).
        """
        condition = CombatCondition.from_dict(state)
        if event_type == RESOLUTION_REQUESTED:
            request = action_request(payload)
            if condition.has_resolved(request.action_id, request.hit):
                return Decision(None)
            new, events = resolve_action(condition, request)
        elif event_type == ACTION_DECLARED:
            declared = ActionDeclared.model_validate(payload)
            if declared.skill.casefold() in STAND_UP:
                new, events = stand_up(condition, declared.attacker)
            elif not declared.general_action or declared.interference:
                return Decision(None)
            else:
                new, events = general_action(condition)
        elif event_type == TURN_STARTED:
            actor = str(payload.get("actor", ""))
            new, events = turn_started(condition, actor)
            new, hurt = hazards_hit(new, actor, payload.get("hazards") or [])
            events += hurt
        elif event_type == TURN_ENDED:
            new, events = turn_ended(condition, TurnEnded.model_validate(payload).actor), []
        elif event_type == COMBATANT_JOINED:
            joined = CombatantJoined.model_validate(payload)
            if joined.character in condition.participants:
                return Decision(None)
            combatant, events = carry_in(
                condition.combat_id,
                joined.character,
                entering_combatant(joined.side, joined.sheet),
                joined.carries,
            )
            new = condition.updated({joined.character: combatant})
        elif event_type == COMBATANT_FLED:
            fled = CombatantFled.model_validate(payload)
            released, events = release_on_flight(condition, fled.character)
            new = condition.updated(released)
        else:
            return Decision(None)
        changed = {**state, **new.to_dict()}
        if changed == state and not events:
            return Decision(None)  # nothing to commit: the combat version stays (If-Match)
        return Decision(changed, events)

    def view(self, state: State) -> dict[str, Any]:
        """The per-participant part of docs/api.md "Fields": vit, vit_max, effects, shield."""
        condition = CombatCondition.from_dict(state)
        participants: dict[str, Any] = {}
        for cid, c in condition.participants.items():
            row: dict[str, Any] = {
                "vit": c.vit,
                "vit_max": c.vit_max,
                "effects": [view_of(e).model_dump(mode="json") for e in c.effects],
            }
            shield = sum(e.amount_int for e in c.effects_of(EffectKind.SHIELD))
            if shield:
                row["mental_shield"] = shield
            if c.cc_immune:
                row["cc_immune"] = True
            participants[cid] = row
        return {"participants": participants}
