"""services/states' wiring: which aggregates a message concerns, timers for the reconciler,
``timer.fired`` on the character aggregate, and the ``states.check`` query."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from services.states.handlers import HANDLERS, characters_of, on_states_check, spec
from shared.keys import Aggregate, Keys
from shared.messages import (
    ACTION_DECLARED,
    CMD_CHARACTER,
    CMD_MODERATE,
    CMD_POST_COMBAT,
    CMD_REQUIREMENT,
    CMD_TIMER_FIRED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    CONDITION_CARRIED,
    EFFECT_APPLIED,
    ITEM_STOLEN,
    QUERY_STATES_CHECK,
    Envelope,
)
from shared.runtime import QueryContext
from tests.unit.states.umh.builders import (
    T0,
    World,
    declared,
    effect,
    ended,
    fled,
    joined,
    started,
)

KEYS = Keys("ns")
SPEC = spec(KEYS)


def envelope(type_: str, payload: dict[str, Any], *, room: str = "plaza") -> Envelope:
    return Envelope(
        message_id="m_1",
        type=type_,
        correlation_id="r_1",
        combat_id="c_1",
        room=room,
        tenant="t_1",
        occurred_at=datetime.fromtimestamp(T0 / 1000, tz=UTC),
        payload=payload,
    )


@pytest.mark.parametrize(
    ("type_", "payload", "characters"),
    [
        (COMBAT_STARTED, started(), ["ana", "bruno"]),
        (COMBATANT_JOINED, joined("carla"), ["carla"]),
        (COMBATANT_FLED, fled("bruno"), ["bruno"]),
        (ACTION_DECLARED, declared("ana"), ["ana"]),
        (EFFECT_APPLIED, effect("bruno"), ["bruno"]),
        (COMBAT_ENDED, ended(), ["ana", "bruno"]),
        (CMD_POST_COMBAT, {"actor": "ana", "target": "bruno"}, ["bruno"]),
        (CMD_REQUIREMENT, {"character": "ana"}, ["ana"]),
        (CMD_MODERATE, {"character": "ana"}, ["ana"]),
        (CMD_TIMER_FIRED, {"data": {"tag": "char:t_1:ana", "subject": "ana"}}, ["ana"]),
        (QUERY_STATES_CHECK, {"characters": ["ana", "bruno", "ana"]}, ["ana", "bruno"]),
        ("turn.started", {"actor": "ana"}, []),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_characters_of(type_: str, payload: dict[str, Any], characters: list[str]) -> None:
    env = envelope(type_, payload)
    assert characters_of(env) == characters
    targets = SPEC.targets(env)
    assert [t.agg.tag for t in targets] == [f"char:t_1:{c}" for c in characters]


def test_every_consumed_message_has_a_handler() -> None:
    consumed = {COMBAT_STARTED, COMBATANT_JOINED, COMBATANT_FLED, ACTION_DECLARED}
    consumed |= {EFFECT_APPLIED, COMBAT_ENDED, CMD_POST_COMBAT, CMD_REQUIREMENT, CMD_MODERATE}
    consumed |= {CMD_CHARACTER, CONDITION_CARRIED, ITEM_STOLEN}
    assert consumed | {CMD_TIMER_FIRED} == set(HANDLERS)
    assert set(SPEC.queries) == {QUERY_STATES_CHECK}


def test_timers_are_reported_for_the_reconciler() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    state = world.states["bruno"]
    assert state is not None and not SPEC.is_active(state) and SPEC.armed_timers(state) == []
    world.on(COMBATANT_FLED, fled("bruno"))
    state = world.states["bruno"]
    assert state is not None and SPEC.is_active(state)
    armed = {t.timer_id: t.due_ms for t in SPEC.armed_timers(state)}
    assert armed == {tid: t.due_ms for tid, t in world.armed.items()}
    assert not SPEC.expires(state)
    # The reconciler's routing facts are in the state (shared.runtime._meta_of).
    assert (state["character"], state["tenant"], state["room"]) == ("bruno", "t_1", "plaza")


def test_timer_fired_lands_on_the_character() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(COMBATANT_FLED, fled("bruno"))
    (timer_id,) = [tid for tid, t in world.armed.items() if t.kind == "immunity"]
    payload = {
        "timer_id": timer_id,
        "kind": "immunity",
        "due_ms": T0 + 300_000,
        "data": {"kind": "immunity", "tag": "char:t_1:bruno", "subject": "bruno"},
    }
    env = envelope(CMD_TIMER_FIRED, payload)
    (target,) = SPEC.targets(env)
    decision = HANDLERS[CMD_TIMER_FIRED](env, world.states["bruno"], target, T0 + 300_000)
    assert [e.type for e in decision.events] == ["immunity.expired"]


def test_the_view_is_the_status_and_the_history() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    state = world.states["ana"]
    assert state is not None
    view = SPEC.view(state, T0)
    assert view is not None and set(view) == {"status", "history"}
    assert view["status"]["in_combat"] == "c_1"


def views(published: dict[Aggregate, dict[str, Any]]) -> QueryContext:
    """A query context whose read models are ``published`` (the turns view of a combat)."""

    async def read_view(agg: Aggregate) -> dict[str, Any] | None:
        return published.get(agg)

    return QueryContext(KEYS, read_view)


async def test_states_check_reads_the_room_from_the_envelope_and_ended_combats() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(COMBATANT_FLED, fled("bruno"))
    world.on(COMBAT_STARTED, started("c_2", attackers=("carla",), defenders=("dario",)))
    ctx = views({KEYS.combat("turns", "c_2"): {"phase": "ended"}})
    query: dict[str, Any] = {"purpose": "start", "characters": ["bruno", "carla"]}
    query |= {"attacker": "bruno", "defenders": ["carla"], "challenge": True}
    states = {c: world.states.get(c) for c in ("bruno", "carla")}
    answer = await on_states_check(envelope(QUERY_STATES_CHECK, query), states, ctx, T0 + 1000)
    assert [(r["character"], r["code"]) for r in answer["refusals"]] == [("bruno", "room_locked")]
    elsewhere = await on_states_check(
        envelope(QUERY_STATES_CHECK, query, room="otra"), states, ctx, T0 + 1000
    )
    assert elsewhere["allowed"] is True
