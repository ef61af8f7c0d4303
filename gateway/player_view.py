"""The player view: a combat and its events without what the community hides (docs/views.md).

Pure functions over the JSON the full view serves. Each key is kept or dropped by its kind
(:mod:`gateway.player_fields`) and the community's ``visibility`` settings:

| kind | ``vit: exact`` | ``vit: bar`` | ``vit: none`` |
|---|---|---|---|
| vitality numbers (VIT, pools, health, wounds, damage and its steps) | shown | dropped | dropped |
| named steps (cypher track, l5r wound rank) | shown | shown | dropped |

With ``vit: bar`` a combatant's node gains ``vit_pct`` (what is left, in percent, rounded up
to ``bar_step``, so only a combatant with nothing left shows 0), and a row of
``action.resolved`` gains ``vit_pct_before`` / ``vit_pct_after``. Effects are shown whole
(``effects: exact``), without their amount and duration (``type``) or not at all (``none``).
Where the damage is hidden, a hit gains ``hurt`` (whether it did any). Sheets, settings and
the tenant are never shown; neither is a key the table does not name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gateway.player_fields import FIELDS, OVERRIDES, Kind
from shared.frontend_settings import EffectVisibility, VisibilitySettings, VitVisibility

JSON = dict[str, Any]
Maxima = Mapping[str, int]
"""A combat's vit_max by character (umh): what a bar of an ``action.resolved`` row needs."""


def player_combat(combat: JSON, visibility: VisibilitySettings) -> JSON:
    """``GET /v1/combats/{id}?view=player``."""
    return _node(combat, visibility, {}, {})


def player_event(event: JSON, visibility: VisibilitySettings, maxima: Maxima) -> JSON:
    """A public event (SSE ``data``, a log entry) in the player view: its envelope as is, its
    ``data`` filtered. A ``text`` told from the full data is left out (the caller tells the
    filtered event again)."""
    shown = {k: v for k, v in event.items() if k not in ("data", "text")}
    data = event.get("data")
    overrides = OVERRIDES.get(str(event.get("type")), {})
    shown["data"] = _node(data, visibility, maxima, overrides) if isinstance(data, dict) else {}
    return shown


def maxima_of(combat: JSON) -> dict[str, int]:
    """The vit_max of each participant of a combat (its full view)."""
    found: dict[str, int] = {}
    for cid, part in (combat.get("participants") or {}).items():
        top = part.get("vit_max") if isinstance(part, dict) else None
        if isinstance(top, int) and top > 0:
            found[cid] = top
    return found


def _shown(kind: Kind | None, visibility: VisibilitySettings) -> bool:
    if kind is None or kind is Kind.SECRET:
        return False
    if kind is Kind.VIT:
        return visibility.vit is VitVisibility.EXACT
    if kind is Kind.BAR:
        return visibility.vit is not VitVisibility.NONE
    if kind is Kind.EFFECTS:
        return visibility.effects is not EffectVisibility.NONE
    if kind is Kind.EFFECT_DETAIL:
        return visibility.effects is EffectVisibility.EXACT
    return True


def _walk(value: Any, visibility: VisibilitySettings, maxima: Maxima) -> Any:
    if isinstance(value, dict):
        return _node(value, visibility, maxima, {})
    if isinstance(value, list):
        return [_walk(item, visibility, maxima) for item in value]
    return value


def _node(
    node: JSON, visibility: VisibilitySettings, maxima: Maxima, overrides: Mapping[str, Kind]
) -> JSON:
    shown: JSON = {}
    for key, value in node.items():
        kind = overrides.get(key, FIELDS.get(key))
        if not _shown(kind, visibility):
            continue
        if kind is Kind.MAP and isinstance(value, dict):
            shown[key] = {k: _walk(v, visibility, maxima) for k, v in value.items()}
        else:
            shown[key] = _walk(value, visibility, maxima)
    if visibility.vit is not VitVisibility.EXACT:
        hurt = _hurt(node)
        if hurt is not None:
            shown["hurt"] = hurt
    if visibility.vit is VitVisibility.BAR:
        shown.update(_bars(node, visibility.bar_step, maxima))
    return shown


def _hurt(node: JSON) -> bool | None:
    """Whether a hit's hidden damage was any (umh damage, cypher's damage record, l5r
    wounds), so that a sentence can say he was hurt without saying how much."""
    damage = node.get("damage")
    if isinstance(damage, dict):
        damage = damage.get("damage")
    if "wounds_dealt" in node:
        damage = node.get("wounds_dealt")
    amount = _number(damage)
    if amount is None or (amount == 0 and "steps" in node and not node["steps"]):
        return None  # no hit was computed (a supplementary skill): nothing to tell
    return amount > 0


def bar(left: float, top: float, step: int) -> int:
    """What is left of ``top``, in percent rounded up to ``step`` (0 only for nothing left)."""
    if top <= 0 or left <= 0:
        return 0
    percent = min(100.0, 100.0 * left / top)
    return min(100, math.ceil(percent / step) * step)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _total(pools: Any) -> float | None:
    if not isinstance(pools, dict) or not pools:
        return None
    numbers = [_number(v) for v in pools.values()]
    return None if any(n is None for n in numbers) else sum(n for n in numbers if n is not None)


def _bars(node: JSON, step: int, maxima: Maxima) -> JSON:
    """The bars a node of a combatant's condition gains (umh, cypher, l5r)."""
    pairs = (
        (_number(node.get("vit")), _number(node.get("vit_max"))),
        (_total(node.get("pools")), _total(node.get("pools_max"))),
        (_number(node.get("health")), _number(node.get("health_max"))),
        _wounds_left(node),
    )
    for left, top in pairs:
        if left is not None and top is not None:
            return {"vit_pct": bar(left, top, step)}
    target = node.get("target")
    top = maxima.get(target) if isinstance(target, str) else None
    rows: JSON = {}
    for field in ("vit_before", "vit_after"):
        left = _number(node.get(field))
        if left is not None and top is not None:
            rows[field.replace("vit_", "vit_pct_")] = bar(left, top, step)
    return rows


def _wounds_left(node: JSON) -> tuple[float | None, float | None]:
    """l5r: wounds against the last rank of the wound table (what takes him out)."""
    wounds, table = _number(node.get("wounds")), node.get("wound_table")
    if wounds is None or not isinstance(table, list) or not table:
        return None, None
    top = _number(table[-1].get("up_to")) if isinstance(table[-1], dict) else None
    return (None, None) if top is None else (top - wounds, top)
