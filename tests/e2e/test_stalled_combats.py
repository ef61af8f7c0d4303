"""A stalled combat through the running suite (issue 18): the reconciler of services/turns
reports it (a ``combat_stalled`` log line and the metrics it serves), and a moderator
resumes it through the API with a reason; resuming a combat that is not stalled is refused.

The stall is made by the test: with bruno's defense window open (ana's clock paused), it
deletes the window and its timer from the combat's state, in the suite's own namespace.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from shared.keys import Keys
from shared.redis_client import redis_client
from shared.store import decode_state, encode_state
from shared.timers import DEFAULT_SHARDS, TimerStore
from tests.e2e.referee import (
    Referee,
    start_suite,
    stop_suite,
    wait_until,
)
from tests.support.play import error_of, expect, types_of
from tests.support.steps import RESUME, resume_refusals, strand
from tests.support.suite import Suite, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
async def watched_suite(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """A suite of its own whose services/turns serves its metrics and reconciles often."""
    turns = {"REFEREE_METRICS_PORT": str(free_port()), "REFEREE_RECONCILE_SECONDS": "0.2"}
    running = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-stalls"),
        process_env={"turns": turns},
    )
    try:
        yield running
    finally:
        await stop_suite(running)


async def turns_metrics(suite: Suite) -> dict[str, float]:
    """The samples services/turns serves: ``name{labels}`` -> value."""
    port = suite.process_env["turns"]["REFEREE_METRICS_PORT"]
    async with httpx.AsyncClient() as client:
        text = expect(await client.get(f"http://127.0.0.1:{port}/metrics"), 200).text
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}"] = sample.value
    return samples


STALLED = "referee_stalled_combats{service=turns}"
DETECTED = "referee_stalled_combats_detected_total{reason=no_clock,service=turns}"


async def wait_metric(suite: Suite, name: str, value: float) -> dict[str, float]:
    seen: list[dict[str, float]] = []

    async def probe() -> dict[str, float] | None:
        seen[:] = [await turns_metrics(suite)]
        return seen[0] if seen[0].get(name) == value else None

    return await wait_until(
        probe, within=15, what=lambda: f"{name} == {value} (last: {seen[0].get(name)})"
    )


def log_lines(suite: Suite, event: str, combat_id: str) -> list[str]:
    text = (suite.log_dir / "turns.log").read_text(errors="replace")
    return [line for line in text.splitlines() if event in line and combat_id in line]


async def strand_in(suite: Suite, combat_id: str) -> list[str]:
    """:func:`strand` the combat's stored state, and cancel its timers in the timer set."""
    keys = Keys(suite.namespace)
    agg = keys.combat("turns", combat_id)
    redis = redis_client(suite.redis_url)
    try:
        raw = await redis.hget(agg.state, "data")
        assert raw is not None
        state = decode_state(raw)
        timers = strand(state)
        await redis.hset(agg.state, "data", encode_state(state))
        store = TimerStore(redis, keys.timer_shards("turns", DEFAULT_SHARDS))
        for timer_id in timers:
            await store.cancel(timer_id, agg.tag)
    finally:
        await redis.aclose()
    return timers


async def test_a_stalled_combat_is_reported_then_resumed_by_a_moderator(
    watched_suite: Suite,
) -> None:
    suite = watched_suite
    referee = Referee(suite)
    try:
        community = await referee.new_community()
        await community.register("ana", vel=6)
        await community.register("bruno", vel=5)
        cid = (await community.start_challenge("ana", "bruno"))["id"]
        await community.wait_turn(cid, "ana", 1)
        await resume_refusals(community, cid)
        assert (await wait_metric(suite, STALLED, 0)).get(DETECTED, 0) == 0

        attack = await community.use_skill(cid, "ana", "Puño", ["bruno"])
        assert attack["combat"]["turn"]["deadline"] is None  # paused: bruno's window is open
        assert len(await strand_in(suite, cid)) == 1

        await wait_metric(suite, STALLED, 1)
        assert (await turns_metrics(suite))[DETECTED] == 1
        (line,) = log_lines(suite, "combat_stalled", cid)
        assert "no_clock" in line and "reaction.requested" in line and "turn.paused" in line

        resumed = await community.act_ok(cid, {**RESUME})
        assert types_of(resumed["events"])[:2] == ["combat.resumed", "turn.resumed"]
        data = resumed["events"][0]["data"]
        assert data["by"] == "moderadora" and data["reason"] == RESUME["reason"]
        assert data["stall"] == "no_clock" and data["moderator_key"]
        assert data["abandoned_actions"] == [attack["action_id"]]
        turn = resumed["combat"]["turn"]
        assert turn["actor"] == "ana" and turn["deadline"] is not None
        assert resumed["combat"]["pending_reactions"] == []
        logged = await community.events_of(cid)
        assert "combat.resumed" in types_of(logged)

        await wait_metric(suite, STALLED, 0)
        assert log_lines(suite, "combat_stall_cleared", cid)
        assert len(log_lines(suite, "combat_stalled", cid)) == 1
        # The combat goes on: ana passes, bruno's turn comes with its clock.
        await community.pass_turn(cid, "ana")
        await community.wait_turn(cid, "bruno", 1)
        error_of(await community.act(cid, RESUME), 422, "combat_not_stalled")
    finally:
        await referee.aclose()
