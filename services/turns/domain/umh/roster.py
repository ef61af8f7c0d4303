"""Entering the combat: a sheet snapshot becomes a participant (umh 1.2, 3.1.1, 2.3.2)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from services.turns.domain.umh.limits import week_of
from services.turns.domain.umh.participant import Participant, Side, SkillInfo
from services.turns.domain.umh.state import Settings
from shared.errors import RuleViolation
from shared.rulesets.umh.attributes import below_one
from shared.rulesets.umh.sheet import Nature, Skill, UmhSheet

RULESET = "umh"


def parse_sheet(character: str, raw: dict[str, Any] | None) -> UmhSheet:
    """A sheet snapshot validated as a umh sheet (``unknown_character``, ``ruleset_mismatch``,
    ``invalid_request``)."""
    if raw is None:
        raise RuleViolation("unknown_character", None, character=character)
    if raw.get("ruleset") != RULESET:
        raise RuleViolation("ruleset_mismatch", None, character=character, got=raw.get("ruleset"))
    try:
        return UmhSheet.model_validate(raw)
    except ValidationError as exc:
        raise RuleViolation(
            "invalid_request", None, character=character, errors=exc.error_count()
        ) from exc


def skill_info(skill: Skill) -> SkillInfo:
    """What turns needs of a skill (its flags for who may use it, when and at what cost)."""
    return SkillInfo(
        name=skill.name,
        pa=skill.pa,
        type=skill.type.value,
        defense_kind=skill.defense_kind.value if skill.defense_kind else None,
        hits=skill.hits,
        area=skill.area.shape.value if skill.area else None,
        cooldown_rounds=skill.cooldown_rounds,
        uses_per_round=skill.uses_per_round,
        uses_per_combat=skill.uses_per_combat,
        uses_per_week=skill.uses_per_week,
        raises_slots=skill.raises_slots,
        flight=skill.flight,
        flight_cooldown_hours=skill.flight_cooldown_hours,
        joins_combat=skill.joins_combat,
        grants_interference=skill.grants_interference,
        interference_skill=skill.interference_skill,
        out_of_turn=skill.out_of_turn,
        preparation=skill.preparation,
        requires_preparation=skill.requires_preparation,
        telepathic=skill.telepathic,
        speech=skill.speech,
        needs_legs=skill.needs_legs,
        sets_position=skill.sets_position.value if skill.sets_position else None,
        teleport=Nature.TELETRANSPORTADORA in skill.natures,
        covers_allies=skill.covers_allies,
        melee=skill.melee,
        physical_preparation=skill.physical_preparation,
        disputed=skill.disputed,
        reach=skill.reach,
        precognition=skill.precognition,
        reactable_times=skill.reactable_times,
        terrain=skill.terrain.model_dump(mode="json") if skill.terrain else None,
        passive=skill.passive,
    )


def number(value: float) -> float:
    """JSON-friendly speed: 6.0 is kept as 6."""
    return int(value) if float(value).is_integer() else value


def new_participant(
    sheet: UmhSheet,
    raw: dict[str, Any],
    side: Side,
    joined_seq: int,
    settings: Settings,
    now_ms: int,
    weekly_uses: dict[str, int] | None = None,
) -> Participant:
    """umh 3.1.1 / 2.3.2 / 2.3.4.2: everyone enters with his PA, his whole speed and the
    weekly uses services/states counted for him this week (keyed case-insensitively).

    His speed is the sheet's VEL as the combat reads a figure under 1 (2.6.1.2 / A-22: kept,
    so it pays for no square; a setting: 1); it orders the turns and pays for movement."""
    vel = number(below_one(sheet.stats.vel, settings.readings.stat_below_one))
    return Participant(
        side=side,
        vel=vel,
        pa=settings.pa_per_round,
        movement_left=vel,
        joined_seq=joined_seq,
        skills={s.name.casefold(): skill_info(s).to_dict() for s in sheet.skills},
        sheet=dict(raw),
        weekly_uses={k.casefold(): int(v) for k, v in (weekly_uses or {}).items()},
        weekly_week=week_of(now_ms, settings.timezone),
        joined_at_ms=now_ms,
    )
