"""May this character be challenged, join or flee now? (``states.check``)

Pure: the records of the characters asked about, the combats known to have ended, and the
time. The first refusal becomes the request's 422.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.states.domain.record import CharacterRecord
from shared.payloads import Refusal, StatesCheck, StatesChecked


def in_another_combat(
    record: CharacterRecord | None, query: StatesCheck, ended_combats: set[str]
) -> bool:
    """A character fights one combat at a time (API.md ``already_in_combat``).

    ``ended_combats`` are combats whose end this service may not have applied yet but whose
    read model already says they ended.
    """
    if record is None or record.in_combat is None:
        return False
    return record.in_combat != query.combat_id and record.in_combat not in ended_combats


def check(
    records: Mapping[str, CharacterRecord | None],
    query: StatesCheck,
    *,
    ended_combats: set[str],
    now_ms: int,
) -> StatesChecked:
    """The gates of this slice: nobody enters (or starts) a second combat at once."""
    refusals: list[Refusal] = []
    if query.purpose in ("start", "join"):
        for character in query.characters:
            if in_another_combat(records.get(character), query, ended_combats):
                refusals.append(Refusal(character=character, code="already_in_combat", rule=None))
    return StatesChecked(allowed=not refusals, refusals=refusals)
