"""The gates of services/states (``states.check``), asked before a combat starts, someone
joins or someone flees (umh 1.1.1.2, 4.2, 4.5). A refusal answers 422 and sends nothing on."""

from __future__ import annotations

from gateway.context import Gateway
from gateway.errors import ApiError
from shared.messages import QUERY_STATES_CHECK, STATES_CHECKED, Envelope, new_id, utcnow
from shared.payloads import StatesCheck, StatesChecked


async def ask_states(gw: Gateway, *, tenant: str, room: str, query: StatesCheck) -> StatesChecked:
    env = Envelope(
        message_id=new_id("m"),
        type=QUERY_STATES_CHECK,
        correlation_id=new_id("q"),
        combat_id=query.combat_id,
        room=room,
        tenant=tenant,
        occurred_at=utcnow(),
        payload=query.model_dump(mode="json"),
    )
    outcome = await gw.client.send("states", env, wait_seconds=gw.settings.referee_request_timeout)
    if outcome.rejected is not None:
        p = outcome.rejected.payload
        raise ApiError(str(p.get("code")), rule=p.get("rule"), details=p.get("details") or {})
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
