"""What a narrator reads (:class:`Said`: the event, the cast, the language) and how narrators
are registered (:class:`Narrations`: event type -> narrator, plus the rule references a
ruleset cites)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from string import Formatter
from typing import Any

from shared.narration import words
from shared.narration.words import Lang, T, Unit


@dataclass(frozen=True)
class Cast:
    """Who is who where an event happened: character id -> the sheet's ``name``, the combat's
    ruleset, the community's time zone. Ids without a name are shown as they are."""

    names: Mapping[str, str] = field(default_factory=dict)
    ruleset: str | None = None
    timezone: str = "Europe/Madrid"

    def name(self, character: object) -> str:
        key = str(character)
        return self.names.get(key) or key


@dataclass(frozen=True)
class Said:
    """One event as a narrator sees it, with the helpers every sentence needs."""

    type: str
    data: Mapping[str, Any]
    cast: Cast
    lang: Lang
    rules: Mapping[str, str] = field(default_factory=dict)
    terms: Mapping[str, T] = field(default_factory=dict)
    at: datetime | None = None  # when it happened: a deadline that day shows no date

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def name(self, character: object) -> str:
        return self.cast.name(character)

    def who(self, key: str = "character") -> str:
        """The name of the character whose id is ``data[key]``."""
        return self.name(self.data.get(key, "?"))

    def names(self, characters: Iterable[object] | None) -> str:
        return words.listing([self.name(c) for c in characters or ()], self.lang)

    def num(self, value: object) -> str:
        return words.number(value, self.lang)

    def count(self, amount: object, unit: Unit) -> str:
        return words.counted(amount, unit, self.lang)

    def clock(self, value: object) -> str:
        return words.clock(value, self.lang, words.zone(self.cast.timezone), self.at)

    def span(self, milliseconds: object) -> str:
        return words.span(milliseconds, self.lang)

    def remaining(self, shown: str, *, one: bool) -> str:
        """``le queda 1 minuto`` / ``le quedan 2 minutos``; ``2 minutes left``."""
        if self.lang == "en":
            return f"{shown} left"
        return f"le queda {shown}" if one else f"le quedan {shown}"

    def t(self, phrase: T, **fields: object) -> str:
        return phrase.render(self.lang, **fields)

    def side(self, side: object) -> str:
        return self.t(SIDES.get(str(side), T(str(side), str(side))))

    def term(self, key: str, default: T) -> str:
        """A word the ruleset names its own way (``round``: ``ronda`` in umh, ``asalto`` in
        cypher and l5r)."""
        return self.t(self.terms.get(key, default))

    def rule_of(self, key: str | None = None) -> str | None:
        """The rule that decided: the event's own ``rule``, else the ruleset's reference for
        ``key`` (or for the event type)."""
        own = self.data.get("rule")
        if isinstance(own, str) and own:
            return own
        return self.rules.get(key or self.type)

    def cite(self, key: str | None = None) -> str:
        """`` (umh 2.3.5)`` to end a sentence with, or nothing when no rule applies."""
        rule = self.rule_of(key)
        return f" ({rule})" if rule else ""


SIDES = {
    "attackers": T("los atacantes", "the attackers"),
    "defenders": T("los defensores", "the defenders"),
}

Narrator = Callable[[Said], str]

ROLES = {
    "who": "character",
    "actor": "actor",
    "attacker": "attacker",
    "reactor": "reactor",
    "by": "by",
    "partner": "partner",
    "target": "target",
    "joiner": "joiner",
    "holder": "holder",
}
"""The placeholders of a plain sentence that stand for a character: ``{who}`` is the name of
``data["character"]``."""


def fill(e: Said, phrase: T) -> str:
    """A plain sentence: each ``{field}`` is a character's name (:data:`ROLES`), a number, a
    list of names, or the value of ``data[field]`` as it is."""
    fields: dict[str, str] = {}
    for _, name, _, _ in Formatter().parse(phrase.text(e.lang)):
        if not name or name in fields:
            continue
        value = e.get(name)
        if name in ROLES:
            fields[name] = e.who(ROLES[name])
        elif isinstance(value, int | float) and not isinstance(value, bool):
            fields[name] = e.num(value)
        elif isinstance(value, list):
            fields[name] = e.names(value)
        else:
            fields[name] = "" if value is None else str(value)
    return e.t(phrase, **fields)


class Narrations:
    """A table of narrators by event type, and the rule references its narrators cite by key
        (an event type, or ``<type>/<variant>`` such as ``combat.ended/defeat``), and the words it
    names its own way (``terms``)."""

    def __init__(
        self, rules: Mapping[str, str] | None = None, terms: Mapping[str, T] | None = None
    ) -> None:
        self.table: dict[str, Narrator] = {}
        self.rules: dict[str, str] = dict(rules or {})
        self.terms: dict[str, T] = dict(terms or {})

    @classmethod
    def combine(cls, *parts: Narrations) -> Narrations:
        """One table of several (a ruleset's narrators split by topic); a type told twice
        is an error."""
        whole = cls()
        for part in parts:
            for event_type, narrator in part.table.items():
                whole.on(event_type)(narrator)
            whole.rules.update(part.rules)
            whole.terms.update(part.terms)
        return whole

    def on(self, *event_types: str) -> Callable[[Narrator], Narrator]:
        """Register the decorated function as the narrator of ``event_types``."""

        def register(narrator: Narrator) -> Narrator:
            for event_type in event_types:
                if event_type in self.table:
                    raise ValueError(f"{event_type} is narrated twice")
                self.table[event_type] = narrator
            return narrator

        return register

    def says(self, event_type: str, phrase: T, *, rule: str | None = None) -> None:
        """A type told by one plain sentence (:func:`fill`), ending with the rule that
        decided (the event's own, or this table's for ``rule`` or the type)."""

        def narrator(e: Said) -> str:
            return fill(e, phrase) + e.cite(rule)

        self.on(event_type)(narrator)

    def get(self, event_type: str) -> Narrator | None:
        return self.table.get(event_type)

    def __contains__(self, event_type: object) -> bool:
        return event_type in self.table

    def types(self) -> frozenset[str]:
        return frozenset(self.table)
