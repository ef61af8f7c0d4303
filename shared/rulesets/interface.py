"""What a ruleset brings to the platform: the parts every service and the gateway share.

Each ruleset's ``definition.py`` builds one :class:`SharedRuleset`; :mod:`shared.rulesets.registry`
lists them, and the action union, the sheet union, the error catalogue and the community
settings are composed from that list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel

from shared.narration.said import Narrations


@dataclass(frozen=True)
class SharedRuleset:
    name: str
    """The ``ruleset`` of a sheet and of ``POST /v1/combats``; also its settings key."""
    sheet: type[BaseModel]
    """The character sheet (its ``ruleset`` field is the literal ``name``)."""
    actions: tuple[type[BaseModel], ...]
    """The action bodies only this ruleset accepts (each with a literal ``type``)."""
    moderator_only: frozenset[str]
    """The action types only a moderator may send."""
    errors: Mapping[str, tuple[int, str, str]]
    """Its own error codes: code -> (HTTP status, English, Spanish)."""
    settings: type[BaseModel]
    """Its block of the community settings (every field has a default)."""
    narration: Narrations = field(default_factory=Narrations)
    """Its narrators of public events (``shared/rulesets/<ruleset>/narration*.py``): those of its
    own event types, and those that tell a shared type better than the platform's (docs/events.md
    "Narration and languages")."""
