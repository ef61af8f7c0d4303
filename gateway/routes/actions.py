"""docs/api.md "Endpoints": one body per action type, answered once the services committed it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Request, Response
from fastapi.responses import JSONResponse

from gateway.auth import Principal, current_principal
from gateway.context import Gateway, gateway
from gateway.dispatch import ids_for, raise_if_rejected
from gateway.errors import ApiError
from gateway.field_errors import found_error
from gateway.gates import gate_action
from gateway.idempotency import Answer, idempotent, narrated
from gateway.ids import ActionId, CombatId
from gateway.language import keep_voice
from gateway.narration import keep_names, storyteller
from gateway.recorder import OUTCOME_TTL_S
from gateway.routes.characters import sheets_of
from gateway.routes.combats import reader
from gateway.schemas.answers import ActionAnswer, ActionOutcome, ActionPending
from gateway.views import ActionMark, CombatReader, public_event
from shared.actions import MODERATOR_ONLY_ACTIONS, Action
from shared.actions_base import ResumeAction
from shared.errors import kind_of
from shared.messages import CMD_COMBAT_ACT, Envelope
from shared.payloads import ActOnCombat
from shared.redis_streams import text
from shared.timers import now_ms

router = APIRouter(prefix="/v1/combats", tags=["actions"])

EXAMPLES: dict[str, Any] = {
    "skill": {"value": {"type": "skill", "actor": "ana", "skill": "Puño", "targets": ["bruno"]}},
    "react": {
        "value": {
            "type": "react",
            "actor": "bruno",
            "action_id": "a_0123456789abcdef0123456789abcdef",
            "skill": "Bloqueo",
        }
    },
    "pass_turn": {
        "summary": "every ruleset: ends the actor's turn",
        "value": {"type": "pass_turn", "actor": "ana"},
    },
    "flee": {
        "summary": "every ruleset: leaves the combat (skill: umh only)",
        "value": {"type": "flee", "actor": "ana"},
    },
    "ready": {
        "summary": "umh and l5r: done preparing (cypher has no preparation: wrong_phase)",
        "value": {"type": "ready", "actor": "ana"},
    },
    "cypher.attack": {
        "summary": "cypher: an attack, its Effort and circumstances",
        "value": {
            "type": "cypher.attack",
            "actor": "ana",
            "target": "orco",
            "attack": "Espada",
            "stat": "might",
            "effort": 1,
        },
    },
    "l5r.attack": {
        "summary": "l5r: an attack with raises (declare the stance first: l5r.stance)",
        "value": {
            "type": "l5r.attack",
            "actor": "ryoku",
            "target": "toshi",
            "kind": "melee",
            "raises": {"damage": 1},
        },
    },
    "resume": {
        "summary": "moderator only: a stalled combat moves on (422 combat_not_stalled otherwise)",
        "value": {"type": "resume", "actor": "moderadora", "reason": "turno bloqueado"},
    },
}


def _if_match(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        return int(raw.strip().strip('"').removeprefix("W/").strip('"'))
    except ValueError as exc:
        found = found_error("header.If-Match", "int_parsing")
        raise ApiError("invalid_request", details={"errors": [found]}) from exc


@router.post(
    "/{combat_id}/actions",
    responses={
        200: {"model": ActionAnswer, "description": "the action's whole chain was applied"},
        202: {"model": ActionPending, "description": "still being processed: poll Location"},
    },
)
async def act(
    combat_id: CombatId,
    action: Annotated[Action, Body(openapi_examples=EXAMPLES)],
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
    if_match: Annotated[str | None, Header(alias="If-Match")] = None,
) -> JSONResponse:
    """Perform one action in a combat (see the table of docs/api.md for each type's rules)."""
    tenant = principal.community_id
    expected = _if_match(if_match)
    if action.type in MODERATOR_ONLY_ACTIONS and not principal.is_moderator:
        raise ApiError("forbidden", details={"needs": "moderator", "action": action.type})

    async def operation(key: str | None) -> Answer:
        action_id = ids_for(tenant, key, "action", "a")
        command_id = ids_for(tenant, key, "action-command", "m")
        sent_ms = now_ms()
        mark = ActionMark(
            gw.keys.action_sent(tenant, action_id),
            sent_record(combat_id, sent_ms),
            OUTCOME_TTL_S,
            command_id,
            sent_ms,
        )
        combat, logged_before = await combats.head_and_mark(combat_id, tenant, mark)
        if combat is None:
            raise ApiError("not_found")
        try:
            if expected is not None and combat["version"] != expected:
                actual = combat["version"]
                raise ApiError("version_mismatch", details={"expected": expected, "actual": actual})
            # A resume carries who asked and the stall's evidence (how long the log is quiet).
            resume = isinstance(action, ResumeAction)
            command = ActOnCombat(
                action_id=action_id,
                action=action,
                if_match=expected,
                moderator=principal.is_moderator,
                moderator_key=principal.key_id if resume else None,
                quiet_ms=await combats.quiet_ms(combat_id, now_ms()) if resume else None,
                **await gate_action(gw.client, sheets_of(gw, tenant), tenant, combat, action),
            )
            outcome = await gw.client.send(
                CMD_COMBAT_ACT,
                command.model_dump(mode="json"),
                tenant=tenant,
                room=combat["room"],
                combat_id=combat_id,
                correlation_id=action_id,
                message_id=command_id,
            )
        except BaseException:
            # Refused or never published: not an action anyone can poll, nor one queued.
            await combats.unmark(combat_id, mark)
            raise
        raise_if_rejected(outcome)
        location = {"Location": f"/v1/combats/{combat_id}/actions/{action_id}"}
        if not outcome.complete:
            return Answer(202, {"action_id": action_id, "status": "pending"}, location)
        events = outcome.events
        if any(e.causation_id != command_id for e in events):
            # The chain went through another service (a hit): only its last commit answered,
            # and every commit's events are in the combat's log, in the order committed.
            events = await combats.chain_events(combat_id, action_id, logged_before) or events
        # The view, with the settings and names that telling the events takes (one read).
        view, settings, names = await combats.view_to_tell(combat_id, tenant)
        keep_voice(request, settings)
        keep_names(request, combat_id, names)
        body = {
            "action_id": action_id,
            "events": [public_event(e) for e in events],
            "combat": view,
        }
        return Answer(200, body, location)

    body = action.model_dump(mode="json")
    return await idempotent(
        request, gw, tenant, body, operation, present=narrated(request, gw, tenant)
    )


# How far the gateway's clock may run ahead of Redis's, whose time stamps the log's entry ids.
CLOCK_MARGIN_MS = 5000


def sent_record(combat_id: str, sent_ms: int) -> str:
    """What the gateway keeps of an action it sent: its combat and when (Unix ms)."""
    return f"{combat_id} {sent_ms}"


def read_sent_record(raw: str | None) -> tuple[str | None, int]:
    """The combat and the send time of :func:`sent_record` (0 when unknown: a record of an
    older gateway holds the combat alone)."""
    if raw is None:
        return None, 0
    combat_id, _, sent_ms = raw.partition(" ")
    return combat_id, int(sent_ms) if sent_ms.isdigit() else 0


@router.get("/{combat_id}/actions/{action_id}", responses={200: {"model": ActionOutcome}})
async def get_action_outcome(
    combat_id: CombatId,
    action_id: ActionId,
    request: Request,
    response: Response,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
) -> dict[str, Any]:
    """Where an action stands after a 202: pending, completed (with its events) or rejected.

    An id that was never sent to this combat (or whose record and events have expired) is
    404: "pending" means the gateway published it and its chain has not ended yet.
    """
    tenant = principal.community_id
    if await combats.head(combat_id, tenant) is None:
        raise ApiError("not_found")
    teller, lang, headers = await storyteller(request, gw, tenant)
    response.headers.update(headers)
    async with gw.redis.pipeline(transaction=False) as pipe:
        pipe.get(gw.keys.outcome(tenant, action_id))
        pipe.get(gw.keys.action_sent(tenant, action_id))
        raw, sent_to = await pipe.execute()
    if raw is not None:
        rejected = Envelope.model_validate_json(raw)
        if rejected.combat_id != combat_id:
            raise ApiError("not_found")
        code = str(rejected.payload.get("code"))
        error = {k: rejected.payload.get(k) for k in ("code", "rule", "details")}
        error["message"] = kind_of(code).es if lang == "es" else kind_of(code).en
        return {"action_id": action_id, "status": "rejected", "error": error}
    sent_combat, since = read_sent_record(text(sent_to) if sent_to is not None else None)
    # The action's events were all committed after it was sent: read the combat's log from
    # then on (with a margin for the clocks), not from its first entry.
    after = f"{max(since - CLOCK_MARGIN_MS, 0)}-0" if since else "0-0"
    events = await combats.chain_events(combat_id, action_id, after)
    if not events and sent_combat != combat_id:
        raise ApiError("not_found")
    status = "completed" if any(e.final for e in events) else "pending"
    told = await teller.tell_all([public_event(e) for e in events], lang)
    return {"action_id": action_id, "status": status, "events": told}
