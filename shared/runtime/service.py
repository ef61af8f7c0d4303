"""One service's runtime: its spec wired to the adapters, one object per job.

``handle`` (message handling and queries), ``fire_timer`` (the timer lane) and
``reconcile_once`` (the reconciler) are what the process bootstrap (``shared/service_main.py``)
plugs into the bus consumer, the timer poller and the periodic reconcile.
"""

from __future__ import annotations

from redis.asyncio import Redis

from shared.bus import Bus as RabbitBus
from shared.keys import Keys
from shared.messages import Envelope
from shared.outbox import OutboxRelay
from shared.runtime.commits import CommitBuilder
from shared.runtime.firing import TimerFiring
from shared.runtime.handling import MessageHandling
from shared.runtime.outgoing import Outgoing
from shared.runtime.ports import Bus, Clock, Relay, Store, SystemClock, Timers
from shared.runtime.queries import QueryAnswering
from shared.runtime.reconcile import Reconciler
from shared.runtime.spec import ServiceSpec
from shared.store import AggregateStore
from shared.timers import DEFAULT_SHARDS, Claimed, TimerStore


class ServiceRuntime:
    def __init__(
        self,
        spec: ServiceSpec,
        *,
        keys: Keys,
        store: Store,
        relay: Relay,
        timers: Timers,
        bus: Bus,
        retention_seconds: int,
        clock: Clock | None = None,
        batches: bool = True,
    ) -> None:
        clock = clock or SystemClock()
        self.spec = spec
        self.keys = keys
        outgoing = Outgoing(spec.name, bus, clock)
        self.commits = CommitBuilder(spec, bus.names, retention_seconds, batches)
        self.messages = MessageHandling(
            spec,
            store=store,
            relay=relay,
            commits=self.commits,
            queries=QueryAnswering(spec, store, keys, outgoing, clock),
            outgoing=outgoing,
            clock=clock,
        )
        self.firing = TimerFiring(
            spec, bus, clock, store=store, ns=keys.ns, apply=self.messages.apply_fired
        )
        self.reconciler = Reconciler(
            spec, keys=keys, store=store, relay=relay, timers=timers, clock=clock
        )

    async def handle(self, env: Envelope) -> None:
        await self.messages.handle(env)

    async def fire_timer(self, claimed: Claimed) -> None:
        await self.firing.fire(claimed)

    async def reconcile_once(self) -> int:
        return await self.reconciler.reconcile_once()

    @property
    def processed(self) -> int:
        return self.messages.processed


class RedisServiceRuntime(ServiceRuntime):
    """The runtime of a process: state, outbox and timers in Redis, messages on RabbitMQ."""

    def __init__(
        self,
        spec: ServiceSpec,
        *,
        redis: Redis,
        bus: RabbitBus,
        keys: Keys,
        retention_seconds: int,
        timer_shards: int = DEFAULT_SHARDS,
        batches: bool = True,
    ) -> None:
        dirty = keys.outbox_dirty(spec.name)
        self.store = AggregateStore(
            redis, dirty_key=dirty, active_key=keys.active_combats(spec.name)
        )
        self.timers = TimerStore(redis, keys.timer_shards(spec.name, timer_shards))
        self.relay = OutboxRelay(redis, bus, self.timers, dirty_key=dirty)
        super().__init__(
            spec,
            keys=keys,
            store=self.store,
            relay=self.relay,
            timers=self.timers,
            bus=bus,
            retention_seconds=retention_seconds,
            batches=batches,
        )
