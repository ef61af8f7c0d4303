"""The player view of every event type (docs/views.md): every field of every narration
sample is named in gateway/player_fields.py, and what the player view keeps is told in both
languages, strictly, without a hidden number and without holes where a hidden value was."""

from __future__ import annotations

import re

import pytest

from gateway.player_view import player_event
from shared.frontend_settings import EffectVisibility, VisibilitySettings, VitVisibility
from shared.narration.narrate import narrate
from shared.narration.said import Cast
from shared.narration.words import LANGUAGES, Lang
from tests.support.player_checked import hidden_numbers, unnamed
from tests.unit.narration.book import AT, NAMES, SAMPLES, Sample

VIEWS = {
    "bars": VisibilitySettings(vit=VitVisibility.BAR, effects=EffectVisibility.TYPE),
    "no-vit": VisibilitySettings(vit=VitVisibility.NONE, effects=EffectVisibility.TYPE),
    "nothing": VisibilitySettings(vit=VitVisibility.NONE, effects=EffectVisibility.NONE),
}
MAXIMA = dict.fromkeys(NAMES, 1000)
HOLES = re.compile(r"  |\(\s*\)|\s[,.:;]|None|\{|\}|: de |\bde daño\b(?! )")


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_every_field_of_every_event_has_a_kind(sample: Sample) -> None:
    assert not unnamed(sample.data), "name these keys in gateway/player_fields.py"


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_the_player_view_of_every_event_is_told_without_what_it_hides(
    sample: Sample, lang: Lang, view: str
) -> None:
    event = {"type": sample.type, "data": sample.data}
    shown = player_event(event, VIEWS[view], MAXIMA)["data"]
    text = narrate(sample.type, shown, Cast(NAMES, sample.ruleset), lang, at=AT, strict=True)
    assert not HOLES.search(text), text
    leaked = {n for n in hidden_numbers(sample.data) if re.search(rf"\b{n}\b(?!\s?%)", text)}
    assert not leaked, (text, leaked)
