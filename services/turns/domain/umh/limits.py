"""How often a skill may be used (umh 2.3.1.2 - 2.3.1.4, 2.3.4 - 2.3.4.2, 8.2.5.1).

Checks raise :class:`RuleViolation`; ``note_*`` functions count a use once it is accepted.
Basic commands (move, pass, flee without a skill, join...) are not skills and never reach
these functions (umh 2.3.1.4).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.state import Settings
from shared.errors import RuleViolation

COUNTED_REACTIONS: Final = frozenset({"annulment", "anticipation", "reflection"})
"""umh 2.3.4.1 / 8.2.5.1 / A-21: the defense kinds with a per-combat use limit."""
SHARED_COUNTER: Final = "annul_anticipate"


def check_round_uses(actor: Participant, skill: SkillInfo) -> None:
    """umh 2.3.1.3: the same skill at most once per round (or its own ``uses_per_round``)."""
    used = actor.used_round.get(skill.key, 0)
    if used >= skill.uses_per_round:
        raise RuleViolation(
            "ability_already_used_this_round",
            "umh 2.3.1.3",
            skill=skill.name,
            uses_per_round=skill.uses_per_round,
        )


def check_cooldown(actor: Participant, skill: SkillInfo, round_: int) -> None:
    """umh 2.3.4 / 8.2.3.4 / A-19: not before the round its cooldown ends."""
    ready = actor.cooldowns.get(skill.key)
    if ready is not None and round_ < ready:
        raise RuleViolation(
            "on_cooldown", "umh 2.3.4", skill=skill.name, ready_round=ready, round=round_
        )


def week_of(now_ms: int, timezone: str) -> str:
    """umh 2.3.4.2: the week (Monday 00:00 to Sunday 23:59, ``timezone``, hpe by default)
    that ``now_ms`` falls in, named by its Monday's date (DST-aware)."""
    local = datetime.fromtimestamp(now_ms / 1000, tz=UTC).astimezone(ZoneInfo(timezone))
    monday = local.date() - timedelta(days=local.weekday())
    return monday.isoformat()


def weekly_used(actor: Participant, skill: SkillInfo, week: str) -> int:
    """Uses of the skill this week: the snapshot of services/states (taken in the week
    ``weekly_week``) plus this combat's; nothing once the week changed (T000-24)."""
    if actor.weekly_week != week:
        return 0
    return actor.weekly_uses.get(skill.key, 0)


def check_weekly(actor: Participant, skill: SkillInfo, now_ms: int, settings: Settings) -> None:
    """umh 2.3.4.2: a skill with weekly uses is refused once they are spent this week.

    No code of docs/rules.md section 9 names this: ``on_cooldown`` with the weekly rule.
    """
    if skill.uses_per_week is None:
        return
    used = weekly_used(actor, skill, week_of(now_ms, settings.timezone))
    if used >= skill.uses_per_week:
        raise RuleViolation(
            "on_cooldown",
            "umh 2.3.4.2",
            skill=skill.name,
            uses_per_week=skill.uses_per_week,
            used_this_week=used,
        )


def reaction_limit(skill: SkillInfo, settings: Settings) -> int | None:
    """umh 2.3.4.1 / 8.2.5.1 / A-20 / A-21: uses per combat of an annulment, anticipation or
    reflection: its document's number if it states one, else the community's (5)."""
    if skill.defense_kind not in COUNTED_REACTIONS:
        return None
    if skill.uses_per_combat is not None:
        return skill.uses_per_combat
    return settings.uses_per_combat_annul_anticipate


def reaction_counter(skill: SkillInfo, settings: Settings) -> str:
    """A-20: one counter per skill (a setting: one counter for all of them)."""
    return SHARED_COUNTER if settings.readings.annul_anticipate_counter == "shared" else skill.key


def check_reaction_uses(
    actor: Participant, skill: SkillInfo, use_number: int | None, settings: Settings
) -> None:
    """umh 2.3.1.2 / 2.3.4.1: a limited reaction states its use number; refused once its
    uses are spent, or when the number is not the next one (uses so far + 1)."""
    limit = reaction_limit(skill, settings)
    if limit is None:
        return
    if use_number is None:
        raise RuleViolation("use_number_missing", "umh 2.3.1.2", skill=skill.name)
    used = actor.reaction_uses.get(reaction_counter(skill, settings), 0)
    if used >= limit:
        raise RuleViolation(
            "reaction_uses_exhausted", "umh 2.3.4.1", skill=skill.name, used=used, max=limit
        )
    if use_number != used + 1:
        raise RuleViolation(
            "use_number_mismatch", "umh 2.3.1.2", expected=used + 1, declared=use_number
        )


def check_per_combat(actor: Participant, skill: SkillInfo) -> None:
    """umh 2.3.4.1 (the document's own number): any other skill with ``uses_per_combat``."""
    if skill.uses_per_combat is None or skill.defense_kind in COUNTED_REACTIONS:
        return
    used = actor.reaction_uses.get(skill.key, 0)
    if used >= skill.uses_per_combat:
        raise RuleViolation(
            "reaction_uses_exhausted",
            "umh 2.3.4.1",
            skill=skill.name,
            used=used,
            max=skill.uses_per_combat,
        )


def note_use(
    actor: Participant,
    skill: SkillInfo,
    *,
    round_: int,
    now_ms: int,
    settings: Settings,
    in_round: bool,
) -> None:
    """Count an accepted use: this round's (2.3.1.3), the cooldown (2.3.4, A-19: usable again
    from round r + n + 1; a setting: r + n), the combat's (2.3.4.1), the week's (2.3.4.2)."""
    if in_round:
        actor.used_round[skill.key] = actor.used_round.get(skill.key, 0) + 1
    if skill.cooldown_rounds:
        extra = 1 if settings.readings.cooldown_from_next_round else 0
        actor.cooldowns[skill.key] = round_ + skill.cooldown_rounds + extra
    if reaction_limit(skill, settings) is not None:
        counter = reaction_counter(skill, settings)
        actor.reaction_uses[counter] = actor.reaction_uses.get(counter, 0) + 1
        actor.uses[SHARED_COUNTER] = actor.uses.get(SHARED_COUNTER, 0) + 1
    elif skill.uses_per_combat is not None:
        actor.reaction_uses[skill.key] = actor.reaction_uses.get(skill.key, 0) + 1
    if skill.uses_per_week is not None:
        week = week_of(now_ms, settings.timezone)
        if actor.weekly_week != week:
            actor.weekly_uses, actor.weekly_week = {}, week
        actor.weekly_uses[skill.key] = actor.weekly_uses.get(skill.key, 0) + 1
