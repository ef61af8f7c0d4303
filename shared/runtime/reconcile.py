"""The reconciler: the last safety net for what an active aggregate expects.

For every aggregate marked active it flushes the outbox (a relay and a sweeper both missed
it) and re-arms every timer the state expects but the timer store lacks (a Redis restart
without persistence, a lost arm). The active set is a hint: an aggregate no longer active
is dropped from it. It also reports the aggregates that wait for nothing at all
(``spec.stalled``, shared/stalls.py).
"""

from __future__ import annotations

from typing import Any

from shared.keys import Aggregate, Keys
from shared.logging import get_logger
from shared.runtime.firing import timer_payload
from shared.runtime.ports import Clock, Relay, Store, Timers
from shared.runtime.spec import ServiceSpec, State
from shared.stalls import StallWatch

log = get_logger(__name__)

# Timers a pass names in its warning (the first ones it re-armed): after Redis lost a timer
# set a pass re-arms thousands, and the count says how many.
NAMED_REARMED = 20


class Reconciler:
    def __init__(
        self,
        spec: ServiceSpec,
        *,
        keys: Keys,
        store: Store,
        relay: Relay,
        timers: Timers,
        clock: Clock,
    ) -> None:
        self._spec = spec
        self._keys = keys
        self._store = store
        self._relay = relay
        self._timers = timers
        self._clock = clock
        self._stalls = (
            StallWatch(spec.name, spec.stalled, spec.view, store) if spec.stalled else None
        )

    async def reconcile_once(self) -> int:
        """One pass over the active aggregates; how many timers it re-armed."""
        rearmed = 0
        named: list[str] = []
        outboxes: list[str] = []  # for each named timer: how late, and its outbox then
        if self._stalls:
            self._stalls.begin()
        async for tag in self._store.active_tags():
            agg = Aggregate(self._keys.ns, self._spec.name, tag)
            loaded = await self._store.load(agg)
            if loaded.data is None or not self._spec.is_active(loaded.data):
                await self._store.forget_active(tag)
                continue
            await self._relay.flush(agg.outbox)
            state = loaded.data
            meta = _meta_of(state)
            for timer in self._spec.armed_timers(state):
                payload = timer_payload(
                    timer,
                    tag=tag,
                    subject=meta["subject"] or tag.split(":", 1)[-1],
                    combat_id=meta["combat_id"],
                    room=meta["room"],
                    tenant=meta["tenant"],
                )
                if await self._timers.arm_if_missing(timer.timer_id, timer.due_ms, payload):
                    rearmed += 1
                    if len(named) < NAMED_REARMED:
                        named.append(timer.timer_id)
                        entries_left, lock_ms = await self._relay.waiting(agg.outbox)
                        outboxes.append(
                            f"{timer.timer_id}: due {self._clock.now_ms() - timer.due_ms} ms "
                            f"ago, outbox {entries_left} entries, lock {lock_ms} ms"
                        )
            if self._stalls:
                await self._stalls.visit(agg, state, self._clock.now_ms())
        if self._stalls:
            self._stalls.finish()
        if rearmed:
            log.warning(
                "timers_rearmed_by_reconciler", count=rearmed, timer_ids=named, outboxes=outboxes
            )
        return rearmed


def _meta_of(state: State) -> dict[str, Any]:
    """Routing facts every state carries (``id``/``combat_id``, ``room``, ``tenant``)."""
    return {
        "combat_id": state.get("combat_id") or state.get("id"),
        "room": state.get("room", "_"),
        "tenant": state.get("tenant", "_"),
        "subject": state.get("character") or state.get("id") or state.get("combat_id"),
    }
