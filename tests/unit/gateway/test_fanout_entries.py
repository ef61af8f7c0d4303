"""The event stream's fan-out (gateway/fanout.py): each event is parsed once, and told once
per language that a viewer asks for, with the names taken when it was read."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from gateway import narration
from gateway.fanout import Entry
from shared.narration.said import Cast

PUBLIC: dict[str, Any] = {
    "id": "m_1",
    "type": "combatant.down",
    "combat_id": "c_1",
    "room": "plaza",
    "occurred_at": "2026-12-01T10:00:00Z",
    "data": {"combat_id": "c_1", "character": "bruno"},
}


def test_an_entry_is_told_once_per_language_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    told: Counter[str] = Counter()
    real = narration.tell_with

    def counting(event: dict[str, Any], cast: Cast, lang: Any) -> str:
        told[lang] += 1
        return real(event, cast, lang)

    monkeypatch.setattr("gateway.fanout.tell_with", counting)
    entry = Entry("1-0", "combatant.down", "plaza", "c_1", PUBLIC, cast=Cast({"bruno": "Bruno"}))
    first = entry.data("es")
    for _ in range(1000):  # a thousand viewers of one language
        assert entry.data("es") == first
    assert told == {"es": 1}  # English was never asked for
    english = json.loads(entry.data("en"))
    assert told == {"es": 1, "en": 1}
    spanish = json.loads(first)
    assert "Bruno" in spanish["text"] and "Bruno" in english["text"]
    assert spanish["text"] != english["text"]
    assert {k: v for k, v in spanish.items() if k != "text"} == PUBLIC


def test_an_entrys_frame_is_built_once_per_language() -> None:
    entry = Entry("1-0", "combatant.down", "plaza", "c_1", PUBLIC, cast=Cast({"bruno": "Bruno"}))
    frame = entry.frame("es")
    assert all(entry.frame("es") is frame for _ in range(1000))
    expected = f"event: combatant.down\ndata: {entry.data('es')}\nid: 1-0\n\n"
    assert frame == expected.encode()
    assert entry.frame("en") != frame and entry.data("en").encode() in entry.frame("en")
