"""Which narrator tells an event, and the sentence it gives.

The event's ruleset (the combat's, or the event's own ``ruleset``) is asked first, then the
platform's narrators (:data:`shared.narration.common.COMMON`), then the one ruleset that
narrates a type nobody else emits (an event outside any combat, such as a cypher rest). A
narrator that fails on an unexpected payload never breaks a response: the event gets a plain
sentence naming its type (``strict=True``, in tests, raises instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from shared.narration.common import COMMON
from shared.narration.said import Cast, Narrations, Narrator, Said
from shared.narration.words import Lang, T
from shared.rulesets.registry import RULESETS

FALLBACK = T("Evento {type}", "Event {type}")
FALLBACK_OF = T("Evento {type} de {who}", "Event {type} of {who}")


def narrations_of(ruleset: str | None) -> Narrations | None:
    for shared in RULESETS:
        if shared.name == ruleset:
            return shared.narration
    return None


def narrator_for(event_type: str, ruleset: str | None) -> tuple[Narrator, Narrations] | None:
    """The narrator of ``event_type`` in ``ruleset`` and the rule table it cites from."""
    own = narrations_of(ruleset)
    if own is not None and (narrator := own.get(event_type)) is not None:
        return narrator, own
    if (narrator := COMMON.get(event_type)) is not None:
        return narrator, own or COMMON
    owners = [r.narration for r in RULESETS if event_type in r.narration]
    if len(owners) == 1 and (narrator := owners[0].get(event_type)) is not None:
        return narrator, owners[0]
    return None


def finish(text: str, said: Said) -> str:
    """One sentence: a capital first letter (unless it starts with a name or a value of the
    event, shown as it is) and a final stop."""
    text = text.strip()
    if not text:
        return text
    kept = [*said.cast.names.values(), *(v for v in said.data.values() if isinstance(v, str))]
    if not any(value and text.startswith(value) for value in kept):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def narrate(
    event_type: str,
    data: Mapping[str, Any],
    cast: Cast,
    lang: Lang,
    *,
    at: datetime | None = None,
    strict: bool = False,
) -> str:
    """The sentence that tells ``event_type`` with ``data`` in ``lang``."""
    ruleset = cast.ruleset or (
        data.get("ruleset") if isinstance(data.get("ruleset"), str) else None
    )
    found = narrator_for(event_type, ruleset)
    table = found[1] if found else None
    said = Said(
        event_type,
        data,
        cast,
        lang,
        table.rules if table else {},
        table.terms if table else {},
        at,
    )
    if found is not None:
        try:
            return finish(found[0](said), said)
        except Exception:
            if strict:
                raise
    elif strict:
        raise LookupError(f"no narrator for {event_type} ({ruleset})")
    subject = data.get("character") or data.get("actor") or data.get("attacker")
    if isinstance(subject, str):
        return finish(said.t(FALLBACK_OF, type=event_type, who=said.name(subject)), said)
    return finish(said.t(FALLBACK, type=event_type), said)
