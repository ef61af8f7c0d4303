"""The gates of services/states (``states.check``), asked before a combat starts, someone
joins or someone flees (umh 1.1.1.2, 4.2, 4.5). A refusal answers 422 and sends nothing on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gateway.commands import Sender
from gateway.dispatch import raise_if_rejected
from gateway.errors import ApiError
from shared.actions import Action
from shared.actions_base import FleeAction
from shared.messages import QUERY_STATES_CHECK, STATES_CHECKED, new_id
from shared.payloads import StatesCheck, StatesChecked
from shared.rulesets.umh.actions import JoinAction

SheetLoader = Callable[[str], Awaitable[dict[str, Any] | None]]
"""A character's stored sheet in the asking community, or ``None``."""


async def ask_states(
    client: Sender, *, tenant: str, room: str, query: StatesCheck
) -> StatesChecked:
    outcome = await client.send(
        QUERY_STATES_CHECK,
        query.model_dump(mode="json"),
        tenant=tenant,
        room=room,
        combat_id=query.combat_id,
        correlation_id=new_id("q"),
        message_id=new_id("m"),
    )
    raise_if_rejected(outcome)
    answers = [e for e in outcome.events if e.type == STATES_CHECKED]
    if not answers:
        # services/states did not answer in time: refuse rather than let a gate be skipped.
        raise ApiError("dependency_unavailable", status=503, details={"service": "states"})
    answer = StatesChecked.model_validate(answers[0].payload)
    if not answer.allowed and answer.refusals:
        first = answer.refusals[0]
        details = {
            "character": first.character,
            "refusals": [r.model_dump() for r in answer.refusals],
        }
        if first.until:
            details["until"] = first.until
        raise ApiError(first.code, rule=first.rule, details=details)
    return answer


async def gate_action(
    client: Sender, load_sheet: SheetLoader, tenant: str, combat: dict[str, Any], action: Action
) -> dict[str, Any]:
    """Joins and flights pass services/states' gates first (umh 4.2.3, 4.2.3.1, 4.1.1.1.1).

    A joiner's sheet is snapshotted here, as a combat's sheets are at its start. Returns the
    fields this adds to the ``combat.act`` command.
    """
    if isinstance(action, JoinAction):
        sheet = await load_sheet(action.actor)
        if sheet is None:
            raise ApiError("unknown_character", details={"character": action.actor})
        via = "skill" if action.skill else action.via
        gate = await ask_states(
            client,
            tenant=tenant,
            room=combat["room"],
            query=StatesCheck(
                purpose="join",
                ruleset=str(combat.get("ruleset", "umh")),
                combat_id=combat["id"],
                characters=[action.actor],
                via=via,
                skill=action.skill,
            ),
        )
        carried = gate.carried.get(action.actor)
        return {
            "sheet": sheet,
            "weekly_uses": gate.weekly_uses.get(action.actor, {}),
            "carried": carried.model_dump(mode="json") if carried else None,
        }
    if isinstance(action, FleeAction):
        query = StatesCheck(
            purpose="flee",
            ruleset=str(combat.get("ruleset", "umh")),
            combat_id=combat["id"],
            characters=[action.actor],
            skill=action.skill,
        )
        await ask_states(client, tenant=tenant, room=combat["room"], query=query)
    return {}
