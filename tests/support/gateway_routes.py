"""The routes of the chain's gateway (:class:`tests.support.table.ChainGateway`): each one
does what its route in ``gateway/routes/`` does, with the gateway's own models and gates."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from gateway.errors import ApiError
from gateway.gates import ask_states, gate_action
from gateway.routes.aftermath import (
    AdjustBody,
    CharacterCommandBody,
    PostCombatBody,
    RequirementBody,
)
from gateway.routes.combats import StartCombatBody, fill_vitality
from gateway.routes.settings import merge_patch
from shared.actions import MODERATOR_ONLY_ACTIONS, Action
from shared.actions_base import ResumeAction
from shared.aftermath_commands import ApplyPostCombat, ClaimRequirement
from shared.messages import (
    CMD_CHARACTER,
    CMD_COMBAT_ACT,
    CMD_COMBAT_START,
    CMD_MODERATE,
    CMD_POST_COMBAT,
    CMD_REQUIREMENT,
    new_id,
)
from shared.payloads import (
    ActOnCombat,
    CharacterStatus,
)
from shared.settings import CommunitySettings
from shared.sheets import Sheet

if TYPE_CHECKING:
    from tests.support.table import ChainGateway

JSON = dict[str, Any]
ACTIONS: TypeAdapter[Action] = TypeAdapter(Action)
SHEETS: TypeAdapter[Sheet] = TypeAdapter(Sheet)
CHAIN_MODERATOR_KEY = "k_chain_moderator"
"""The key id a moderator's ``resume`` carries over the chain (no authentication here)."""


@dataclass
class Request:
    method: str
    path: str
    body: Any
    params: dict[str, str]
    headers: dict[str, str]
    moderator: bool


Route = Callable[["ChainGateway", Request, re.Match[str]], Awaitable[tuple[int, Any]]]
ROUTES: list[tuple[str, re.Pattern[str], Route]] = []


def route(method: str, pattern: str) -> Callable[[Route], Route]:
    def register(fn: Route) -> Route:
        ROUTES.append((method, re.compile(f"^{pattern}$"), fn))
        return fn

    return register


