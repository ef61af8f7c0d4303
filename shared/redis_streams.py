"""Typed helpers over redis-py's stream replies (their declared types are very wide)."""

from __future__ import annotations

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
