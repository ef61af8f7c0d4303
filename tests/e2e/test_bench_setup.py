"""The bench sets its combats up through the project's client (bench/api.py): two pairs on
the real suite, started and fighting, their logs read back."""

from __future__ import annotations

import pytest
from referee_client import AsyncReferee

from bench import api
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]


async def test_the_bench_setup_starts_fighting_combats(suite: Suite) -> None:
    async with AsyncReferee(suite.base_url, suite.admin_token) as admin:
        _, key = await api.create_community(admin, "bench-e2e", {"preparation_seconds": 1})
    async with AsyncReferee(suite.base_url, key) as community:
        assert (await community.get_settings())["timers"]["preparation_seconds"] == 1
        pairs = await api.register_pairs(community, "e", 2)
        ids = await api.start_challenges(community, pairs, "bench-e2e-")
        views = await api.wait_phase(community, ids, "fighting", within=20)
        assert {v["turn"]["actor"] for v in views.values()} <= {"ea0", "ea1", "eb0", "eb1"}
        log = await api.combat_log(community, ids[0])
        assert log[0]["type"] == "combat.started"
