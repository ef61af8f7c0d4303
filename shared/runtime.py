"""The entrypoint shared by the three services: load, decide, commit, publish, ack.

For each message (ARCHITECTURE.md "One command, end to end"): for every aggregate it
concerns, skip it if already processed there, load the state, run the pure handler, and
commit state + processed record + outbox (+ audit log + read model) in one Lua script; on a
version conflict reload and retry; then flush the outbox. A rule violation commits nothing
and answers ``command.rejected``. Only after all that does the bus adapter ack the message.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from shared.bus import Bus
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.keys import Aggregate, Keys
from shared.logging import bind_message, get_logger, unbind_message
from shared.messages import (
    CHAIN_EVENTS,
    CMD_COMBAT_ACT,
    CMD_TIMER_FIRED,
    COMMAND_REJECTED,
    INTERNAL_EVENTS,
    QUERY_ANSWERS,
    REPLY_BATCH,
    Envelope,
    Event,
    derived_id,
    subscribers_of,
    utcnow,
)
from shared.metrics import CONFLICTS, HANDLE_SECONDS, MESSAGES, TIMERS_FIRED
from shared.outbox import OutboxRelay
from shared.stalls import Stalled, StallWatch
from shared.store import AggregateStore, Commit, CommitStatus
from shared.timers import Claimed, TimerStore, now_ms

log = get_logger(__name__)

MAX_ATTEMPTS = 10

State = dict[str, Any]


@dataclass(frozen=True)
class Target:
    """One aggregate a message concerns, and its subject (combat id or character id)."""

    agg: Aggregate
    subject: str


Handler = Callable[[Envelope, State | None, Target, int], Decision[State]]


@dataclass(frozen=True)
class QueryContext:
    """What a read-only query may read besides its own aggregates: published read models."""

    redis: Redis
    keys: Keys


Query = Callable[[Envelope, dict[str, State | None], QueryContext, int], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class ServiceSpec:
    """What a service plugs into the runtime."""

    name: str
    handlers: dict[str, Handler]
    targets: Callable[[Envelope], list[Target]]
    view: Callable[[State, int], dict[str, Any] | None]
    # Active aggregates are visited by the reconciler (they may have timers armed).
    is_active: Callable[[State], bool]
    armed_timers: Callable[[State], list[TimerRequest]]
    # Aggregates that may expire get the retention TTL on their keys (an ended combat).
    expires: Callable[[State], bool]
    # Read-only questions answered straight to the asker (QUERY_ANSWERS), nothing committed.
    queries: dict[str, Query] = field(default_factory=dict)
    # Why an active aggregate waits for nothing (given how long its log has been quiet, ms),
    # or None; the reconciler logs and counts what it answers (shared/stalls.py).
    stalled: Stalled | None = None


class ServiceRuntime:
    def __init__(
        self,
        spec: ServiceSpec,
        *,
        redis: Redis,
        bus: Bus,
        keys: Keys,
        retention_seconds: int,
    ) -> None:
        self.spec = spec
        self.redis = redis
        self.bus = bus
        self.keys = keys
        self.retention_seconds = retention_seconds
        self.timers = TimerStore(redis, **keys.timer_store(spec.name))
        dirty = keys.outbox_dirty(spec.name)
        self.store = AggregateStore(
            redis, dirty_key=dirty, active_key=keys.active_combats(spec.name)
        )
        self.relay = OutboxRelay(redis, bus, self.timers, dirty_key=dirty)
        self.stalls = StallWatch(spec.name, spec.stalled, spec.view) if spec.stalled else None
        self.processed = 0

    # --- handling --------------------------------------------------------------------------
    async def handle(self, env: Envelope) -> None:
        if env.type in self.spec.queries:
            await self._answer(env, self.spec.queries[env.type])
            return
        handler = self.spec.handlers.get(env.type)
        if handler is None:
            log.warning("message_type_ignored", type=env.type)
            return
        bind_message(env)
        started = time.perf_counter()
        try:
            for target in self.spec.targets(env):
                outcome = await self._handle_target(env, target, handler)
                MESSAGES.labels(self.spec.name, env.type, outcome).inc()
            self.processed += 1
        finally:
            HANDLE_SECONDS.labels(self.spec.name, env.type).observe(time.perf_counter() - started)
            unbind_message()

    async def _handle_target(self, env: Envelope, target: Target, handler: Handler) -> str:
        """Handle one aggregate; the outcome for the metrics."""
        agg = target.agg
        for _ in range(MAX_ATTEMPTS):
            loaded = await self.store.load_unless_processed(agg, env.message_id)
            if loaded is None:
                log.info("message_already_processed", subject=target.subject)
                return "duplicate"
            now = now_ms()
            try:
                decision = handler(env, loaded.data, target, now)
            except RuleViolation as violation:
                log.info("command_rejected", code=violation.code, rule=violation.rule)
                await self._reject(env, violation.as_payload())
                return "rejected"
            if decision.state is None:
                return "unchanged"
            commit = self._commit_of(env, target, loaded.version, decision, now)
            active = self.spec.is_active(decision.state)
            result = await self.store.commit(agg, commit, active=active)
            if result.status is CommitStatus.CONFLICT:
                log.info("commit_conflict_retried", subject=target.subject)
                CONFLICTS.labels(self.spec.name).inc()
                continue
            if result.status is CommitStatus.DUPLICATE:
                return "duplicate"
            if result.status is CommitStatus.PRECONDITION:
                await self._reject(
                    env,
                    {
                        "code": "version_mismatch",
                        "rule": None,
                        "details": {
                            "expected": commit.if_match,
                            "actual": result.aggregate_version,
                        },
                    },
                )
                return "rejected"
            await self._flush(target)
            return "committed"
        raise RuntimeError(f"gave up after {MAX_ATTEMPTS} version conflicts on {agg.tag}")

    async def _answer(self, env: Envelope, query: Query) -> None:
        """A query: load the aggregates it names, answer the asker, commit nothing."""
        targets = self.spec.targets(env)
        loaded = [await self.store.load(t.agg) for t in targets]
        states = {t.subject: item.data for t, item in zip(targets, loaded, strict=True)}
        try:
            payload = await query(env, states, QueryContext(self.redis, self.keys), now_ms())
        except RuleViolation as violation:
            await self._reject(env, violation.as_payload())
            return
        MESSAGES.labels(self.spec.name, env.type, "answered").inc()
        if not env.reply_to:
            return
        answer = Envelope(
            message_id=derived_id("m", self.spec.name, env.message_id, "answer"),
            type=QUERY_ANSWERS[env.type],
            correlation_id=env.correlation_id,
            causation_id=env.message_id,
            combat_id=env.combat_id,
            room=env.room,
            tenant=env.tenant,
            occurred_at=utcnow(),
            final=True,
            reply_to=env.reply_to,
            payload=payload,
        )
        await self._reply(env.reply_to, answer)

    async def _reply(self, queue: str, message: Envelope) -> None:
        """Straight to a waiting gateway's reply queue (not mandatory: it may be gone)."""
        await self.bus.publish_raw(
            "",
            queue,
            message.to_json(),
            message_id=message.message_id,
            correlation_id=message.correlation_id,
            type_=message.type,
            mandatory=False,
        )

    async def _flush(self, target: Target) -> None:
        try:
            await self.relay.flush(target.agg.outbox)
        except Exception:
            # Committed is committed: the sweeper carries the entries out later.
            log.warning("outbox_flush_deferred", subject=target.subject, exc_info=True)

    def _commit_of(
        self, env: Envelope, target: Target, version: int, decision: Decision[State], now: int
    ) -> Commit:
        assert decision.state is not None
        # A batch ends the request's chain unless it hands over to another service; only its
        # last event carries the mark, so the gateway has every event before it answers.
        chain_ends = not any(e.type in CHAIN_EVENTS for e in decision.events)
        last = len(decision.events) - 1
        outbox: list[dict[str, Any]] = [{"k": "cancel", "id": t} for t in decision.cancel]
        outbox += [
            {
                "k": "arm",
                "id": t.timer_id,
                "due": t.due_ms,
                "p": self._timer_payload(env, target, t),
            }
            for t in decision.arm
        ]
        log_entries: list[str] = []
        occurred = utcnow()
        for index, event in enumerate(decision.events):
            final = chain_ends and index == last
            out = self._envelope(env, target, event, index, final=final, occurred=occurred)
            body = out.model_dump_json()
            if event.type not in INTERNAL_EVENTS:
                outbox.append(self._pub(self.bus.names.events(), event.type, out, body))
                log_entries.append(body)
            for service in subscribers_of(event.type):
                outbox.append(self._pub(self.bus.names.commands(service), env.room, out, body))
        if env.reply_to and log_entries:
            # The waiting gateway gets the commit's public events in one message.
            outbox.append(
                {
                    "k": "pub",
                    "x": "",
                    "r": env.reply_to,
                    "b": "[" + ",".join(log_entries) + "]",
                    "id": derived_id("m", self.spec.name, env.message_id, target.subject, "reply"),
                    "c": env.correlation_id,
                    "t": REPLY_BATCH,
                    "m": False,
                }
            )
        expires = self.spec.expires(decision.state)
        if_match = env.payload.get("if_match") if env.type == CMD_COMBAT_ACT else None
        return Commit(
            expected_version=version,
            state=decision.state,
            message_id=env.message_id,
            now_ms=now,
            outbox=outbox,
            log=log_entries,
            view=self.spec.view(decision.state, now),
            if_match=if_match if isinstance(if_match, int) else None,
            ttl_seconds=self.retention_seconds if expires else 0,
        )

    def _envelope(
        self,
        env: Envelope,
        target: Target,
        event: Event,
        index: int,
        *,
        final: bool,
        occurred: Any,
    ) -> Envelope:
        return Envelope(
            message_id=derived_id("m", self.spec.name, env.message_id, target.subject, str(index)),
            type=event.type,
            correlation_id=env.correlation_id,
            causation_id=env.message_id,
            combat_id=event.payload.get("combat_id") or env.combat_id,
            room=env.room,
            tenant=env.tenant,
            occurred_at=occurred,
            final=final,
            reply_to=env.reply_to,
            payload=event.payload,
        )

    @staticmethod
    def _pub(
        exchange: str, routing_key: str, env: Envelope, body: str, *, mandatory: bool = True
    ) -> dict[str, Any]:
        return {
            "k": "pub",
            "x": exchange,
            "r": routing_key,
            "b": body,
            "id": env.message_id,
            "c": env.correlation_id,
            "t": env.type,
            "m": mandatory,
        }

    @staticmethod
    def _timer_payload(env: Envelope, target: Target, timer: TimerRequest) -> dict[str, Any]:
        return {
            "timer_id": timer.timer_id,
            "kind": timer.kind,
            "due_ms": timer.due_ms,
            "data": timer.data,
            "tag": target.agg.tag,
            "subject": target.subject,
            "combat_id": env.combat_id,
            "room": env.room,
            "tenant": env.tenant,
        }

    async def _reject(self, env: Envelope, payload: dict[str, Any]) -> None:
        out = Envelope(
            message_id=derived_id("m", self.spec.name, env.message_id, "rejected"),
            type=COMMAND_REJECTED,
            correlation_id=env.correlation_id,
            causation_id=env.message_id,
            combat_id=env.combat_id,
            room=env.room,
            tenant=env.tenant,
            occurred_at=utcnow(),
            final=True,
            reply_to=env.reply_to,
            payload={**payload, "command_type": env.type},
        )
        await self.bus.publish(self.bus.names.events(), COMMAND_REJECTED, out)
        if env.reply_to:
            await self._reply(env.reply_to, out)

    # --- timers ----------------------------------------------------------------------------
    async def fire_timer(self, claimed: Claimed) -> None:
        """Publish a claimed timer as a ``timer.fired`` command through the bus."""
        p = claimed.payload
        env = Envelope(
            message_id=derived_id("m", self.spec.name, "timer", claimed.timer_id, str(p["due_ms"])),
            type=CMD_TIMER_FIRED,
            correlation_id=derived_id("t", claimed.timer_id),
            combat_id=p.get("combat_id"),
            room=p["room"],
            tenant=p["tenant"],
            occurred_at=utcnow(),
            payload={
                "timer_id": claimed.timer_id,
                "kind": p["kind"],
                "due_ms": p["due_ms"],
                "data": {**p.get("data", {}), "tag": p.get("tag"), "subject": p.get("subject")},
            },
        )
        await self.bus.send_command(self.spec.name, env)
        TIMERS_FIRED.labels(self.spec.name).inc()

    async def reconcile_once(self) -> int:
        """Re-arm every timer an active aggregate expects but the timer set lacks.

        Also flushes each active aggregate's outbox, the last safety net of the relay, and
        reports the aggregates that wait for nothing (``spec.stalled``, shared/stalls.py).
        """
        active_key = self.keys.active_combats(self.spec.name)
        rearmed = 0
        if self.stalls:
            self.stalls.begin()
        async for raw in self.redis.sscan_iter(active_key, count=200):
            tag = raw.decode() if isinstance(raw, bytes) else str(raw)
            agg = Aggregate(self.keys.ns, self.spec.name, tag)
            loaded = await self.store.load(agg)
            if loaded.data is None or not self.spec.is_active(loaded.data):
                await self.redis.srem(active_key, tag)
                continue
            await self.relay.flush(agg.outbox)
            state = loaded.data
            meta = _meta_of(state)
            for timer in self.spec.armed_timers(state):
                payload = {
                    "timer_id": timer.timer_id,
                    "kind": timer.kind,
                    "due_ms": timer.due_ms,
                    "data": timer.data,
                    "tag": tag,
                    "subject": meta["subject"] or tag.split(":", 1)[-1],
                    "combat_id": meta["combat_id"],
                    "room": meta["room"],
                    "tenant": meta["tenant"],
                }
                if await self.timers.arm_if_missing(timer.timer_id, timer.due_ms, payload):
                    rearmed += 1
            if self.stalls:
                await self.stalls.visit(self.redis, agg, state, now_ms())
        if self.stalls:
            self.stalls.finish()
        if rearmed:
            log.warning("timers_rearmed_by_reconciler", count=rearmed)
        return rearmed


def _meta_of(state: State) -> dict[str, Any]:
    """Routing facts every state carries (``id``/``combat_id``, ``room``, ``tenant``)."""
    return {
        "combat_id": state.get("combat_id") or state.get("id"),
        "room": state.get("room", "_"),
        "tenant": state.get("tenant", "_"),
        "subject": state.get("character") or state.get("id") or state.get("combat_id"),
    }


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
