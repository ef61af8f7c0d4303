"""API.md "Actions": one body per action type, answered once the services committed it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Request
from fastapi.responses import JSONResponse

from gateway.auth import Principal, current_principal
from gateway.context import Gateway, gateway
from gateway.dispatch import ids_for, raise_if_rejected, send
from gateway.errors import ApiError
from gateway.gates import ask_states
from gateway.idempotency import Answer, idempotent
from gateway.ids import ActionId, CombatId
from gateway.routes.characters import load_sheet
from gateway.routes.combats import reader
from gateway.views import CombatReader, public_event
from shared.actions import MODERATOR_ONLY_ACTIONS, Action
from shared.actions_base import FleeAction
from shared.messages import CMD_COMBAT_ACT, Envelope
from shared.payloads import ActOnCombat, StatesCheck
from shared.rulesets.umh.actions import JoinAction

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
    "pass_turn": {"value": {"type": "pass_turn", "actor": "ana"}},
}


def _if_match(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        return int(raw.strip().strip('"').removeprefix("W/").strip('"'))
    except ValueError as exc:
        raise ApiError(
            "invalid_request",
            details={"errors": [{"path": "header.If-Match", "message": "an integer version"}]},
        ) from exc


async def gate_action(
    gw: Gateway, tenant: str, combat: dict[str, Any], action: Action
) -> dict[str, Any]:
    """Joins and flights pass services/states' gates first (umh 4.2.3, 4.2.3.1, 4.1.1.1.1).

    A joiner's sheet is snapshotted here, as a combat's sheets are at its start.
    """
    if isinstance(action, JoinAction):
        sheet = await load_sheet(gw, tenant, action.actor)
        if sheet is None:
            raise ApiError("unknown_character", details={"character": action.actor})
        via = "skill" if action.skill else action.via
        gate = await ask_states(
            gw,
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
        return {"sheet": sheet, "weekly_uses": gate.weekly_uses.get(action.actor, {})}
    if isinstance(action, FleeAction):
        query = StatesCheck(
            purpose="flee",
            ruleset=str(combat.get("ruleset", "umh")),
            combat_id=combat["id"],
            characters=[action.actor],
            skill=action.skill,
        )
        await ask_states(gw, tenant=tenant, room=combat["room"], query=query)
    return {}


@router.post("/{combat_id}/actions", responses={202: {"description": "still being processed"}})
async def act(
    combat_id: CombatId,
    action: Annotated[Action, Body(openapi_examples=EXAMPLES)],
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
    if_match: Annotated[str | None, Header(alias="If-Match")] = None,
) -> JSONResponse:
    """Perform one action in a combat (see the table of API.md for each type's rules)."""
    tenant = principal.community_id
    expected = _if_match(if_match)
    if action.type in MODERATOR_ONLY_ACTIONS and not principal.is_moderator:
        raise ApiError("forbidden", details={"needs": "moderator", "action": action.type})

    async def operation(key: str | None) -> Answer:
        combat = await combats.view(combat_id, tenant)
        if combat is None:
            raise ApiError("not_found")
        if expected is not None and combat["version"] != expected:
            raise ApiError(
                "version_mismatch", details={"expected": expected, "actual": combat["version"]}
            )
        action_id = ids_for(tenant, key, "action", "a")
        command = ActOnCombat(
            action_id=action_id,
            action=action,
            if_match=expected,
            moderator=principal.is_moderator,
            **await gate_action(gw, tenant, combat, action),
        )
        outcome = await send(
            gw,
            type_=CMD_COMBAT_ACT,
            tenant=tenant,
            room=combat["room"],
            combat_id=combat_id,
            correlation_id=action_id,
            message_id=ids_for(tenant, key, "action-command", "m"),
            payload=command.model_dump(mode="json"),
        )
        raise_if_rejected(outcome)
        location = {"Location": f"/v1/combats/{combat_id}/actions/{action_id}"}
        if not outcome.complete:
            return Answer(202, {"action_id": action_id, "status": "pending"}, location)
        body = {
            "action_id": action_id,
            "events": [public_event(e) for e in outcome.events],
            "combat": await combats.view(combat_id, tenant),
        }
        return Answer(200, body, location)

    return await idempotent(request, gw, tenant, action.model_dump(mode="json"), operation)


@router.get("/{combat_id}/actions/{action_id}")
async def action_outcome(
    combat_id: CombatId,
    action_id: ActionId,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
) -> dict[str, Any]:
    """Where an action stands after a 202: pending, completed (with its events) or rejected."""
    tenant = principal.community_id
    if await combats.view(combat_id, tenant) is None:
        raise ApiError("not_found")
    raw = await gw.redis.get(gw.keys.outcome(tenant, action_id))
    if raw is not None:
        rejected = Envelope.model_validate_json(raw)
        return {
            "action_id": action_id,
            "status": "rejected",
            "error": {k: rejected.payload.get(k) for k in ("code", "rule", "details")},
        }
    events: list[Envelope] = []
    after: str | None = None
    while True:
        page = await combats.log(combat_id, after=after, limit=500)
        events += [env for _, env in page if env.correlation_id == action_id]
        if len(page) < 500:
            break
        after = page[-1][0]
    status = "completed" if any(e.final for e in events) else "pending"
    return {"action_id": action_id, "status": status, "events": [public_event(e) for e in events]}
