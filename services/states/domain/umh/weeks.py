"""Weekly uses (umh 2.3.4.2): Monday 00:00 to Sunday 23:59 in Spanish peninsular time.

Weeks are calendar weeks of a time zone (``Europe/Madrid`` unless the community says
otherwise), so a week that holds a daylight-saving change lasts 167 or 169 hours: the
boundaries are computed as local midnights and converted to instants, never as a fixed
offset from UTC. Time zone data is read through :mod:`zoneinfo` (deterministic, no clock).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo


def week_start_ms(at_ms: int, timezone: str) -> int:
    """umh 2.3.4.2: the instant (Unix ms) of the Monday 00:00 local that opens ``at_ms``'s week.

    Order: the instant in local time, back to that day's Monday, local midnight (the zone's
    offset on that date), back to UTC.
    """
    zone = ZoneInfo(timezone)
    local = datetime.fromtimestamp(at_ms / 1000, tz=UTC).astimezone(zone)
    monday = local.date() - timedelta(days=local.weekday())
    return int(datetime.combine(monday, time(0), tzinfo=zone).timestamp() * 1000)


def next_week_start_ms(at_ms: int, timezone: str) -> int:
    """umh 2.3.4.2: the Monday 00:00 local after ``at_ms`` (when the weekly counters reset)."""
    zone = ZoneInfo(timezone)
    start = datetime.fromtimestamp(week_start_ms(at_ms, timezone) / 1000, tz=UTC).astimezone(zone)
    following = start.date() + timedelta(days=7)
    return int(datetime.combine(following, time(0), tzinfo=zone).timestamp() * 1000)


def same_week(first_ms: int, second_ms: int, timezone: str) -> bool:
    """umh 2.3.4.2: whether two instants fall in the same weekly window."""
    return week_start_ms(first_ms, timezone) == week_start_ms(second_ms, timezone)


def uses_this_week(
    uses: Iterable[tuple[str, int]], now_ms: int, timezone: str
) -> Mapping[str, int]:
    """umh 2.3.4.2: per skill, the uses (``(skill, at_ms)``) in the week that holds ``now_ms``."""
    start = week_start_ms(now_ms, timezone)
    end = next_week_start_ms(now_ms, timezone)
    counts: dict[str, int] = {}
    for skill, at_ms in uses:
        if start <= at_ms < end:
            counts[skill] = counts.get(skill, 0) + 1
    return counts
