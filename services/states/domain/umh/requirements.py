"""Combat requirements (umh 4.4): one general per combat, one per profile or skill asked for.

A requirement is earned *from* the opponents: none from lower-rank characters (4.4.4) nor
from those who share a group or alliance (4.4.5). Where an opponent's rank is not known (his
sheet never reached this record), he does not count: when in doubt, you can't (1.1.5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from services.states.domain.umh.facts import SheetFacts
from services.states.domain.umh.history import note
from services.states.domain.umh.record import (
    MAX_REQUIREMENTS,
    CharacterRecord,
    EndedCombat,
    Requirement,
)
from shared.errors import RuleViolation
from shared.outcome import Outcome

RULE_OF_KIND: Final = {"general": "umh 4.4.1", "profile": "umh 4.4.2", "skill": "umh 4.4.3"}

NO_BENEFIT_REASONS: Final = {"stalemate": "umh 2.3.3.1.2", "annulled": None}
"""Ends that grant nothing (2.3.3.1.2; an annulled combat does not count)."""


@dataclass(frozen=True)
class Rival:
    """What 4.4.4 and 4.4.5 look at: a character's rank and alliance (None: unknown)."""

    rank: int | None
    alliance: str | None


def same_alliance(one: Rival, other: Rival) -> bool:
    """umh 4.4.5: both belong to the same group or alliance (names compared case-insensitively)."""
    if one.alliance is None or other.alliance is None:
        return False
    return one.alliance.casefold() == other.alliance.casefold()


def not_lower(me: Rival, other: Rival) -> bool:
    """umh 4.4.4 / 4.2.5: ``other``'s rank is equal to or higher than ``me``'s. An unknown rank,
    his or mine, does not count (when in doubt, you can't, 1.1.5)."""
    return me.rank is not None and other.rank is not None and other.rank >= me.rank


def rank_refusal(me: Rival, opponents: Iterable[Rival]) -> RuleViolation | None:
    """umh 4.4.4 - 4.4.5: may a requirement be earned from these opponents?

    Order: keep the opponents of known rank not lower than his (4.4.4); none left refuses
    ``requirement_from_lower_rank``; if all of those share his alliance, 4.4.5 refuses
    ``requirement_same_alliance``. His own unknown rank refuses as 4.4.4 (1.1.5).
    """
    if me.rank is None:
        return RuleViolation("requirement_from_lower_rank", "umh 4.4.4", rank=None)
    peers = [o for o in opponents if not_lower(me, o)]
    if not peers:
        return RuleViolation("requirement_from_lower_rank", "umh 4.4.4", rank=me.rank)
    if all(same_alliance(me, o) for o in peers):
        return RuleViolation("requirement_same_alliance", "umh 4.4.5", alliance=me.alliance)
    return None


def already_earned(combat: EndedCombat, kind: str, name: str | None) -> bool:
    """umh 4.4.1 - 4.4.3: one general per combat (A-72), one per profile / skill per combat."""
    if kind == "general":
        return any(k == "general" for k, _ in combat.requirements)
    folded = (name or "").casefold()
    return any(k == kind and (n or "").casefold() == folded for k, n in combat.requirements)


def earn(
    record: CharacterRecord,
    out: Outcome,
    combat: EndedCombat,
    *,
    kind: str,
    name: str | None,
    at_ms: int,
) -> CharacterRecord:
    """Record a requirement earned in ``combat`` (``aftermath.applied``, change ``requirement``)."""
    earned = Requirement(combat.combat_id, kind, name, at_ms)
    combat = replace(combat, requirements=(*combat.requirements, (kind, name)))
    record = replace(record, requirements=(*record.requirements, earned)[-MAX_REQUIREMENTS:])
    return note(
        record.with_ended(combat),
        out,
        at_ms=at_ms,
        change="requirement",
        combat_id=combat.combat_id,
        rule=RULE_OF_KIND[kind],
        reason="earned",
        kind=kind,
        name=name,
    )


