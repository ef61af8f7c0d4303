"""A hit resolved by the handler a combat runs reads each fighter's sheet once, however many
rules look at it (issue 15: "the sheet once per hit"), and still reads a new snapshot."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from services.resolution.domain.umh import condition
from services.resolution.handlers import on_combat_event, on_combat_started
from shared.messages import COMBAT_STARTED, RESOLUTION_REQUESTED
from shared.rulesets.umh.sheet import UmhSheet
from tests.unit.resolution.umh.kit import attack, duel_started, sheet
from tests.unit.resolution.umh.test_random_play_cases import NOW, TARGET, envelope


def test_a_hit_validates_each_sheet_once(monkeypatch: pytest.MonkeyPatch) -> None:
    started = duel_started(sheet("Ana", attack(damage=50)))
    state = on_combat_started(envelope(COMBAT_STARTED, started), None, TARGET, NOW).state
    read: Counter[str] = Counter()

    class Counting(UmhSheet):
        @classmethod
        def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> UmhSheet:  # type: ignore[override]
            read[str(obj["name"])] += 1
            return UmhSheet.model_validate(obj, *args, **kwargs)

    monkeypatch.setattr(condition, "UmhSheet", Counting)
    request = {
        "action_id": "a_1",
        "attacker": "ana",
        "skill": "Golpe",
        "targets": ["bruno"],
        "round": 1,
    }
    hit = on_combat_event(envelope(RESOLUTION_REQUESTED, request), state, TARGET, NOW)
    assert [e.type for e in hit.events][-1] == "action.resolved"
    assert read == {"Ana": 1, "Bruno": 1}


def test_a_new_snapshot_of_a_sheet_is_read_again() -> None:
    raw = sheet("Ana", attack(damage=50))
    first = condition.parsed(raw)
    assert condition.parsed(raw) is first
    changed = {**raw, "stats": {**raw["stats"], "vel": 9}}
    assert condition.parsed(changed).stats.vel == 9
