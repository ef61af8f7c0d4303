"""Recovery rolls of a cypher character across the day (seed 001 RECUPERAR, B-8 - B-10).

Pure functions on the character's record (a JSON-ready dict). Four rests a day: the first
takes a few seconds (in combat: a turn's action, refereed by services/turns), the second
10 minutes, the third 1 hour, the fourth 10 hours (RULES.md 7.1 W14); a fifth the same day
is refused (E_NO_RESTS_LEFT, B-9). The day starts at the boundary (default 00:00 server
time, B-9); the count starts again lazily on the first input of a new day (W15).
"""

from __future__ import annotations

from typing import Any, Final

from shared.dice.rolls import Roll, roll
from shared.dice.streams import SeededStream, commitment
from shared.errors import RuleViolation
from shared.rulesets.cypher.conditions import pools_at_zero, refreshed
from shared.rulesets.cypher.damage import recover

Record = dict[str, Any]
DAY_MS: Final = 86_400_000
REST_SECONDS: Final = (0, 600, 3600, 36000)
RESTS_PER_DAY: Final = len(REST_SECONDS)
RULE: Final = "cypher RECUPERAR"


def day_of(now_ms: int, boundary_minutes: int = 0) -> int:
    """B-9: the day number of ``now_ms`` counted from the boundary (minutes after 00:00 UTC,
    the server's time)."""
    return (now_ms - boundary_minutes * 60_000) // DAY_MS


def on_day(record: Record, now_ms: int, boundary_minutes: int = 0) -> Record:
    """W15 DAILY_RESET, lazily: a new day starts the rest count again."""
    today = day_of(now_ms, boundary_minutes)
    if record.get("day") == today:
        return record
    return {**record, "day": today, "rests_today": 0}


def rest_seconds(number: int) -> int:
    """001 RECUPERAR: how long the ``number``-th rest of the day lasts before its roll."""
    if number > RESTS_PER_DAY:
        raise RuleViolation("no_rests_left", f"{RULE} (4th rest), B-9", rests_today=number - 1)
    return REST_SECONDS[number - 1]


def check_special_option(record: Record) -> None:
    """001 RECUPERAR (special damage): only when every pool is above 0 and some special
    damage moved him down the track (E_RECOVERY_OPTION_INVALID)."""
    if pools_at_zero(record) or int(record.get("special_steps", 0)) <= 0:
        raise RuleViolation(
            "recovery_option_invalid",
            f"{RULE} (special damage)",
            pools_at_zero=pools_at_zero(record),
            special_steps=int(record.get("special_steps", 0)),
        )


def start_rest(
    record: Record, now_ms: int, seed: str, *, special_damage: bool, distribution: list[str]
) -> Record:
    """Begin the day's next rest: refused in combat (its first rest is a turn's action there),
    while another rest runs, or after the fourth; its roll's seed is committed now."""
    if record.get("in_combat"):
        raise RuleViolation("already_in_combat", f"{RULE}, B-10", combat_id=record["in_combat"])
    if record.get("resting"):
        raise RuleViolation("rest_in_progress", RULE, rest=record["resting"]["number"])
    if record.get("pools") is None:
        raise RuleViolation("invalid_target", RULE, reason="only PCs recover points")
    number = int(record.get("rests_today", 0)) + 1
    seconds = rest_seconds(number)
    if special_damage:
        check_special_option(record)
    resting = {
        "number": number,
        "started_ms": now_ms,
        "due_ms": now_ms + seconds * 1000,
        "seed": seed,
        "commitment": commitment(seed),
        "special_damage": special_damage,
        "distribution": list(distribution),
    }
    return {**record, "rests_today": number, "resting": resting}


def finish_rest(record: Record, tier: int) -> tuple[Record, dict[str, Any], Roll | None]:
    """The rest is over: 1d6 + tier (B-8) spread as asked, never above a maximum; or one
    step of special damage healed (if still allowed, else the points)."""
    resting = record["resting"]
    out = {**record, "resting": None, "pools": dict(record["pools"])}
    if resting["special_damage"] and not pools_at_zero(out) and int(out["special_steps"]) > 0:
        out["special_steps"] = int(out["special_steps"]) - 1
        out.update(_track(out))
        return out, {"option": "special_damage", "track_after": out["track_name"]}, None
    rolled = roll(
        f"1d6+{tier}", SeededStream(resting["seed"], "rest"), purpose=f"rest {resting['number']}"
    )
    got = recover(out["pools"], out["pools_max"], rolled.total, resting["distribution"])
    before = dict(out["pools"])
    out["pools"] = got.pools_after
    out.update(_track(out))
    shown = {
        "option": "points",
        "points": got.points,
        "applied": got.applied,
        "wasted": got.wasted,
        "pools_before": before,
        "pools_after": dict(out["pools"]),
        "track_after": out["track_name"],
    }
    return out, shown, rolled


def _track(record: Record) -> dict[str, Any]:
    cond = refreshed(
        {
            "kind": "pc",
            "pools": record["pools"],
            "special_steps": record["special_steps"],
            "status": "active",
        }
    )
    return {"track": cond["track"], "track_name": cond["track_name"]}


def next_rest(record: Record) -> dict[str, Any] | None:
    """The next rest of the day: its number and how long it takes (None: none left)."""
    number = int(record.get("rests_today", 0)) + 1
    if number > RESTS_PER_DAY:
        return None
    return {"number": number, "seconds": REST_SECONDS[number - 1]}
