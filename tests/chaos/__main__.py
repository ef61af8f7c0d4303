"""``make chaos`` (= ``python -m tests.chaos``): every fault scenario, with its figures;
``python -m tests.chaos --soak 20000``: the soak run (tests/chaos/soak.py).

Starts a RabbitMQ node and a Redis of its own (own ports, AOF ``always``), the suite on them,
runs the scenarios one after another, prints one line of figures per scenario and writes them
all to ``--out`` (JSON). ``--quick`` runs a short version (the one ``make test`` runs too).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tests.chaos import properties as pr
from tests.chaos import scenarios as sc
from tests.chaos.soak import soak
from tests.chaos.stack import Stack
from tests.chaos.stalls import StallReader

Scenario = Callable[[Stack], Awaitable[sc.Outcome]]


def plan(quick: bool) -> dict[str, tuple[bool, Scenario]]:
    """name -> (needs the proxied stack, scenario)."""
    n = 10 if quick else 40
    seconds = 16.0 if quick else 60.0
    background = 6 if quick else 20
    services = (
        ["turns", "resolution", "gateway"]
        if quick
        else ["turns", "resolution", "states", "gateway"]
    )

    def killing(stack: Stack) -> Awaitable[sc.Outcome]:
        fault = sc.kill_each(services, times=1 if quick else 3, every=2.0 if quick else 3.0)
        return sc.played(
            stack, "kill_9_each_service", combats=n, seconds=seconds, fault=fault, fault_at=4.0
        )

    def rabbit(stack: Stack) -> Awaitable[sc.Outcome]:
        return sc.played(
            stack,
            "rabbitmq_restart",
            combats=n,
            seconds=seconds,
            fault=sc.restart_rabbitmq,
            fault_at=4.0,
        )

    def redis(stack: Stack) -> Awaitable[sc.Outcome]:
        return sc.played(
            stack,
            "redis_restart_aof_always",
            combats=n,
            seconds=seconds,
            fault=sc.restart_redis,
            fault_at=4.0,
        )

    def proxy(stack: Stack) -> Awaitable[sc.Outcome]:
        return sc.played(
            stack,
            "tcp_proxy_cut_and_slow",
            combats=n,
            seconds=seconds,
            fault=sc.cut_and_slow,
            fault_at=4.0,
        )

    async def poison(stack: Stack) -> sc.Outcome:
        outcome = await sc.played(
            stack, "poison_message", combats=n, seconds=seconds / 2, fault=sc.poison, fault_at=3.0
        )
        dead = await sc.dead_letters(stack, "turns")
        outcome.notes["dead_lettered"] = sum(1 for m in dead if m in sc.stack_poison)
        return outcome

    async def idem(stack: Stack) -> sc.Outcome:
        return await pr.one_key_20_ways(stack, background=background)

    async def race(stack: Stack) -> sc.Outcome:
        return await pr.racing_pairs(
            stack, pairs=50 if quick else 1000, combats=n, background=background
        )

    async def timers(stack: Stack) -> sc.Outcome:
        return await pr.timers_while_down(
            stack,
            combats=50 if quick else 2000,
            turn_seconds=8 if quick else 60,
            background=background,
        )

    chosen: dict[str, tuple[bool, Scenario]] = {
        "kill_9_each_service": (False, killing),
        "poison_message": (False, poison),
        "idempotency_key_20_ways": (False, idem),
        "racing_pairs": (False, race),
        "timers_due_while_killed": (False, timers),
    }
    if not quick:
        chosen = {
            **chosen,
            "rabbitmq_restart": (False, rabbit),
            "redis_restart_aof_always": (False, redis),
            "tcp_proxy_cut_and_slow": (True, proxy),
        }
    return chosen


async def run(
    names: list[str] | None, quick: bool, out: Path | None = None
) -> list[dict[str, Any]]:
    chosen = plan(quick)
    if names:
        chosen = {k: v for k, v in chosen.items() if k in names}
    results: list[dict[str, Any]] = []
    base = Path(tempfile.mkdtemp(prefix="chaos-"))
    for proxied in (False, True):
        group = {k: v for k, v in chosen.items() if v[0] == proxied}
        if not group:
            continue
        stack = Stack(base / ("proxied" if proxied else "plain"), proxied=proxied)
        started = time.monotonic()
        await stack.start()
        print(f"stack up in {time.monotonic() - started:.1f} s: {stack.suite.base_url}", flush=True)
        try:
            for _, scenario in group.values():
                results.append(await measured(stack, scenario))
        finally:
            await stack.stop()
    if out is not None:
        await asyncio.to_thread(write, out, results)
    return results


async def run_soak(
    actions: int, out: Path | None = None, max_seconds: float | None = None
) -> list[dict[str, Any]]:
    """The soak run alone (tests/chaos/soak.py), on a proxied stack of its own."""
    stack = Stack(Path(tempfile.mkdtemp(prefix="chaos-soak-")), proxied=True)
    await stack.start()
    try:
        results = [
            await measured(
                stack, lambda s: soak(s, actions=actions, max_seconds=max_seconds, keep=kept(out))
            )
        ]
    finally:
        await stack.stop()
    if out is not None:
        await asyncio.to_thread(write, out, results)
    return results


def kept(out: Path | None) -> Path | None:
    """Where the soak keeps what its checker read (next to ``--out``)."""
    return None if out is None else out.with_suffix(".read.json")


async def measured(stack: Stack, scenario: Scenario) -> dict[str, Any]:
    """One scenario's figures, with the stalled-combat metric read all through it."""
    began, logged = time.monotonic(), stack.stalls_logged()
    reader = StallReader(stack.metrics_port)
    reader.start()
    outcome = await scenario(stack)
    stalls = await reader.stop()
    stalls["stalled_logged"] = stack.stalls_logged() - logged
    stalls["stalled_combats"] = max(
        stalls["stalled_gauge_max"], stalls["stalled_detected"], stalls["stalled_logged"]
    )
    line = outcome.as_dict() | stalls | {"seconds": round(time.monotonic() - began, 1)}
    print(json.dumps(line), flush=True)
    return line


