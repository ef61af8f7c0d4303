"""Random players of every ruleset at once through the running suite (issue 18).

A few seeded combats of umh, cypher and l5r at the same time, with 1-3 s timers and random
legal and illegal moves (tests/randomplay). It fails on any 5xx, any 4xx without the error
body, an illegal move accepted, a fighter out of the fight acting, an impossible state, a
combat that stops moving before its end or does not end once annulled. Longer runs with many
seeds: ``python -m tests.randomplay --help`` (``RANDOM_PLAY_SEEDS``, ``RANDOM_PLAY_SECONDS``).
"""

from __future__ import annotations

import pytest

from tests.randomplay.run import Plan, run
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.timeout(150)
async def test_random_players_of_every_ruleset_break_nothing(suite: Suite) -> None:
    plan = Plan.from_env(seconds=30.0, concurrency=2)
    findings = await run(suite.base_url, suite.admin_token, plan)
    played = {k: v for k, v in findings.counts.items() if " ended " in k}
    assert not findings.items, findings.report()
    for ruleset in plan.rulesets:
        assert any(k.startswith(f"{ruleset} ended") for k in played), (ruleset, played)
