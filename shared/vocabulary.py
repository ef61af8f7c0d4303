"""The words every ruleset shares with the platform and the API, as enums.

``StrEnum`` members are strings: they compare equal to their value and are written to JSON
as it, so a stored state or an event payload reads the same as when these were plain
strings (docs/api.md "Fields", "Events").
"""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """umh 1.2.1 (and every ruleset): a combat has exactly two sides."""

    ATTACKERS = "attackers"
    DEFENDERS = "defenders"

    @property
    def other(self) -> Side:
        return Side.DEFENDERS if self is Side.ATTACKERS else Side.ATTACKERS


SIDES: tuple[Side, Side] = (Side.ATTACKERS, Side.DEFENDERS)


class Phase(StrEnum):
    """docs/api.md ``phase`` of a combat: opening (umh 1.1), preparation (umh 1.3, l5r Velocidad),
    fighting, ended."""

    OPENING = "opening"
    PREPARATION = "preparation"
    FIGHTING = "fighting"
    ENDED = "ended"


class EndReason(StrEnum):
    """Why a combat ended (``combat.ended`` ``reason``): ``defeat`` (a side all down or out,
    umh 4.1.1.2), ``fled`` (a side all fled, 4.1.1.1), ``pact`` (4.1.1.3), ``stalemate``
    (2.3.3.1: both sides lose), ``disconnected`` (a side out after the grace, 4.3.3),
    ``annulled`` (a moderator, 4.2.4)."""

    DEFEAT = "defeat"
    FLED = "fled"
    PACT = "pact"
    STALEMATE = "stalemate"
    DISCONNECTED = "disconnected"
    ANNULLED = "annulled"


class PublicStatus(StrEnum):
    """docs/api.md participant ``status`` in ``combat.ended`` and the read model."""

    ACTIVE = "active"
    DOWN = "down"
    FLED = "fled"
    DISCONNECTED = "disconnected"


class EffectKind(StrEnum):
    """docs/api.md effect ``kind``: indirect damage (umh 11.2 - 11.3), crowd control (11.4),
    states (11.5), and what a player keeps up on himself (boosters, reductions,
    regenerations, mental shields, coatings; umh 7.3, 8.1.1.2, 9.2.6, 9.7)."""

    INDIRECT = "indirect"
    CONTROL = "control"
    STATE = "state"
    BOOSTER = "booster"
    REDUCTION = "reduction"
    REGENERATION = "regeneration"
    SHIELD = "shield"
    COATING = "coating"
    INCREASE = "increase"
