"""What of l5r outlives a combat (seed 004 "Vacío"): the Void pool and Alentar's daily count.

Pure functions over the character's :class:`L5rRecord`: ``void_points`` at ``void_at_ms``,
``void_max`` (the Void ring), ``alentar`` (day, received).
"""

from __future__ import annotations

from typing import Final

from services.states.domain.l5r.record import L5rRecord

DAY_MS: Final = 86_400_000


def regained(void: int, void_max: int, days: int) -> int:
    """Vacío (recovery), T004-03 / C-3: +1 point per day, never above the Void ring."""
    return min(void_max, void + max(0, days))


def void_now(record: L5rRecord, now_ms: int) -> int:
    """The pool now: what the last combat left, plus one per whole day since."""
    assert record.void_points is not None and record.void_max is not None
    at = now_ms if record.void_at_ms is None else record.void_at_ms
    return regained(record.void_points, record.void_max, (now_ms - at) // DAY_MS)


def next_regain_ms(record: L5rRecord, now_ms: int) -> int | None:
    """When the next natural point comes back (None: the pool is full)."""
    assert record.void_max is not None
    if void_now(record, now_ms) >= record.void_max:
        return None
    at = now_ms if record.void_at_ms is None else record.void_at_ms
    return at + ((now_ms - at) // DAY_MS + 1) * DAY_MS


def day_of(ms: int) -> int:
    """C-5 (per day): the UTC day number."""
    return ms // DAY_MS


def alentar_today(record: L5rRecord, now_ms: int) -> int:
    """Alentar (C-5): points received this way today."""
    alentar = record.alentar
    return alentar.received if alentar is not None and alentar.day == day_of(now_ms) else 0
