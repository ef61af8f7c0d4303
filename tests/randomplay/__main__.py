"""``python -m tests.randomplay``: the random player for longer, with many seeds.

    python -m tests.randomplay --seeds 1-200 --seconds 600 --concurrency 4
    python -m tests.randomplay --rulesets umh --seeds 17          # one seed again
    RANDOM_PLAY_SEEDS=1- RANDOM_PLAY_SECONDS=300 python -m tests.randomplay

Without ``--base-url`` it starts its own suite (the four processes, in a namespace of their
own on RabbitMQ and Redis from ``RABBITMQ_URL`` / ``REDIS_URL`` or loopback) and removes it
at the end. Exits 1 when anything was found.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from tests.randomplay.findings import Findings
from tests.randomplay.run import Plan, parse_seeds, run


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.randomplay", description=__doc__)
    parser.add_argument("--seeds", help="7, 1-200 or 1- (as many as time allows)")
    parser.add_argument("--seconds", type=float, help="how long to play (default 60)")
    parser.add_argument("--rulesets", help="comma-separated (default: umh,cypher,l5r)")
    parser.add_argument("--concurrency", type=int, help="combats per ruleset at once")
    parser.add_argument("--base-url", help="a running gateway (else a suite is started)")
    parser.add_argument("--admin-token", help="its REFEREE_ADMIN_TOKEN")
    parser.add_argument("--keep-logs", action="store_true", help="print where the logs are")
    return parser.parse_args()


def plan_of(args: argparse.Namespace) -> Plan:
    plan = Plan.from_env(seconds=60.0)
    return Plan(
        seeds=parse_seeds(args.seeds) if args.seeds else plan.seeds,
        seconds=args.seconds or plan.seconds,
        rulesets=tuple(args.rulesets.split(",")) if args.rulesets else plan.rulesets,
        concurrency=args.concurrency or plan.concurrency,
        limits=plan.limits,
    )


async def main() -> int:
    args = arguments()
    plan = plan_of(args)
    if args.base_url:
        findings = await run(args.base_url, args.admin_token or "", plan)
    else:
        findings = await with_own_suite(plan, args.keep_logs)
    print(findings.report(limit=40))
    for what, n in sorted(findings.counts.items()):
        print(f"{n:6d}  {what}")
    return 1 if findings.items else 0


async def with_own_suite(plan: Plan, keep_logs: bool) -> Findings:
    from tests.e2e.referee import start_suite, stop_suite
    from tests.support.infra import resolve_url
    from tests.support.suite import PROCESSES

    logs = Path(tempfile.mkdtemp(prefix="randomplay-"))
    suite = await start_suite(resolve_url("rabbitmq"), resolve_url("redis"), logs)
    try:
        findings = await run(suite.base_url, suite.admin_token, plan)
        for name in PROCESSES:
            for line in warnings_in(suite.tail(name, lines=1_000_000)):
                findings.add("service-log", name, line, None)
        return findings
    finally:
        await stop_suite(suite)
        if keep_logs:
            print(f"logs: {logs / suite.namespace}")


def warnings_in(log: str) -> list[str]:
    """The warnings and errors a service logged (a healthy run logs none), one per kind."""
    seen: dict[str, str] = {}
    for line in log.splitlines():
        level = line.split("]", 1)[0]
        if "warning" in level or "error" in level or "Traceback" in line:
            seen.setdefault(line[28:90], line[:300])
    return list(seen.values())


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
