"""Steps many combat tests take, on a :class:`~tests.support.play.Community` served over HTTP
(``tests/e2e``) or by the chain (``tests/chain``): registering sheets, joining, vetoing,
knocking out, reacting, and waiting for a result, a resolution or a status."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.play import Answered, Community, error_of, expect
from tests.support.sheets import DEFAULT_SKILLS, JSON, umh_sheet


# --- the aftermath (services/states, umh 4) ---------------------------------------------------
async def set_aftermath(community: Community[Any], **seconds: int) -> JSON:
    """``PATCH /v1/settings {"aftermath": {...}}``: durations of what outlives a combat."""
    answer = await community.client.patch("/v1/settings", json={"aftermath": seconds})
    settings: JSON = expect(answer, 200).json()
    assert all(settings["aftermath"][k] == v for k, v in seconds.items()), settings
    return settings


async def wait_status(
    community: Community[Any],
    character: str,
    predicate: Callable[[JSON], bool],
    *,
    what: str,
    within: float = 10,
) -> JSON:
    """Poll ``GET /v1/characters/{character}/status`` until ``predicate`` holds."""
    last: list[JSON] = []

    async def probe() -> JSON | None:
        status = await community.status(character)
        last[:] = [status]
        return status if predicate(status) else None

    return await community.referee.wait_until(
        probe, within=within, what=lambda: f"{character}: {what} (last: {last[0] if last else {}})"
    )


async def history_of(community: Community[Any], character: str) -> list[JSON]:
    answer = await community.client.get(f"/v1/characters/{character}/history")
    history: list[JSON] = expect(answer, 200).json()["history"]
    return history


def skip_if_not_refereed(response: Answered, what: str) -> None:
    """Skip a scenario whose action services/turns does not referee yet (``not_implemented``)."""
    if response.status_code == 422 and response.json()["error"]["code"] == "not_implemented":
        pytest.skip(f"services/turns does not referee {what} yet: {response.json()['error']}")


async def act_or_skip(community: Community[Any], combat_id: str, body: JSON) -> JSON:
    """An action answered 200, or the test is skipped if its type is not refereed yet."""
    response = await community.act(combat_id, body)
    skip_if_not_refereed(response, str(body["type"]))
    answer: JSON = expect(response, 200).json()
    return answer


async def knock_out(
    community: Community[Any],
    combat_id: str,
    winner: str,
    loser: str,
    skill: str,
    *,
    within: float = 20,
) -> JSON:
    """``winner`` brings ``loser`` to 0 VIT with ``skill`` (taken without defense); everyone
    else passes his turns. Returns the ended combat."""
    deadline = time.monotonic() + within
    while True:
        combat = await community.wait_combat(
            combat_id,
            lambda c: (
                c["phase"] == "ended"
                or (c["phase"] == "fighting" and bool(c["turn"]) and not c["pending_reactions"])
            ),
            what="a turn to play or the end",
            within=max(1.0, deadline - time.monotonic()),
        )
        if combat["phase"] == "ended":
            return combat
        actor = combat["turn"]["actor"]
        if actor == winner:
            attack = await community.use_skill(combat_id, winner, skill, [loser])
            await community.react(combat_id, loser, attack["action_id"], None)
        else:
            await community.pass_turn(combat_id, actor)


async def register_with(
    community: Community[Any], character: str, *, vel: float = 6, vit: int = 300, **fields: Any
) -> JSON:
    """A umh sheet with fields :meth:`Community.register` does not set (``cell``, ``alliance``,
    ``profile``, ``stats`` overrides, skills with post-combat effects...)."""
    skills = fields.pop("skills", DEFAULT_SKILLS)
    body = {**umh_sheet(character.capitalize(), vel=vel, vit=vit, skills=skills), **fields}
    answer = await community.client.put(f"/v1/characters/{character}", json=body)
    stored: JSON = expect(answer, 201, 200).json()
    return stored


# --- the umh turn economy (issue 3): joins, leaving, presence, waiting for results ----------
async def join(
    community: Community[Any],
    combat_id: str,
    joiner: str,
    *,
    side: str = "defenders",
    via: str = "irrumpir",
    skill: str | None = None,
) -> JSON:
    """``join`` (umh 1.2.4): IRRUMPIR waits for its veto window; the others enter at once."""
    body: JSON = {"type": "join", "actor": joiner, "side": side, "via": via}
    if skill is not None:
        body["skill"] = skill
    return await community.act_ok(combat_id, body)


async def veto(community: Community[Any], combat_id: str, voter: str, joiner: str) -> JSON:
    """``veto_join`` (umh 1.2.4.1): one member's vote against a pending IRRUMPIR."""
    return await community.act_ok(
        combat_id, {"type": "veto_join", "actor": voter, "joiner": joiner}
    )


async def act_as(community: Community[Any], combat_id: str, kind: str, actor: str) -> JSON:
    """A body-less action (``flee``, ``pact``, ``disconnect``, ``reconnect``, ``ready``...)."""
    return await community.act_ok(combat_id, {"type": kind, "actor": actor})


async def wait_result(community: Community[Any], combat_id: str, *, within: float = 15) -> JSON:
    """Until the combat has ended; its ``result``."""
    combat = await community.wait_combat(
        combat_id, lambda c: c["phase"] == "ended", what="the end of the combat", within=within
    )
    result: JSON = combat["result"]
    return result


async def register_sheet(community: Community[Any], character: str, body: JSON) -> JSON:
    """``PUT /v1/characters/{character}`` with a whole sheet."""
    answer = expect(await community.client.put(f"/v1/characters/{character}", json=body), 201, 200)
    stored: JSON = answer.json()
    return stored


async def react_with(
    community: Community[Any],
    combat_id: str,
    actor: str,
    action_id: str,
    skill: str | None = None,
    **fields: Any,
) -> JSON:
    """A ``react`` action with the optional fields (``resist``, ``to``, ``use_number``...)."""
    body = {"type": "react", "actor": actor, "action_id": action_id, "skill": skill, **fields}
    return await community.act_ok(combat_id, body)


async def resolved_of(
    community: Community[Any], combat_id: str, action_id: str, hit: int = 1
) -> JSON:
    """The ``data`` of the ``action.resolved`` of one hit of one action, once it is logged."""
    event = await community.wait_event(
        combat_id,
        "action.resolved",
        lambda data: data["action_id"] == action_id and data.get("hit", 1) == hit,
    )
    data: JSON = event["data"]
    return data


# --- stalled combats (issue 18) ---------------------------------------------------------------
RESUME: JSON = {"type": "resume", "actor": "moderadora", "reason": "la defensa se perdió"}


def strand(state: JSON) -> list[str]:
    """Make a stored umh combat state wait for nothing: the defense windows of its actions
    in flight and every timer it armed are gone (its turn stays paused). The deleted timer
    ids, for the test to cancel them in the timer set too."""
    timers = list(state["timers"])
    for action in state["actions"].values():
        action["reactions"] = {}
    state["timers"] = {}
    return timers


async def resume_refusals(community: Community[Any], combat_id: str) -> None:
    """A running combat cannot be resumed; nor by a frontend key; nor without a reason."""
    running = await community.act(combat_id, RESUME)
    assert error_of(running, 422, "combat_not_stalled")["details"]["phase"] == "fighting"
    frontend = community.referee.client(await community.key("frontend"))
    denied = await frontend.post(f"/v1/combats/{combat_id}/actions", json=RESUME)
    error_of(denied, 403, "forbidden")
    reasonless = {k: v for k, v in RESUME.items() if k != "reason"}
    error_of(await community.act(combat_id, reasonless), 422, "invalid_request")
