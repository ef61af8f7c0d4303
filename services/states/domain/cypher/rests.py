"""Recovery rolls of a cypher character across the day (seed 001 RECUPERAR, B-8 - B-10).

Pure functions on the character's :class:`CypherRecord` (each changes the copy it is given).
Four rests a day: the first takes a few seconds (in combat: a turn's action, refereed by
services/turns), the second 10 minutes, the third 1 hour, the fourth 10 hours (docs/rules.md 7.1
W14); a fifth the same day is refused (E_NO_RESTS_LEFT, B-9). The day starts at the
boundary (default 00:00 server time, B-9); the count starts again lazily on the first input
of a new day (W15).
"""

from __future__ import annotations

from typing import Any, Final

from services.states.domain.cypher.record import CypherRecord, Rest
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll, roll
from shared.dice.streams import SeededStream, commitment
from shared.errors import RuleViolation
from shared.rulesets.cypher.damage import STATS, recover, track_name, track_step
from shared.rulesets.cypher.sheet import Stat

DAY_MS: Final = 86_400_000
REST_SECONDS: Final = (0, 600, 3600, 36000)
RESTS_PER_DAY: Final = len(REST_SECONDS)
RULE: Final = "cypher RECUPERAR"


def day_of(now_ms: int, boundary_minutes: int = 0) -> int:
    """B-9: the day number of ``now_ms`` counted from the boundary (minutes after 00:00 UTC,
    the server's time)."""
    return (now_ms - boundary_minutes * 60_000) // DAY_MS


def on_day(record: CypherRecord, now_ms: int, boundary_minutes: int = 0) -> None:
    """W15 DAILY_RESET, lazily: a new day starts the rest count again."""
    today = day_of(now_ms, boundary_minutes)
    if record.day != today:
        record.day, record.rests_today = today, 0


def rest_seconds(number: int) -> int:
    """001 RECUPERAR: how long the ``number``-th rest of the day lasts before its roll."""
    if number > RESTS_PER_DAY:
        raise RuleViolation("no_rests_left", f"{RULE} (4th rest), B-9", rests_today=number - 1)
    return REST_SECONDS[number - 1]


def pools_at_zero(record: CypherRecord) -> list[Stat]:
    return [] if record.pools is None else [s for s in STATS if record.pools.of(s) <= 0]


def special_option_allowed(record: CypherRecord) -> bool:
    """001 RECUPERAR (special damage): every pool above 0 and some special damage to heal."""
    return not pools_at_zero(record) and record.special_steps > 0


def check_special_option(record: CypherRecord) -> None:
    """001 RECUPERAR (special damage): only when every pool is above 0 and some special
    damage moved him down the track (E_RECOVERY_OPTION_INVALID)."""
    if not special_option_allowed(record):
        raise RuleViolation(
            "recovery_option_invalid",
            f"{RULE} (special damage)",
            pools_at_zero=pools_at_zero(record),
            special_steps=record.special_steps,
        )


def start_rest(
    record: CypherRecord, now_ms: int, seed: str, *, special_damage: bool, distribution: list[Stat]
) -> Rest:
    """Begin the day's next rest: refused in combat (its first rest is a turn's action there),
    while another rest runs, or after the fourth; its roll's seed is committed now."""
    if record.in_combat:
        raise RuleViolation("already_in_combat", f"{RULE}, B-10", combat_id=record.in_combat)
    if record.resting:
        raise RuleViolation("rest_in_progress", RULE, rest=record.resting.number)
    if record.pools is None:
        raise RuleViolation("invalid_target", RULE, reason="only PCs recover points")
    number = record.rests_today + 1
    seconds = rest_seconds(number)
    if special_damage:
        check_special_option(record)
    record.rests_today = number
    record.resting = Rest(
        number=number,
        started_ms=now_ms,
        due_ms=now_ms + seconds * 1000,
        seed=seed,
        commitment=commitment(seed),
        special_damage=special_damage,
        distribution=list(distribution),
    )
    return record.resting


def retracked(record: CypherRecord) -> None:
    """B-5, B-6: his step on the track from his pools and special-damage steps."""
    assert record.pools is not None
    record.track = track_step(record.pools, record.special_steps)
    record.track_name = track_name(record.track)


def finish_rest(record: CypherRecord, tier: int) -> tuple[dict[str, Any], Roll | None]:
    """The rest is over: 1d6 + tier (B-8) spread as asked, never above a maximum; or one
    step of special damage healed (if still allowed, else the points)."""
    resting = record.resting
    assert resting is not None and record.pools is not None and record.pools_max is not None
    record.resting = None
    if resting.special_damage and special_option_allowed(record):
        record.special_steps -= 1
        retracked(record)
        return {"option": "special_damage", "track_after": str(record.track_name)}, None
    stream = SeededStream(resting.seed, "rest")
    rolled = roll(f"1d6+{tier}", stream, purpose=RollPurpose.RECOVERY)
    got = recover(record.pools, record.pools_max, rolled.total, resting.distribution)
    before = record.pools.model_dump()
    record.pools = got.pools_after
    retracked(record)
    shown = {
        "option": "points",
        "points": got.points,
        "applied": got.applied,
        "wasted": got.wasted,
        "pools_before": before,
        "pools_after": record.pools.model_dump(),
        "track_after": str(record.track_name),
    }
    return shown, rolled


def next_rest(record: CypherRecord) -> dict[str, Any] | None:
    """The next rest of the day: its number and how long it takes (None: none left)."""
    number = record.rests_today + 1
    if number > RESTS_PER_DAY:
        return None
    return {"number": number, "seconds": REST_SECONDS[number - 1]}
