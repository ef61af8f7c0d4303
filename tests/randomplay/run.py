"""A run: many seeded combats of each ruleset at once against one running suite.

Every seed is one combat of each ruleset (its generator is ``Random("<ruleset>:<seed>")``);
``concurrency`` combats of each ruleset are played at a time, all rulesets together, until
the seeds run out or the time does (the combats still running are then annulled by the
moderator and must end).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field

from tests.randomplay.client import Api
from tests.randomplay.cypher import CypherPlayer
from tests.randomplay.findings import Findings
from tests.randomplay.game import Game, Limits
from tests.randomplay.l5r import L5rPlayer
from tests.randomplay.moves import RulesetPlayer, Table
from tests.randomplay.umh import UmhPlayer

PLAYERS: dict[str, RulesetPlayer] = {
    "umh": UmhPlayer(),
    "cypher": CypherPlayer(),
    "l5r": L5rPlayer(),
}


@dataclass(frozen=True)
class Plan:
    seeds: tuple[int, int | None] = (1, None)
    """First seed and last one (``None``: as many as the time allows)."""
    seconds: float = 30.0
    rulesets: tuple[str, ...] = tuple(PLAYERS)
    concurrency: int = 3
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def from_env(cls, **defaults: object) -> Plan:
        """``RANDOM_PLAY_SEEDS`` (``7``, ``1-200`` or ``1-``), ``RANDOM_PLAY_SECONDS``,
        ``RANDOM_PLAY_RULESETS`` (``umh,l5r``), ``RANDOM_PLAY_CONCURRENCY``."""
        plan = cls(**defaults)  # type: ignore[arg-type]
        seeds = os.environ.get("RANDOM_PLAY_SEEDS")
        seconds = os.environ.get("RANDOM_PLAY_SECONDS")
        rulesets = os.environ.get("RANDOM_PLAY_RULESETS")
        concurrency = os.environ.get("RANDOM_PLAY_CONCURRENCY")
        return cls(
            seeds=parse_seeds(seeds) if seeds else plan.seeds,
            seconds=float(seconds) if seconds else plan.seconds,
            rulesets=tuple(rulesets.split(",")) if rulesets else plan.rulesets,
            concurrency=int(concurrency) if concurrency else plan.concurrency,
            limits=plan.limits,
        )


def parse_seeds(text: str) -> tuple[int, int | None]:
    first, dash, last = text.partition("-")
    if not dash:
        return int(first), int(first)
    return int(first), int(last) if last else None


async def run(base_url: str, admin_token: str, plan: Plan) -> Findings:
    """Play the plan; every finding of every combat."""
    findings = Findings()
    api = Api(base_url, admin_token, findings)
    deadline = time.monotonic() + plan.seconds
    try:
        workers = []
        for ruleset in plan.rulesets:
            seeds = seed_source(plan.seeds)
            workers += [
                worker(api, PLAYERS[ruleset], seeds, deadline, plan.limits)
                for _ in range(plan.concurrency)
            ]
        await asyncio.gather(*workers)
    finally:
        await api.aclose()
    return findings


def seed_source(seeds: tuple[int, int | None]) -> Iterator[int]:
    first, last = seeds
    return iter(range(first, last + 1)) if last is not None else itertools.count(first)


async def worker(
    api: Api, player: RulesetPlayer, seeds: Iterator[int], deadline: float, limits: Limits
) -> None:
    """Combats one after the other, each with the next seed, until seeds or time run out."""
    for seed in seeds:
        if time.monotonic() > deadline - 3:
            return
        await play_one(api, player, seed, deadline, limits)


async def play_one(
    api: Api, player: RulesetPlayer, seed: int, deadline: float, limits: Limits
) -> None:
    rng = random.Random(f"{player.ruleset}:{seed}")
    where = f"{player.ruleset} seed={seed}"
    settings = player.settings(rng)
    key = await api.new_community(f"random-{player.ruleset}-{seed}", settings)
    table = Table(api, key, await api.frontend_key(key), rng, where, player.ruleset)
    game = Game(api, player, table, settings, limits)
    try:
        await game.play(deadline)
    except Exception:  # a crash of the player is reported, the other combats go on
        api.findings.add("player", game.where, traceback.format_exc(limit=6), None)
