"""The reconciler reports stalled combats (issue 18): services/turns' real spec on the real
store and broker. A combat is started; the test then deletes the preparation timer it armed
(from the state, in the test's own namespace), so that nothing will move it on."""

from __future__ import annotations

from typing import Any

import pytest
from prometheus_client import REGISTRY
from redis.asyncio import Redis
from structlog.testing import capture_logs

from services.turns.handlers import spec
from shared.bus import Bus
from shared.keys import Keys
from shared.messages import Envelope, new_id, utcnow
from shared.payloads import ActOnCombat
from shared.runtime import RedisServiceRuntime
from shared.store import decode_state, encode_state
from tests.unit.turns.stalls_kit import resume_cmd
from tests.unit.turns.umh.builders import COMBAT_ID, start_cmd

pytestmark = pytest.mark.integration


def envelope(type_: str, payload: dict[str, Any]) -> Envelope:
    return Envelope(
        message_id=new_id("m"),
        type=type_,
        correlation_id=new_id("r"),
        combat_id=COMBAT_ID,
        room="plaza",
        tenant="t1",
        occurred_at=utcnow(),
        payload=payload,
    )


def gauge() -> float | None:
    return REGISTRY.get_sample_value("referee_stalled_combats", {"service": "turns"})


def detections() -> float:
    labels = {"service": "turns", "reason": "no_clock"}
    return REGISTRY.get_sample_value("referee_stalled_combats_detected_total", labels) or 0.0


@pytest.fixture
async def runtime(bus: Bus, redis: Redis, namespace: str) -> RedisServiceRuntime:
    keys = Keys(namespace)
    return RedisServiceRuntime(spec(keys), redis=redis, bus=bus, keys=keys, retention_seconds=60)


async def test_a_stalled_combat_is_logged_once_counted_and_cleared_by_a_resume(
    runtime: RedisServiceRuntime, redis: Redis, namespace: str
) -> None:
    await runtime.handle(envelope("combat.start", start_cmd().model_dump(mode="json")))
    assert await runtime.reconcile_once() == 0
    assert gauge() == 0

    # Lost: the preparation timer (the only one) is gone from the state.
    agg = Keys(namespace).combat("turns", COMBAT_ID)
    raw = await redis.hget(agg.state, "data")
    assert raw is not None
    state = decode_state(raw)
    (timer_id,) = state["timers"]
    state["timers"] = {}
    await redis.hset(agg.state, "data", encode_state(state))
    await runtime.timers.cancel(timer_id)

    before = detections()
    with capture_logs() as logs:
        await runtime.reconcile_once()
        await runtime.reconcile_once()
    stalled = [line for line in logs if line["event"] == "combat_stalled"]
    assert len(stalled) == 1, logs
    assert stalled[0]["combat_id"] == COMBAT_ID and stalled[0]["reason"] == "no_clock"
    assert [e["type"] for e in stalled[0]["last_events"]][:2] == [
        "combat.started",
        "combat.phase_changed",
    ]
    assert stalled[0]["state"]["phase"] == "preparation"
    assert gauge() == 1 and detections() == before + 1

    resume: ActOnCombat = resume_cmd(quiet_ms=0)
    await runtime.handle(envelope("combat.act", resume.model_dump(mode="json")))
    with capture_logs() as logs:
        await runtime.reconcile_once()
    assert [line["event"] for line in logs] == ["combat_stall_cleared"]
    assert gauge() == 0 and detections() == before + 1