def claim_refusal(
    combat: EndedCombat, me: Rival, opponents: Iterable[Rival], kind: str, name: str | None
) -> RuleViolation | None:
    """umh 4.4: why this requirement cannot be earned in this combat, or None.

    Order: an end that grants nothing (2.3.3.1.2 stalemate, annulment); one per combat and
    kind / name (4.4.1 - 4.4.3); then rank and alliance (4.4.4, 4.4.5).
    """
    if combat.reason in NO_BENEFIT_REASONS:
        rule = NO_BENEFIT_REASONS[combat.reason]
        return RuleViolation("requirement_not_available", rule, reason=combat.reason)
    if already_earned(combat, kind, name):
        return RuleViolation("requirement_already_earned", RULE_OF_KIND[kind], kind=kind, name=name)
    return rank_refusal(me, opponents)


def rivals(
    combat: EndedCombat, character: str, fallback: Mapping[str, SheetFacts]
) -> tuple[Rival, list[Rival]]:
    """His own rank and alliance and his opponents' (the other side), as far as known.

    Each comes from the end of the combat, else the combat's snapshot of the sheets, else
    ``fallback`` (current sheets the gateway sent along).
    """

    def rival(cid: str) -> Rival:
        part = combat.participants.get(cid)
        facts = combat.facts_of(cid) or fallback.get(cid)
        rank = part.rank if part and part.rank is not None else (facts.rank if facts else None)
        alliance = part.alliance if part and part.alliance else (facts.alliance if facts else None)
        return Rival(rank, alliance)

    side = combat.participants[character].side
    others = [cid for cid, p in combat.participants.items() if p.side != side]
    return rival(character), [rival(cid) for cid in others]


def claim(
    record: CharacterRecord,
    out: Outcome,
    *,
    combat_id: str,
    kind: str,
    name: str | None,
    fallback: Mapping[str, SheetFacts],
    at_ms: int,
) -> CharacterRecord:
    """umh 4.4.1 - 4.4.5: a requirement asked for after the combat (``POST .../requirements``).

    Order: the combat must have ended for him (``wrong_phase`` while it runs, ``not_in_combat``
    if he was not in it); a profile or skill is named; a skill must be one that asks for a
    requirement and that he used in that combat (4.4.3); then :func:`claim_refusal`.
    """
    combat = record.ended_combat(combat_id)
    if combat is None:
        if record.open_combat(combat_id) is not None:
            raise RuleViolation("wrong_phase", "umh 4.4", combat_id=combat_id)
        raise RuleViolation("not_in_combat", None, character=record.character)
    if kind != "general" and not name:
        raise RuleViolation("invalid_request", None, field="name")
    if kind == "skill":
        facts = combat.facts_of(record.character) or record.own
        asks = facts is not None and facts.has_requirement_skill(name or "")
        used = (name or "").casefold() in {s.casefold() for s in combat.skills_used}
        if not (asks and used):
            raise RuleViolation(
                "requirement_not_applicable", "umh 4.4.3", skill=name, asks=asks, used=used
            )
    me, opponents = rivals(combat, record.character, fallback)
    refusal = claim_refusal(combat, me, opponents, kind, name)
    if refusal is not None:
        raise refusal
    return earn(record, out, combat, kind=kind, name=name, at_ms=at_ms)


def general_requirement(
    record: CharacterRecord, out: Outcome, combat: EndedCombat
) -> CharacterRecord:
    """umh 4.4.1 (A-72): every participant earns the combat's general requirement at its end,
    unless :func:`claim_refusal` says otherwise (then nothing is written)."""
    me, opponents = rivals(combat, record.character, {})
    if claim_refusal(combat, me, opponents, "general", None) is not None:
        return record
    return earn(record, out, combat, kind="general", name=None, at_ms=combat.ended_ms)
