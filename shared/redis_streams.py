"""Typed helpers over redis-py's stream replies (their declared types are very wide)."""

from __future__ import annotations

import re
from typing import Any, cast


def text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def entries(reply: Any) -> list[tuple[str, dict[str, bytes]]]:
    """``XRANGE`` / ``XREVRANGE`` reply -> [(entry id, fields)]; field names as text."""
    out: list[tuple[str, dict[str, bytes]]] = []
    for entry_id, fields in cast(list[tuple[Any, dict[Any, Any]]], reply or []):
        out.append((text(entry_id), {text(k): v for k, v in (fields or {}).items()}))
    return out


def read_entries(reply: Any) -> list[tuple[str, dict[str, bytes]]]:
    """``XREAD`` reply (one or more streams) -> the entries of all of them, in order."""
    out: list[tuple[str, dict[str, bytes]]] = []
    if isinstance(reply, dict):  # RESP3
        for stream_entries in reply.values():
            out += entries(stream_entries[0] if stream_entries else [])
        return out
    for _name, stream_entries in cast(list[tuple[Any, Any]], reply or []):
        out += entries(stream_entries)
    return out


MAX_ID_PART = 2**64 - 1
_STREAM_ID = re.compile(r"(\d{1,20})-(\d{1,20})")


def parse_stream_id(value: str) -> tuple[int, int] | None:
    """``<ms>-<seq>`` as a tuple that orders like the stream, or None when it is not an id
    Redis can take (each part an unsigned 64-bit integer)."""
    match = _STREAM_ID.fullmatch(value)
    if match is None:
        return None
    ms, seq = int(match.group(1)), int(match.group(2))
    if ms > MAX_ID_PART or seq > MAX_ID_PART:
        return None
    return ms, seq


def stream_order(entry_id: str) -> tuple[int, int]:
    """The order of an id Redis gave (always well formed)."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)
