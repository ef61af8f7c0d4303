"""The short chaos run of ``make test``: a few faults on a private RabbitMQ and Redis."""

from __future__ import annotations

import pytest

from tests.chaos.__main__ import run, verdict

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.timeout(360)
async def test_nothing_lost_doubled_or_unfired_under_a_few_faults() -> None:
    results = await run(
        [
            "kill_9_each_service",
            "poison_message",
            "idempotency_key_20_ways",
            "racing_pairs",
            "timers_due_while_killed",
        ],
        quick=True,
    )
    assert len(results) == 5, results
    assert verdict(results) == [], results
    poison = next(r for r in results if r["scenario"] == "poison_message")
    assert poison["dead_lettered"] == 1, poison
    idem = next(r for r in results if r["scenario"] == "idempotency_key_20_ways")
    assert idem["keys_with_two_actions"] == 0 and idem["keys_applied"] >= 1, idem
