"""Random players of every ruleset at once through the running suite (issue 18).

Seeded combats of umh, cypher and l5r at the same time, with 1-4 s timers and random legal
and illegal moves (tests/randomplay, docs/random-play.md). It fails on any 5xx, any 4xx
without the error body, an illegal move accepted, a fighter out of the fight acting, an
impossible state, a combat that stops moving before its end or does not end once annulled,
what services/states keeps after the end, and a log whose hits or dice do not add up.
``make test`` plays 30 s; ``make test-all`` also plays 2 minutes with other seeds; longer
runs: ``python -m tests.randomplay --help`` (``RANDOM_PLAY_SEEDS``, ``RANDOM_PLAY_SECONDS``).
"""

from __future__ import annotations

import pytest

from tests.randomplay.run import Plan, run
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

SHORT = Plan.from_env(seconds=20.0, concurrency=2)
LONG = Plan.from_env(seeds=(100_000, None), seconds=120.0, concurrency=3)
DRAIN_SECONDS = 120
"""Beyond the play time: the last combats' annulment, their end and their aftermath."""


async def play(suite: Suite, plan: Plan) -> None:
    findings = await run(suite.base_url, suite.admin_token, plan)
    played = [k for k in findings.counts if " ended " in k]
    assert not findings.items, findings.report()
    for ruleset in plan.rulesets:
        assert any(k.startswith(f"{ruleset} ended") for k in played), (ruleset, played)


@pytest.mark.timeout(SHORT.seconds + DRAIN_SECONDS)
async def test_random_players_of_every_ruleset_break_nothing(suite: Suite) -> None:
    await play(suite, SHORT)


@pytest.mark.slow
@pytest.mark.timeout(LONG.seconds + DRAIN_SECONDS)
async def test_random_players_for_two_minutes_with_other_seeds(suite: Suite) -> None:
    await play(suite, LONG)
