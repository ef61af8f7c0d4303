"""``python -m bench`` (``make bench``): load the suite, then the bare stack, and compare.

Starts the four processes of the suite in a namespace and on a port of their own (as the
end-to-end tests do), plays ``--combats`` combats through the public API for ``--warmup``
plus ``--seconds``, measures turn-timer lateness and Redis memory per combat (and, at the
largest size, how soon ``--overdue-timers`` timers fire after a restart of services/turns),
stops the suite and deletes its namespace; then drives the bare stack (FastAPI -> RabbitMQ
-> one Lua script -> reply) with the same concurrency and duration, and prints the suite's
figures beside it. Every figure also goes to ``--out/<time>.json``; the processes' logs to
``--out/<time>/``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import secrets
import time
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from bench import overdue
from bench.baseline import run_bare
from bench.logs import summarise_logs
from bench.procs import wait_quiet
from bench.scenario import Plan, run_suite
from bench.stats import render
from bench.targets import render as render_targets
from shared.namespace import drop_namespace
from tests.support.infra import (
    LOOPBACK_RABBITMQ,
    LOOPBACK_REDIS,
    new_namespace,
)
from tests.support.suite import PROCESSES, Suite, free_port


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--combats",
        type=int,
        nargs="+",
        default=[10, 200],
        help="concurrent combats; each size is a suite run and a bare run (10 200)",
    )
    parser.add_argument(
        "--viewers",
        type=int,
        default=1000,
        help="idle SSE viewers of a second load at the largest size (1000; 0: no second load)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short check of the bench itself: 10 combats, 2+8 s, 10 timer combats of 2 s turns, "
        "100 viewers, 50 overdue timers",
    )
    parser.add_argument("--seconds", type=float, default=60, help="measured seconds (60)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds first (5)")
    parser.add_argument("--partitions", type=int, default=32, help="REFEREE_PARTITIONS (32)")
    parser.add_argument(
        "--replicas",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1],
        help="replicas per service; a list (1,2) plays the suite once per count and prints "
        "the actions/s ratio of the last to the first (1)",
    )
    parser.add_argument("--timer-combats", type=int, default=20, help="idle combats (20)")
    parser.add_argument(
        "--timer-turn-seconds",
        type=int,
        default=4,
        help="the turn of the idle combats: their timers fire timer-combats / this many times "
        "a second (4; --quick 2)",
    )
    parser.add_argument(
        "--overdue-timers",
        type=int,
        default=None,
        help="turn timers that fall due while services/turns is down, at the largest size; "
        "the time from its restart until the last fired (2000, --quick 50; 0: not measured)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench/out"), help="JSON and logs")
    parser.add_argument("--skip-bare", action="store_true", help="do not run the bare stack")
    parser.add_argument("--skip-suite", action="store_true", help="run only the bare stack")
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=120,
        help="wait up to this many seconds for the machine to be idle before each part (120)",
    )
    parser.add_argument(
        "--bare-mode",
        choices=("process", "thread"),
        default="process",
        help="serve the bare stack from a child process (default) or a thread of this one",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.combats, args.seconds, args.warmup, args.timer_combats = [10], 8.0, 2.0, 10
        args.timer_turn_seconds = 2
        if args.overdue_timers is None:
            args.overdue_timers = 50
        args.viewers = min(args.viewers, 100)
        args.quiet_wait = min(args.quiet_wait, 10)
    if args.overdue_timers is None:
        args.overdue_timers = 2000
    return args


async def suite_phase(
    args: argparse.Namespace,
    combats: int,
    namespace: str,
    urls: tuple[str, str],
    log_dir: Path,
    replicas: int = 1,
) -> dict[str, Any]:
    rabbitmq_url, redis_url = urls
    # Each service replica serves its metrics (the broker messages it published and
    # consumed); the gateway serves its own on the API's port.
    services = [name for name in PROCESSES if name != "gateway"]
    replica_names = [f"{s}-{r}" if r > 1 else s for s in services for r in range(1, replicas + 1)]
    metrics_ports = {name: free_port() for name in replica_names}
    suite = Suite(
        namespace=namespace,
        rabbitmq_url=rabbitmq_url,
        redis_url=redis_url,
        log_dir=log_dir,
        admin_token=secrets.token_urlsafe(32),
        partitions=args.partitions,
        replicas=replicas,
        # One key drives every combat here: lift its rate limit so the suite is what is measured.
        extra_env={
            "LOG_JSON": "true",
            "REFEREE_RATE_PER_SECOND": "100000",
            "REFEREE_RATE_BURST": "100000",
        },
        process_env={
            name: {"REFEREE_METRICS_PORT": str(port)} for name, port in metrics_ports.items()
        },
    )
    redis = Redis.from_url(redis_url)
    try:
        print(f"starting the suite in namespace {namespace} on {suite.base_url} ...", flush=True)
        await asyncio.to_thread(suite.start_all)
        plan = Plan(
            base_url=suite.base_url,
            admin_token=suite.admin_token,
            namespace=namespace,
            combats=combats,
            warmup=args.warmup,
            seconds=args.seconds,
            timer_combats=args.timer_combats,
            timer_turn_seconds=args.timer_turn_seconds,
            viewers=args.viewers if combats == max(args.combats) else 0,
            metrics=(
                f"{suite.base_url}/metrics",
                *(f"http://127.0.0.1:{port}/metrics" for port in metrics_ports.values()),
            ),
        )
        pids = {name: proc.pid for name, proc in suite.procs.items()}
        print(f"playing {combats} combats for {args.warmup}+{args.seconds} s ...", flush=True)
        figures = await run_suite(plan, redis, pids)
        if combats == max(args.combats) and args.overdue_timers:
            figures["restart_timers"] = await overdue.measure(suite, redis, args.overdue_timers)
        figures["exited"] = {
            n: p.returncode for n, p in suite.procs.items() if p.poll() is not None
        }
        return figures
    finally:
        await asyncio.to_thread(suite.stop_all)
        # What `python -m shared.ops drop-namespace --force` does: queues, exchanges, keys.
        await drop_namespace(rabbitmq_url, redis, namespace, force=True)
        await redis.aclose()
        print(f"suite stopped; namespace {namespace} deleted", flush=True)


async def run(args: argparse.Namespace, stamp: str) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seconds": args.seconds,
        "warmup": args.warmup,
        "partitions": args.partitions,
        "machine": {"nproc": os.cpu_count(), "python": platform.python_version()},
        "runs": {},
    }
    for combats in args.combats:
        figures["runs"][combats] = await run_size(args, combats, args.out / stamp / str(combats))
    return figures


async def run_size(args: argparse.Namespace, combats: int, log_dir: Path) -> dict[str, Any]:
    """The suite, then the bare stack, at one size, each in a namespace of its own."""
    urls = (
        os.environ.get("RABBITMQ_URL") or LOOPBACK_RABBITMQ,
        os.environ.get("REDIS_URL") or LOOPBACK_REDIS,
    )
    namespace = new_namespace("bench")
    figures: dict[str, Any] = {"combats": combats}
    if not args.skip_suite:
        figures["busy_cores_before_suite"] = await wait_quiet(args.quiet_wait)
        try:
            figures["suite"] = await suite_phase(
                args, combats, namespace, urls, log_dir, args.replicas[0]
            )
            if len(args.replicas) > 1:
                figures["replicas"] = await replica_runs(args, combats, figures, urls, log_dir)
        finally:
            figures["logs"] = summarise_logs(log_dir)
    if not args.skip_bare:
        figures["busy_cores_before_bare"] = await wait_quiet(args.quiet_wait)
        print(f"driving the bare stack ({args.bare_mode}, {combats} clients) ...", flush=True)
        figures["bare"] = await run_bare(
            namespace=f"{namespace}bare",
            rabbitmq_url=urls[0],
            redis_url=urls[1],
            clients=combats,
            warmup=args.warmup,
            seconds=args.seconds,
            mode=args.bare_mode,
            log_dir=log_dir,
        )
    return figures


async def replica_runs(
    args: argparse.Namespace,
    combats: int,
    figures: dict[str, Any],
    urls: tuple[str, str],
    log_dir: Path,
) -> dict[str, Any]:
    """The suite again for every further replica count; actions/s of each and the ratio."""
    per_second = {args.replicas[0]: figures["suite"]["load"]["per_second"]}
    for count in args.replicas[1:]:
        figures["busy_cores_before_suite"] = await wait_quiet(args.quiet_wait)
        print(f"again with {count} replicas per service ...", flush=True)
        ns = new_namespace("bench")
        run = await suite_phase(args, combats, ns, urls, log_dir / f"r{count}", count)
        per_second[count] = run["load"]["per_second"]
    first, last = args.replicas[0], args.replicas[-1]
    ratio = per_second[last] / per_second[first] if per_second[first] else None
    return {"actions_per_second": per_second, "ratio": ratio, "of": [last, first]}


def replica_line(figures: dict[str, Any]) -> str | None:
    runs = figures.get("replicas")
    if not runs:
        return None
    last, first = runs["of"]
    counts = ", ".join(f"{n} replicas {v:.2f}" for n, v in runs["actions_per_second"].items())
    ratio = "n/a" if runs["ratio"] is None else f"{runs['ratio']:.2f}"
    return f"== replicas per service: actions/s {counts}; ratio {last}/{first} = {ratio} =="


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    figures = asyncio.run(run(args, stamp))
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{stamp}.json"
    path.write_text(json.dumps(figures, indent=2) + "\n")
    for run_figures in figures["runs"].values():
        print(render(run_figures))
        line = replica_line(run_figures)
        if line:
            print(line)
        if run_figures.get("logs"):
            print(f"log lines by level and event: {json.dumps(run_figures['logs'])}")
    print("\n".join(render_targets(figures["runs"])))
    print(f"figures: {path}")


if __name__ == "__main__":
    main()