def write(out: Path, results: list[dict[str, Any]]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


def verdict(results: list[dict[str, Any]]) -> list[str]:
    """What fails the run: anything unanswered, lost, doubled, stuck, unfired, missing from the
    aftermath or different from the replay, a stalled combat counted, or a fault that never hit."""
    bad = []
    for r in results:
        if not r.get("redeliveries"):
            bad.append(f"{r['scenario']}: no redelivery observed (the fault did not hit)")
        for key in (
            "unanswered",
            "lost",
            "duplicated_effects",
            "stuck",
            "timers_never_fired",
            "timers_fired_twice",
            "aftermath_missing",
            "mismatches",
            "stalled_combats",
        ):
            if r.get(key):
                bad.append(f"{r['scenario']}: {key} = {r[key]}")
        if r.get("keys_with_two_actions"):
            bad.append(f"{r['scenario']}: {r['keys_with_two_actions']} keys applied twice")
        if r.get("pairs_both_acknowledged"):
            bad.append(f"{r['scenario']}: {r['pairs_both_acknowledged']} pairs both applied")
        if r.get("not_fired_after_restart"):
            bad.append(f"{r['scenario']}: {r['not_fired_after_restart']} timers did not fire")
    return bad


def _interrupted(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C, so that the private servers and the suite are stopped."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _interrupted)
    parser = argparse.ArgumentParser(prog="python -m tests.chaos", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the short version (make test)")
    parser.add_argument("--scenario", action="append", help="run only these (repeatable)")
    parser.add_argument("--out", type=Path, default=Path("tests/chaos/out/latest.json"))
    parser.add_argument(
        "--soak",
        type=int,
        metavar="ACTIONS",
        help="only the soak run: this many actions acknowledged under every fault",
    )
    parser.add_argument(
        "--soak-seconds", type=float, help="stop the soak run after this long, wherever it is"
    )
    args = parser.parse_args(argv)
    if args.soak:
        results = asyncio.run(run_soak(args.soak, args.out, args.soak_seconds))
    else:
        results = asyncio.run(run(args.scenario, args.quick, args.out))
    bad = verdict(results)
    for line in bad:
        print("FAILED", line)
    print(f"figures: {args.out}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
