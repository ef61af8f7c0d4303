"""Every public event a test's chain published, told in both languages (docs/events.md).

The chain tests play whole combats of every ruleset through the services' real handlers; at
the end of each, every event it published is narrated strictly (a narrator that fails, or an
event type without one, fails the test), with the names the gateway would use: those that
``combat.started`` and ``combatant.joined`` carry.
"""

from __future__ import annotations

from gateway.narration import RULESET_FIELD, names_in
from shared.messages import INTERNAL_EVENTS, Envelope
from shared.narration.narrate import narrate
from shared.narration.said import Cast
from shared.narration.words import LANGUAGES


def narrate_all(events: list[Envelope]) -> list[str]:
    """The sentences of ``events`` in both languages; raises on the first that cannot be told."""
    casts: dict[str, dict[str, str]] = {}
    told: list[str] = []
    for env in events:
        if env.type in INTERNAL_EVENTS:
            continue
        known = casts.setdefault(env.combat_id or "", {})
        known.update(names_in(env.type, env.payload))
        people = {k: v for k, v in known.items() if k != RULESET_FIELD}
        cast = Cast(people, known.get(RULESET_FIELD))
        for lang in LANGUAGES:
            try:
                text = narrate(env.type, env.payload, cast, lang, at=env.occurred_at, strict=True)
            except Exception as exc:
                raise AssertionError(f"{env.type} cannot be told: {env.payload}") from exc
            assert text.endswith("."), (env.type, text)
            told.append(text)
    return told
