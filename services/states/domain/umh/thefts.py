"""Items stolen in combat (umh 4.2.5): kept only from rivals of equal or higher rank.

"No los conservaremos si el rival posee rango inferior al nuestro": a theft stated in combat
(``item.stolen``) is kept on the thief's open combat; at its end each one is decided, in
his history and as an ``aftermath.applied`` (change ``theft``): ``kept`` from a rival of
equal or higher rank, ``returned`` from a lower one. Ranks are the sheets' (an external
scale, A-85), as the end of the combat or the start's snapshot reports them; an unknown
rank, his or the rival's, does not count, as for combat requirements (4.4.4, 1.1.5): the
item goes back. An annulled combat counts nothing (4.2.4): everything goes back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from services.states.domain.umh.history import note
from services.states.domain.umh.record import CharacterRecord, EndedCombat, OpenCombat, Theft
from services.states.domain.umh.requirements import Rival, not_lower
from shared.outcome import Outcome

RULE: Final = "umh 4.2.5"
MAX_THEFTS: Final = 50
"""Thefts kept per open combat (a bound on the record)."""


def record_theft(
    record: CharacterRecord, combat_id: str | None, theft: Theft
) -> CharacterRecord | None:
    """umh 4.2.5: the theft waits for the end of its combat (None: not his open combat, or the
    same item from the same rival already stated)."""
    combat = record.open_combat(combat_id)
    if combat is None:
        return None
    same = (theft.victim, theft.item.casefold())
    if any((t.victim, t.item.casefold()) == same for t in combat.thefts):
        return None
    return record.with_open(replace(combat, thefts=(*combat.thefts, theft)[-MAX_THEFTS:]))


def rank_of(combat: EndedCombat, character: str) -> int | None:
    """The rank the end of the combat (or the start's sheets) gave ``character``."""
    part = combat.participants.get(character)
    if part is not None and part.rank is not None:
        return part.rank
    facts = combat.facts_of(character)
    return facts.rank if facts else None


def settle_thefts(
    record: CharacterRecord, out: Outcome, combat: EndedCombat, opened: OpenCombat | None
) -> CharacterRecord:
    """umh 4.2.5 / 4.2.4: at the end, each theft of the combat is kept or returned."""
    if opened is None:
        return record
    me = Rival(rank_of(combat, record.character), None)
    for theft in opened.thefts:
        rival = Rival(rank_of(combat, theft.victim), None)
        if combat.reason == "annulled":
            kept, rule, reason = False, "umh 4.2.4", "annulled"
        elif me.rank is None or rival.rank is None:
            kept, rule, reason = False, RULE, "rank_unknown"
        elif not_lower(me, rival):
            kept, rule, reason = True, RULE, "equal_or_higher_rank"
        else:
            kept, rule, reason = False, RULE, "lower_rank"
        record = note(
            record,
            out,
            at_ms=combat.ended_ms,
            change="theft",
            combat_id=combat.combat_id,
            rule=rule,
            reason=reason,
            kept=kept,
            item=theft.item,
            skill=theft.skill,
            target=theft.victim,
            thief_rank=me.rank,
            target_rank=rival.rank,
        )
    return record
