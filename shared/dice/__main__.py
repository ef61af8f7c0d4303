"""``python -m shared.dice verify <combat log>``: recompute every roll of a finished combat.

The log is the JSON of ``GET /v1/combats/{id}/log`` (or a list of its events). The check:
the seed revealed in ``combat.ended`` hashes to the commitment published in
``combat.started``, and every ``dice.rolled`` event is what that seed gives, draw for draw.
``python -m shared.dice roll 3k2`` rolls an expression with the system's randomness.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shared.dice.rolls import replay, roll
from shared.dice.streams import SystemStream, commitment

DICE_ROLLED = "dice.rolled"


def events_of(document: Any) -> list[dict[str, Any]]:
    if isinstance(document, dict) and "events" in document:
        document = document["events"]
    if not isinstance(document, list):
        raise ValueError("expected a combat log: {'events': [...]} or a list of events")
    return [dict(e) for e in document]


def verify(events: list[dict[str, Any]]) -> tuple[bool, list[str]]:
    """(all good, one line per check)."""
    lines: list[str] = []
    started = next((e for e in events if e.get("type") == "combat.started"), None)
    ended = next((e for e in events if e.get("type") == "combat.ended"), None)
    if started is None or "dice_commitment" not in started.get("data", {}):
        return False, ["no combat.started with a dice_commitment in this log"]
    if ended is None or not ended.get("data", {}).get("dice_seed"):
        return False, ["the combat has not ended: its seed is not revealed yet"]
    seed = str(ended["data"]["dice_seed"])
    promised = str(started["data"]["dice_commitment"])
    ok = commitment(seed) == promised
    lines.append(
        f"{'ok ' if ok else 'BAD'} seed {seed[:12]}... hashes to the commitment {promised[:12]}..."
    )
    rolls = [e for e in events if e.get("type") == DICE_ROLLED]
    for event in rolls:
        record = event["data"]
        again = replay(seed, record).as_dict()
        same = all(again[k] == record.get(k) for k in ("dice", "kept", "total", "draws"))
        ok = ok and same
        lines.append(
            f"{'ok ' if same else 'BAD'} {record.get('stream')}#{record.get('first_draw')} "
            f"{record.get('spec')} ({record.get('purpose', '')}): {record.get('total')}"
            + ("" if same else f" but the seed gives {again['total']} {again['dice']}")
        )
    lines.append(f"{len(rolls)} rolls checked")
    return ok, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.dice", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser(
        "verify", help="recompute the rolls of a combat log (JSON file, - for stdin)"
    )
    check.add_argument("log")
    free = sub.add_parser("roll", help="roll an expression (XdY+Z, XdYkhN, XdY!, XkY)")
    free.add_argument("expression")
    args = parser.parse_args(argv)
    if args.command == "roll":
        print(json.dumps(roll(args.expression, SystemStream()).as_dict()))
        return 0
    text = sys.stdin.read() if args.log == "-" else Path(args.log).read_text(encoding="utf-8")
    ok, lines = verify(events_of(json.loads(text)))
    print("\n".join(lines))
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
