"""Who calls the API: a community's key, or a stream token minted with one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gateway.errors import ApiError

Scope = Literal["frontend", "moderator", "viewer"]
View = Literal["full", "player"]


@dataclass(frozen=True)
class Principal:
    """Who is calling: a community's key, or a stream token minted with one.

    A ``viewer`` key and every stream token are read-only (they pass only the dependencies
    :func:`reading_principal` and, for a viewer key, :func:`any_key`); ``view`` is what they
    may see: ``player`` hides what the community's ``visibility`` hides (docs/views.md).
    A stream token may also be bound to some ``rooms`` or to one ``combat``.
    """

    community_id: str
    key_id: str
    scope: Scope
    view: View = "full"
    rooms: frozenset[str] | None = None
    combat: str | None = None

    @property
    def is_moderator(self) -> bool:
        return self.scope == "moderator"

    def may_read(self, room: str, combat_id: str | None) -> bool:
        """Whether a stream token bound to rooms or a combat reaches this combat or room."""
        if self.combat is not None and combat_id != self.combat:
            return False
        return self.rooms is None or room in self.rooms

    def view_of(self, asked: View | None) -> View:
        """The view an answer is given in: what was asked (``full`` by default), never more
        than the principal may see (403 for ``view=full`` with a player-only credential)."""
        if self.view == "player":
            if asked == "full":
                raise ApiError("forbidden", details={"needs": "full view", "view": "player"})
            return "player"
        return asked or "full"
