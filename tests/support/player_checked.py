"""The player view of everything a chain test published (docs/views.md).

Every chain test ends by walking every public event it published and every combat it played
through the player view's table (gateway/player_fields.py): a key the table does not name
fails the test (the player view would drop it silently), and under the strictest settings
no value of a hidden kind may survive anywhere. Every event's player view must also be told
(strictly, in both languages) without a hidden number in its sentence.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gateway.narration import RULESET_FIELD, names_in
from gateway.player_fields import FIELDS, Kind
from gateway.player_view import maxima_of, player_combat, player_event
from gateway.views import merge_combat, public_event
from shared.frontend_settings import EffectVisibility, VisibilitySettings, VitVisibility
from shared.messages import INTERNAL_EVENTS, Envelope
from shared.narration.narrate import narrate
from shared.narration.said import Cast
from shared.narration.words import LANGUAGES
from tests.support.chain import Chain

JSON = dict[str, Any]
STRICTEST = VisibilitySettings(vit=VitVisibility.NONE, effects=EffectVisibility.NONE)
BARS = VisibilitySettings(vit=VitVisibility.BAR, effects=EffectVisibility.TYPE)
HIDDEN = {Kind.VIT, Kind.BAR, Kind.EFFECTS, Kind.EFFECT_DETAIL, Kind.SECRET}


def unnamed(value: Any, path: str = "") -> set[str]:
    """The paths of keys the table does not name, walking what the most open view shows."""
    found: set[str] = set()
    if isinstance(value, list):
        for item in value:
            found |= unnamed(item, path + "[]")
    elif isinstance(value, dict):
        for key, item in value.items():
            kind = FIELDS.get(key)
            if kind is None:
                found.add(f"{path}.{key}")
            elif kind is Kind.MAP and isinstance(item, dict):
                for sub in item.values():
                    found |= unnamed(sub, f"{path}.{key}.<key>")
            elif kind is not Kind.SECRET:
                found |= unnamed(item, f"{path}.{key}")
    return found


def hidden_keys(value: Any) -> set[str]:
    """Keys of a hidden kind anywhere in ``value`` (map keys are ids, not fields)."""
    found: set[str] = set()
    if isinstance(value, list):
        for item in value:
            found |= hidden_keys(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            kind = FIELDS.get(key)
            if kind in HIDDEN or kind is None:
                found.add(key)
            if kind is Kind.MAP and isinstance(item, dict):
                for sub in item.values():
                    found |= hidden_keys(sub)
            else:
                found |= hidden_keys(item)
    return found


def combats_of(chain: Chain, events: list[Envelope]) -> list[JSON]:
    """The merged read model of every combat the events name."""
    combats: list[JSON] = []
    for combat_id in sorted({e.combat_id for e in events if e.combat_id}):
        agg = chain.keys.combat("turns", combat_id)
        turns = chain.data.views.get(agg.view_of("turns"))
        if turns is None:
            continue
        resolution = chain.data.views.get(agg.view_of("resolution"))
        version = chain.data.versions.get(agg.version, 0)
        combats.append(
            merge_combat(json.loads(turns), json.loads(resolution) if resolution else None, version)
        )
    return combats


def check_player_view(chain: Chain) -> None:
    events = [e for e in chain.bus.events if e.type not in INTERNAL_EVENTS]
    combats = combats_of(chain, events)
    where: dict[str, str] = {}
    for env in events:
        for path in unnamed(env.payload):
            where.setdefault(path, env.type)
    for combat in combats:
        for path in unnamed(combat):
            where.setdefault(path, "the combat")
    assert not where, f"name these keys in gateway/player_fields.py: {where}"
    maxima: dict[str, int] = {}
    for combat in combats:
        maxima.update(maxima_of(combat))
        shown = player_combat(combat, STRICTEST)
        assert not hidden_keys(shown), (combat["id"], hidden_keys(shown))
    for env in events:
        shown = player_event(public_event(env), STRICTEST, maxima)["data"]
        assert not hidden_keys(shown), (env.type, hidden_keys(shown))
    tell_player_views(events, maxima)


def hidden_numbers(value: Any) -> set[str]:
    """The VIT-like numbers of an event (100 and above: a umh VIT, a damage)."""
    found: set[str] = set()
    if isinstance(value, list):
        for item in value:
            found |= hidden_numbers(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if FIELDS.get(key) is Kind.VIT and isinstance(item, int) and item >= 100:
                found.add(str(item))
            found |= hidden_numbers(item)
    return found


def tell_player_views(events: list[Envelope], maxima: dict[str, int]) -> None:
    casts: dict[str, dict[str, str]] = {}
    for env in events:
        known = casts.setdefault(env.combat_id or "", {})
        known.update(names_in(env.type, env.payload))
        cast = Cast(
            {k: v for k, v in known.items() if k != RULESET_FIELD}, known.get(RULESET_FIELD)
        )
        secret = hidden_numbers(env.payload)
        for visibility in (BARS, STRICTEST):
            shown = player_event(public_event(env), visibility, maxima)["data"]
            for lang in LANGUAGES:
                try:
                    text = narrate(env.type, shown, cast, lang, at=env.occurred_at, strict=True)
                except Exception as exc:
                    raise AssertionError(f"the player view of {env.type}: {shown}") from exc
                leaked = {n for n in secret if re.search(rf"\b{n}\b(?!\s?%)", text)}
                assert not leaked and "None" not in text, (env.type, text, leaked)
