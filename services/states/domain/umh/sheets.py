"""From a umh sheet snapshot (docs/api.md "Endpoints") to the facts the aftermath keeps of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from services.states.domain.umh.facts import PostCombatFacts, SheetFacts
from shared.rulesets.umh.sheet import UmhSheet


def facts_of(sheet: Mapping[str, Any] | None) -> SheetFacts | None:
    """Rank and alliance (umh 4.4.4 - 4.4.5), profile and flight skills (4.1.1.1.1 -
    4.1.1.1.2), cell and post-combat skills (4.1.2, 4.5.1), requirement skills (4.4.3).

    ``None`` for a missing sheet or one that is not a valid umh sheet.
    """
    if sheet is None:
        return None
    try:
        parsed = UmhSheet.model_validate(sheet)
    except ValidationError:
        return None
    post_combat = {
        skill.name: PostCombatFacts(
            kind=skill.post_combat.kind,
            vigor=skill.post_combat.vigor,
            state=skill.post_combat.state,
            seconds=skill.post_combat.seconds,
            stacks=skill.post_combat.stacks,
        )
        for skill in parsed.skills
        if skill.post_combat is not None
    }
    return SheetFacts(
        rank=parsed.stats.rank,
        alliance=parsed.alliance,
        profile=parsed.profile,
        cell=parsed.cell,
        post_combat=post_combat,
        requirement_skills=tuple(s.name for s in parsed.skills if s.requirement),
        flight_cooldown_hours={s.name: s.flight_cooldown_hours for s in parsed.skills if s.flight},
    )


def roster_of(sheets: Mapping[str, Mapping[str, Any]]) -> dict[str, SheetFacts]:
    """The facts of every valid sheet, by character."""
    facts = {character: facts_of(sheet) for character, sheet in sheets.items()}
    return {character: f for character, f in facts.items() if f is not None}
