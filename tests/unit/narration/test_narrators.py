"""Every public event type has a narrator, in every ruleset that emits it, and tells it in
Spanish and English with the characters' names, the numbers and the rule that decided."""

from __future__ import annotations

import re

import pytest

from shared.messages import (
    CMD_TIMER_FIRED,
    COMMAND_OWNER,
    INTERNAL_EVENTS,
    QUERY_ANSWERS,
)
from shared.narration.common import COMMON
from shared.narration.narrate import narrate, narrator_for
from shared.narration.said import Cast
from shared.narration.words import LANGUAGES, Lang
from shared.rulesets.registry import RULESETS
from tests.unit.narration.book import AT, NAMES, SAMPLES, Sample
from tests.unit.narration.emitted import EMITTERS, emitted

NOT_PUBLIC = (
    set(COMMAND_OWNER) | {CMD_TIMER_FIRED} | set(QUERY_ANSWERS.values()) | set(INTERNAL_EVENTS)
)
PASS_THROUGH = {
    # shared/dice/combat.py re-emits a decision's own events with the dice commitment/seed.
    ("shared/dice/combat.py", "event.type"),
    # the runtime commits a decision's events: each was read where a domain emitted it.
    ("shared/runtime/commits.py", "event.type"),
}
COMMAND_SENDERS = {
    "send",  # the gateway's send-and-wait (gateway/commands.py): commands, never events
    "to_states",  # the aftermath routes' way to it
}


def public_pairs() -> set[tuple[str | None, str]]:
    return {(r, t) for r, t in emitted().pairs if t not in NOT_PUBLIC}


PAIRS = sorted(public_pairs(), key=lambda pair: (pair[1], pair[0] or ""))


def tell(sample: Sample, lang: Lang) -> str:
    return narrate(sample.type, sample.data, Cast(NAMES, sample.ruleset), lang, at=AT, strict=True)


def test_the_code_is_read_whole() -> None:
    """The search finds the events of all three rulesets and the platform, and every place
    that emits an event type it cannot read is a known pass-through."""
    found = emitted()
    unknown = {(s.path, s.expression) for s in found.unresolved} - PASS_THROUGH
    assert not unknown, f"event types the search cannot read: {sorted(unknown)}"
    hidden = found.passers - set(EMITTERS) - COMMAND_SENDERS
    assert not hidden, f"helpers that emit the type they are given: add them to EMITTERS {hidden}"
    types = {t for _, t in found.pairs}
    assert {"combat.started", "action.resolved", "rest.started", "void.spent"} <= types
    assert {r for r, _ in found.pairs} == {None, "umh", "cypher", "l5r"}
    assert len(public_pairs()) > 100


@pytest.mark.parametrize(
    ("ruleset", "event_type"),
    PAIRS,
    ids=lambda v: str(v),
)
def test_every_emitted_event_type_has_a_narrator(ruleset: str | None, event_type: str) -> None:
    if ruleset is None:
        assert event_type in COMMON, f"the platform emits {event_type}: narrate it in common.py"
    else:
        assert narrator_for(event_type, ruleset) is not None, f"{ruleset} emits {event_type}"


def test_no_narrator_tells_an_event_nobody_emits() -> None:
    pairs = public_pairs()
    types = {t for _, t in pairs}
    assert COMMON.types() <= types, COMMON.types() - types
    for ruleset in RULESETS:
        own = {t for r, t in pairs if r == ruleset.name}
        dead = ruleset.narration.types() - own
        assert not dead, f"{ruleset.name} narrates events it never emits: {sorted(dead)}"


@pytest.mark.parametrize(
    ("ruleset", "event_type"),
    PAIRS,
    ids=lambda v: str(v),
)
def test_every_emitted_event_type_has_a_sample(ruleset: str | None, event_type: str) -> None:
    assert any(s.ruleset == ruleset and s.type == event_type for s in SAMPLES), (
        f"add a sample of {ruleset}'s {event_type} to tests/unit/narration/samples/"
    )


CASES = [(s, lang) for s in SAMPLES for lang in LANGUAGES]


@pytest.mark.parametrize(("sample", "lang"), CASES, ids=[f"{s.id}-{lang}" for s, lang in CASES])
def test_a_sentence_shows_names_numbers_and_rules(sample: Sample, lang: Lang) -> None:
    text = tell(sample, lang)
    assert text[0].isupper() and text.endswith("."), text
    for character_id in NAMES:
        assert character_id not in text, f"an id instead of a name: {text}"
    for fragment in sample.shows:
        shown = (
            fragment.replace(" y ", " and ").replace(" e ", " and ") if lang == "en" else fragment
        )
        if lang == "en":
            shown = re.sub(r"(\d),(\d)", r"\1.\2", shown)
        assert shown in text, f"{fragment!r} missing from {text!r}"
    rule = sample.data.get("rule")
    if isinstance(rule, str):
        assert rule in text, f"the event's rule {rule} missing from {text!r}"
    whole = sample.es if lang == "es" else sample.en
    if whole is not None:
        assert text == whole


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_spanish_and_english_differ(sample: Sample) -> None:
    spanish, english = tell(sample, "es"), tell(sample, "en")
    assert spanish != english or sample.type == "dice.rolled"


def test_an_unknown_event_or_a_broken_payload_still_gets_a_sentence() -> None:
    cast = Cast(NAMES, "umh")
    assert narrate("weather.changed", {"character": "ana_01"}, cast, "es") == (
        "Evento weather.changed de Ana."
    )
    broken = {"round": 3, "stalemate_rounds": "three"}  # the narrator fails on it
    assert narrate("round.ended", broken, cast, "en") == "Event round.ended."
    with pytest.raises(ValueError):
        narrate("round.ended", broken, cast, "en", strict=True)
    with pytest.raises(LookupError):
        narrate("weather.changed", {}, cast, "es", strict=True)


def test_names_come_from_the_cast_and_unknown_ids_show_as_they_are() -> None:
    data = {"actor": "zoe_99", "reason": "passed"}
    assert narrate("turn.ended", data, Cast({}, "umh"), "es") == "zoe_99 pasa turno (umh 2.3.3)."
    named = Cast({"zoe_99": "Zoe"}, "umh")
    assert narrate("turn.ended", data, named, "en") == "Zoe passes the turn (umh 2.3.3)."
