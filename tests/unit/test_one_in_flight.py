"""One call in flight, the calls asked for meanwhile merged behind it (shared/one_in_flight.py)."""

from __future__ import annotations

import asyncio

import pytest

from shared.one_in_flight import OneInFlight, Taken


class Calls:
    """Calls that end when the test releases them; merged calls answer each item doubled."""

    def __init__(self) -> None:
        self.alone: list[int] = []
        self.together: list[list[int]] = []
        self.release = asyncio.Event()
        self.fail: Exception | None = None
        self.idle = 0

    async def run_alone(self, item: int) -> int:
        self.alone.append(item)
        await self.release.wait()
        return item * 2

    async def run_together(self, taken: Taken[int, int]) -> None:
        self.together.append([item for item, _ in taken])
        await self.release.wait()
        if self.fail is not None:
            raise self.fail
        for item, done in taken:
            if not done.done():  # a caller cancelled meanwhile
                done.set_result(item * 2)

    def lane(self, at_most: int = 10) -> OneInFlight[int, int]:
        return OneInFlight(self.run_alone, self.run_together, at_most=at_most, on_idle=self.on_idle)

    def on_idle(self) -> None:
        self.idle += 1


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_call_on_an_idle_lane_runs_alone_at_once() -> None:
    calls = Calls()
    calls.release.set()
    assert await calls.lane().run(3) == 6
    assert calls.alone == [3] and calls.together == [] and calls.idle == 1


async def test_calls_asked_meanwhile_run_together_each_getting_its_own_outcome() -> None:
    calls = Calls()
    lane = calls.lane(at_most=2)
    tasks = [asyncio.create_task(lane.run(n)) for n in (1, 2, 3, 4)]
    await settle()
    calls.release.set()
    assert await asyncio.gather(*tasks) == [2, 4, 6, 8]
    assert calls.alone == [1]
    assert calls.together == [[2, 3], [4]]  # at most two together, in the order asked
    assert calls.idle == 1


async def test_a_merged_call_that_raises_fails_each_of_its_callers_and_the_lane_goes_on() -> None:
    calls = Calls()
    lane = calls.lane()
    first = asyncio.create_task(lane.run(1))
    merged = [asyncio.create_task(lane.run(n)) for n in (2, 3)]
    await settle()
    calls.fail = RuntimeError("broker gone")
    calls.release.set()
    assert await first == 2
    for task in merged:
        with pytest.raises(RuntimeError, match="broker gone"):
            await task
    calls.fail = None
    assert await lane.run(5) == 10


async def test_a_caller_cancelled_while_waiting_leaves_the_others_their_outcome() -> None:
    calls = Calls()
    lane = calls.lane()
    first = asyncio.create_task(lane.run(1))
    gone, kept = asyncio.create_task(lane.run(2)), asyncio.create_task(lane.run(3))
    await settle()
    gone.cancel()
    await settle()
    calls.release.set()
    assert await first == 2 and await kept == 6
    assert gone.cancelled()
