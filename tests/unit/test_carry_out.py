"""shared/outbox.py ``carry_out``: a commit's timer entries and its publishes go out together
(a publish does not wait for the timers' round trip), and what failed is kept, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from shared.outbox import carry_out
from shared.outbox_entry import ArmTimer, CancelTimer, OutboxEntry, Publish, TimerOp

ENTRIES: list[tuple[str, OutboxEntry]] = [
    ("1-0", CancelTimer("t0", "combat:c1")),
    ("1-1", ArmTimer("t1", 5_000, {"tag": "combat:c1"})),
    ("1-2", Publish("events", "turn.started", "{}", "m1")),
    ("1-3", Publish("commands.resolution", "plaza", "{}", "m2")),
]


class Timers:
    def __init__(self, *, fails: bool = False) -> None:
        self.release = asyncio.Event()
        self.applied: list[TimerOp] = []
        self._fails = fails

    async def apply(self, ops: Sequence[TimerOp]) -> None:
        await self.release.wait()
        if self._fails:
            raise ConnectionError("redis went away")
        self.applied += ops


class Bus:
    def __init__(self, *, refuses: str | None = None) -> None:
        self.published: list[str] = []
        self._refuses = refuses

    async def publish_raw(
        self,
        exchange: str,
        routing_key: str,
        body: bytes,
        *,
        message_id: str,
        correlation_id: str | None = None,
        type_: str | None = None,
        mandatory: bool = True,
    ) -> None:
        if message_id == self._refuses:
            raise ConnectionError("not confirmed")
        self.published.append(message_id)


async def test_the_publishes_do_not_wait_for_the_timers_round_trip() -> None:
    timers, bus = Timers(), Bus()
    carrying = asyncio.create_task(carry_out(ENTRIES, timers, bus))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert bus.published == ["m1", "m2"]  # while the timers' round trip is still out
    assert not carrying.done()
    timers.release.set()
    assert await carrying == (["1-0", "1-1", "1-2", "1-3"], None)
    assert [op.timer_id for op in timers.applied] == ["t0", "t1"]


@pytest.mark.parametrize(
    ("timers_fail", "refused", "done"),
    [
        (True, None, []),  # the timers come first: nothing is done, all is carried out again
        (False, "m2", ["1-0", "1-1", "1-2"]),
        (False, "m1", ["1-0", "1-1"]),
    ],
)
async def test_only_the_entries_before_the_first_failure_count_as_done(
    timers_fail: bool, refused: str | None, done: list[str]
) -> None:
    timers, bus = Timers(fails=timers_fail), Bus(refuses=refused)
    timers.release.set()
    applied, failure = await carry_out(ENTRIES, timers, bus)
    assert applied == done
    assert isinstance(failure, ConnectionError)
