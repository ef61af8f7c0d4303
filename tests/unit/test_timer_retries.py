"""A timer whose firing failed is due again soon, backing off while it keeps failing
(shared/timer_poller.py ``RETRY_MS``), not only when its lease runs out."""

from __future__ import annotations

from collections.abc import Sequence

from shared.timer_poller import RETRY_MS, TimerPoller
from shared.timers import Claimed

LEASE_MS = 5_000


class OneTimer:
    """A store that hands out the same due timer at every claim and records the retries."""

    def __init__(self) -> None:
        self.retries: list[int] = []
        self.acked = 0
        self.next_due_ms: int | None = None

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        return [Claimed("turn-1", now + lease_ms, {})]

    async def ack_all(self, claimed: Sequence[Claimed]) -> list[bool]:
        self.acked += len(claimed)
        return [True for _ in claimed]

    async def retry_at(self, claimed: Sequence[Claimed], at_ms: int) -> None:
        self.retries.append(at_ms)

    async def wait_armed(self, seconds: float) -> None:
        return None


async def test_failures_in_a_row_back_off_up_to_the_lease_and_a_success_starts_over() -> None:
    store = OneTimer()
    outcomes = [False, False, False, False, True, False]

    async def fire(_: Claimed) -> None:
        if not outcomes.pop(0):
            raise ConnectionError("broker away")

    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=LEASE_MS, clock=lambda: 0)
    for _ in range(6):
        await poller.run_once()
    assert store.retries == [RETRY_MS, 2 * RETRY_MS, 4 * RETRY_MS, LEASE_MS, RETRY_MS]
    assert store.acked == 1 and poller.fired == 1


async def test_a_retry_that_cannot_be_written_leaves_the_lease_to_run_out() -> None:
    store = OneTimer()

    async def no_redis(claimed: Sequence[Claimed], at_ms: int) -> None:
        raise ConnectionError("redis away")

    store.retry_at = no_redis  # type: ignore[method-assign]

    async def fire(_: Claimed) -> None:
        raise ConnectionError("broker away")

    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=LEASE_MS, clock=lambda: 0)
    assert await poller.run_once() == 1  # nothing raised: the lease is the fallback
    assert store.acked == 0
