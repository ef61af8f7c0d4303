"""When a failed delivery is tried again (docs/webhooks.md "Retries"). Pure: no clock, no
random; the caller passes the time and the jitter.

The n-th retry waits ``base * 2**(n-1)`` seconds (5 s, 10 s, 20 s, ... with the default
base), at most ``cap``, stretched by up to 10 % of jitter so that deliveries that failed
together do not all come back together. Retries go on while the next one falls within
``window`` of the first attempt (a day by default); then the delivery is failed and waits for
a manual retry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    base_seconds: float = 5.0
    cap_seconds: float = 4 * 3600.0
    window_seconds: float = 24 * 3600.0

    def delay(self, failures: int, jitter: float) -> float:
        """Seconds before the next attempt after ``failures`` failed ones (``jitter`` in
        [0, 1))."""
        exponent = min(max(failures - 1, 0), 40)
        return min(self.base_seconds * 2.0**exponent, self.cap_seconds) * (1 + 0.1 * jitter)

    def next_attempt_ms(
        self, first_ms: int, now_ms: int, failures: int, jitter: float
    ) -> int | None:
        """When to try again, or None once that would fall past the window."""
        due = now_ms + int(self.delay(failures, jitter) * 1000)
        return due if due - first_ms <= self.window_seconds * 1000 else None
