"""The vocabulary of narration: phrases in both languages, counted nouns, lists, numbers, times.

Spanish first: numbers use a decimal comma (``1,5``), lists join with ``y`` (``e`` before a
word that sounds /i/: ``Bruno e Iván``), a noun counts ``1 punto`` / ``2 puntos``. Sentences
avoid adjectives that agree with a character's gender, which the sheet does not tell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any, Final, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

Lang = Literal["es", "en"]
LANGUAGES: Final[tuple[Lang, ...]] = ("es", "en")
DEFAULT_LANGUAGE: Final[Lang] = "es"


@dataclass(frozen=True)
class T:
    """A phrase in both languages; ``{fields}`` are filled by :meth:`render`."""

    es: str
    en: str

    def text(self, lang: Lang) -> str:
        return self.es if lang == "es" else self.en

    def render(self, lang: Lang, **fields: object) -> str:
        return self.text(lang).format(**fields)


@dataclass(frozen=True)
class Unit:
    """A counted noun: singular and plural in each language (``1 punto``, ``2 puntos``)."""

    es: tuple[str, str]
    en: tuple[str, str]

    def of(self, lang: Lang, amount: float) -> str:
        one, many = self.es if lang == "es" else self.en
        return one if amount == 1 else many


def pick(table: Mapping[str, T], key: object, default: T) -> T:
    """The phrase of ``key`` in a table of variants, or ``default``."""
    return table.get(str(key), default)


def number(value: object, lang: Lang) -> str:
    """``10.0`` -> ``10``; ``1.5`` -> ``1,5`` in Spanish, ``1.5`` in English."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return str(value)
    shown = f"{value:.2f}".rstrip("0").rstrip(".")
    return shown.replace(".", ",") if lang == "es" else shown


def counted(amount: object, unit: Unit, lang: Lang) -> str:
    """``1 punto``, ``2 puntos``, ``1,5 puntos``."""
    value = amount if isinstance(amount, int | float) and not isinstance(amount, bool) else 0
    return f"{number(amount, lang)} {unit.of(lang, value)}"


def _sounds_i(word: str) -> bool:
    """Spanish ``y`` becomes ``e`` before /i/ (``Iván``, ``Hilda``), not before ``hie-``."""
    low = word.lower()
    if low.startswith(("hia", "hie", "hio", "hiu")):
        return False
    return low.startswith(("i", "í", "hi", "hí"))


def listing(items: Iterable[str], lang: Lang) -> str:
    """``Ana``, ``Ana y Bruno``, ``Ana, Bruno y Carla`` (``and`` in English)."""
    words = [w for w in items if w]
    if not words:
        return "—"
    if len(words) == 1:
        return words[0]
    last = words[-1]
    joiner = ("e" if _sounds_i(last) else "y") if lang == "es" else "and"
    return f"{', '.join(words[:-1])} {joiner} {last}"


def zone(name: str | None) -> tzinfo:
    """The community's time zone, UTC when it is unknown."""
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def moment(value: object) -> datetime | None:
    """Unix milliseconds or an RFC 3339 string as an aware datetime (None if neither)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value / 1000, tz=UTC)
    if isinstance(value, str) and value:
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def clock(value: object, lang: Lang, tz: tzinfo, today: datetime | None) -> str:
    """``las 20:15`` (the same day as ``today``) or ``las 20:15 del 14/05/2025``;
    ``20:15`` or ``20:15 on 2025-05-14`` in English."""
    when = moment(value)
    if when is None:
        return "?"
    local = when.astimezone(tz)
    hour = local.strftime("%H:%M")
    same_day = today is not None and today.astimezone(tz).date() == local.date()
    if lang == "es":
        return f"las {hour}" if same_day else f"las {hour} del {local.strftime('%d/%m/%Y')}"
    return hour if same_day else f"{hour} on {local.strftime('%Y-%m-%d')}"


SECONDS: Final = Unit(("segundo", "segundos"), ("second", "seconds"))
MINUTES: Final = Unit(("minuto", "minutos"), ("minute", "minutes"))
HOURS: Final = Unit(("hora", "horas"), ("hour", "hours"))
DAYS: Final = Unit(("día", "días"), ("day", "days"))


def span(milliseconds: object, lang: Lang) -> str:
    """A duration in its largest whole unit: ``45 segundos``, ``2 minutos``, ``3 días``."""
    ms = milliseconds if isinstance(milliseconds, int | float) else 0
    seconds = max(0, round(ms / 1000))
    for size, unit in ((86400, DAYS), (3600, HOURS), (60, MINUTES)):
        if (seconds >= size and seconds % size == 0) or seconds >= 2 * size:
            return counted(round(seconds / size), unit, lang)
    return counted(seconds, SECONDS, lang)


def label(value: Any) -> str:
    """A value players type (an effect, a nature: ``fuego_infernal``) shown as words."""
    return str(value).replace("_", " ")