@route("POST", r"/v1/keys")
async def new_key(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    if not request.moderator:
        raise ApiError("forbidden")
    scope = str(request.body["scope"])
    api_key = f"{gw.tenant}:{scope}:{len(gw.api_keys)}"
    gw.api_keys[api_key] = scope == "moderator"
    return 201, {"api_key": api_key, "scope": scope}


# --- characters and settings ----------------------------------------------------------------
@route("PUT", r"/v1/characters/(?P<id>[^/]+)")
async def put_character(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    body = SHEETS.dump_python(SHEETS.validate_python(request.body), mode="json")
    created = m["id"] not in gw.sheets
    gw.sheets[m["id"]] = body
    return (201 if created else 200), {"id": m["id"], **body}


@route("GET", r"/v1/characters/(?P<id>[^/]+)/status")
async def get_status(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    if m["id"] not in gw.sheets:
        raise ApiError("not_found")
    status = CharacterStatus.model_validate(gw.states_view(m["id"])["status"])
    return 200, status.model_dump(mode="json")


@route("GET", r"/v1/characters/(?P<id>[^/]+)/history")
async def get_history(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    if m["id"] not in gw.sheets:
        raise ApiError("not_found")
    return 200, {"character": m["id"], "history": gw.states_view(m["id"])["history"]}


@route("GET", r"/v1/settings")
async def get_settings(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    return 200, gw.settings.model_dump(mode="json")


@route("PATCH", r"/v1/settings")
async def patch_settings(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    if not request.moderator:
        raise ApiError("forbidden")
    merged = merge_patch(gw.settings.model_dump(), request.body)
    gw.settings = CommunitySettings.model_validate(merged)
    return 200, gw.settings.model_dump(mode="json")


# --- combats and actions ----------------------------------------------------------------------
@route("POST", r"/v1/combats")
async def start_combat(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    body = StartCombatBody.model_validate(request.body)
    sheets: dict[str, JSON] = {}
    for character in [body.attacker, *body.defenders]:
        sheet = await gw.load_sheet(character)
        if sheet is None:
            raise ApiError("unknown_character", details={"character": character})
        sheets[character] = sheet
    combat_id = new_id("c")
    gate = await ask_states(gw.chain, tenant=gw.tenant, room=body.room, query=body.gate(combat_id))
    command = body.command(combat_id, sheets, gw.settings, gate, moderator=request.moderator)
    payload = command.model_dump(mode="json")
    await gw.send(CMD_COMBAT_START, payload, room=body.room, combat_id=combat_id)
    combat = await gw.combat(combat_id)
    assert combat is not None
    return 201, fill_vitality(combat, sheets, gate)


@route("GET", r"/v1/combats/(?P<id>[^/]+)")
async def get_combat(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    combat = await gw.combat(m["id"])
    if combat is None:
        raise ApiError("not_found")
    return 200, combat


@route("GET", r"/v1/combats/(?P<id>[^/]+)/log")
async def combat_log(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    if await gw.combat(m["id"]) is None:
        raise ApiError("not_found")
    events = [
        {"log_id": f"{index + 1}-0", **event}
        for index, event in enumerate(gw.told(gw.log(m["id"])))
    ]
    return 200, {"combat_id": m["id"], "events": events, "next": None}


@route("POST", r"/v1/combats/(?P<id>[^/]+)/actions")
async def act(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    action = ACTIONS.validate_python(request.body)
    if action.type in MODERATOR_ONLY_ACTIONS and not request.moderator:
        raise ApiError("forbidden", details={"needs": "moderator", "action": action.type})
    combat = await gw.combat(m["id"])
    if combat is None:
        raise ApiError("not_found")
    raw_match = request.headers.get("if-match")
    expected = None if raw_match is None else int(raw_match.strip('"'))
    if expected is not None and combat["version"] != expected:
        details = {"expected": expected, "actual": combat["version"]}
        raise ApiError("version_mismatch", details=details)
    resume = isinstance(action, ResumeAction)  # who asked, and the stall's evidence
    command = ActOnCombat(
        action_id=new_id("a"),
        action=action,
        if_match=expected,
        moderator=request.moderator,
        moderator_key=CHAIN_MODERATOR_KEY if resume else None,
        quiet_ms=await gw.quiet_ms(m["id"]) if resume else None,
        **await gate_action(gw.chain, gw.load_sheet, gw.tenant, combat, action),
    )
    payload = command.model_dump(mode="json")
    outcome = await gw.send(CMD_COMBAT_ACT, payload, room=combat["room"], combat_id=m["id"])
    return 200, {
        "action_id": command.action_id,
        "events": gw.told(outcome.events),
        "combat": await gw.combat(m["id"]),
    }


# --- the aftermath ------------------------------------------------------------------------------
@route("POST", r"/v1/combats/(?P<id>[^/]+)/post_combat")
async def post_combat(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    body = PostCombatBody.model_validate(request.body)
    combat = await gw.ended_combat(m["id"], body.actor, body.target)
    command = ApplyPostCombat(
        combat_id=m["id"],
        actor=body.actor,
        target=body.target,
        skill=body.skill,
        cell=body.cell,
        actor_sheet=await gw.load_sheet(body.actor),
    )
    return await gw.to_states(
        CMD_POST_COMBAT,
        command.model_dump(mode="json"),
        room=combat["room"],
        combat_id=m["id"],
        character=body.target,
    )


@route("POST", r"/v1/combats/(?P<id>[^/]+)/requirements")
async def requirement(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    body = RequirementBody.model_validate(request.body)
    combat = await gw.ended_combat(m["id"], body.character)
    sheets = {c: gw.sheets[c] for c in combat.get("participants", {}) if c in gw.sheets}
    command = ClaimRequirement(
        combat_id=m["id"], character=body.character, kind=body.kind, name=body.name, sheets=sheets
    )
    return await gw.to_states(
        CMD_REQUIREMENT,
        command.model_dump(mode="json"),
        room=combat["room"],
        combat_id=m["id"],
        character=body.character,
    )


@route("POST", r"/v1/characters/(?P<id>[^/]+)/status/adjust")
async def adjust(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    if not request.moderator:
        raise ApiError("forbidden")
    body = AdjustBody.model_validate(request.body)
    if m["id"] not in gw.sheets:
        raise ApiError("not_found")
    command = body.command(m["id"], "k_chain")
    room = f"character:{m['id']}"
    payload = command.model_dump(mode="json")
    return await gw.to_states(CMD_MODERATE, payload, room=room, combat_id=None, character=m["id"])


@route("POST", r"/v1/characters/(?P<id>[^/]+)/commands")
async def command(gw: ChainGateway, request: Request, m: re.Match[str]) -> tuple[int, Any]:
    body = CharacterCommandBody.model_validate(request.body)
    ruleset = body.type.split(".", 1)[0]
    sheet = await gw.load_sheet(m["id"])
    if sheet is None:
        raise ApiError("not_found")
    if sheet.get("ruleset") != ruleset:
        raise ApiError("ruleset_mismatch", details={"expected": sheet.get("ruleset")})
    payload = {
        "ruleset": ruleset,
        "character": m["id"],
        "moderator": request.moderator,
        "sheet": sheet,
        "settings": gw.settings.model_dump(mode="json"),
        "command": body.model_dump(mode="json"),
    }
    room = f"character:{m['id']}"
    return await gw.to_states(CMD_CHARACTER, payload, room=room, combat_id=None, character=m["id"])
