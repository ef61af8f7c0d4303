"""The gates of services/states (``states.check``), asked before a combat starts, someone
joins or someone flees (umh 1.1.1.2, 4.2, 4.5). A refusal answers 422 and sends nothing on."""

from __future__ import annotations

from gateway.context import Gateway
from gateway.dispatch import raise_if_rejected
from gateway.errors import ApiError
from shared.messages import QUERY_STATES_CHECK, STATES_CHECKED, new_id
from shared.payloads import StatesCheck, StatesChecked


async def ask_states(gw: Gateway, *, tenant: str, room: str, query: StatesCheck) -> StatesChecked:
    outcome = await gw.client.send(
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
