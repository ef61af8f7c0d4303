"""Settings carried by a message between services are read tolerantly: a setting a newer
service added (here a new l5r reading) must not make an older one refuse ``combat.started``
on every delivery until it is dead-lettered and the combat stalls (found by the chaos soak
across a restart onto newer code). The API's settings stay strict."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from shared.payloads import StartCombat
from shared.settings import CommunitySettings, settings_from_message

NEWER = {
    "timers": {"turn_seconds": 7, "a_timer_of_tomorrow": 3},
    "umh": {"a_umh_setting_of_tomorrow": True},
    "l5r": {"a_reading_of_tomorrow": "auto"},
    "a_block_of_tomorrow": {},
}


def test_a_message_s_settings_ignore_what_a_newer_service_added() -> None:
    settings = settings_from_message(NEWER)
    assert settings.timers.turn_seconds == 7


def test_combat_start_reads_its_settings_tolerantly() -> None:
    start = StartCombat.model_validate(
        {
            "combat_id": "c_1",
            "ruleset": "umh",
            "attacker": "a",
            "defenders": ["b"],
            "opening": {"kind": "challenge"},
            "sheets": {},
            "settings": NEWER,
        }
    )
    assert start.settings.timers.turn_seconds == 7


def test_the_api_s_settings_stay_strict() -> None:
    with pytest.raises(ValidationError):
        CommunitySettings.model_validate(NEWER)


def test_a_known_setting_with_a_wrong_value_is_still_refused() -> None:
    with pytest.raises(ValidationError):
        settings_from_message({"timers": {"turn_seconds": "never"}})
