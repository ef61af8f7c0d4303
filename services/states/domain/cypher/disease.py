"""Diseases of a cypher character between combats (seed 001 DAÑO ESPECIAL, enfermedad).

"Las enfermedades funcionan como los venenos, pero sus efectos se aplican diariamente, de
forma que la víctima debe superar una tirada de defensa por Vigor cada día o padecer sus
efectos." A moderator gives a character a disease (``cypher.disease``: its level, the Might
damage and the steps down the track of a failed day); the first Might defense roll is made
at once and one more on each new day (the community's day boundary, B-9), d20 against
3 x level (B-1, B-24). A failed roll deals its damage (Might damage, Armor from the sheet
reduces it as any damage, 001 ARMADURA) and its steps. The disease lasts until a moderator
ends it (``cypher.cure``: the seed says many diseases do not heal by conventional means, so
nothing else ends it). A day's roll due during a combat is made when the combat ends (the
combat works on its own copy of the pools). Each roll has a fresh seed, committed when the
previous one was made; ``disease.rolled`` reveals it (``shared.dice.rolls.replay``).
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.states.domain.cypher.record import CypherRecord, Disease
from services.states.domain.cypher.rests import DAY_MS, day_of, retracked
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.dice.streams import SeededStream, commitment
from shared.domain import TimerRequest
from shared.errors import RuleViolation
from shared.messages import Event
from shared.rulesets.cypher.damage import apply_damage, armor_applied
from shared.rulesets.cypher.difficulty import target_number

RULE: Final = "cypher DAÑO ESPECIAL (enfermedad)"
KIND: Final = "cypher_disease"
DISEASE_ROLLED: Final = "disease.rolled"
DISEASE_CONTRACTED: Final = "disease.contracted"
DISEASE_CURED: Final = "disease.cured"


class DiseaseCommand(BaseModel):
    """``cypher.disease``, moderator only: he catches a disease."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["cypher.disease"]
    name: str = Field(min_length=1, max_length=80)
    level: int = Field(ge=1, le=10, description="its defense roll's difficulty (B-24)")
    damage: int = Field(0, ge=0, le=99, description="Might damage of a failed day")
    steps: int = Field(0, ge=0, le=3, description="steps down the track of a failed day")
    reason: str = Field("", max_length=300)


class CureCommand(BaseModel):
    """``cypher.cure``, moderator only: a disease ends."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["cypher.cure"]
    name: str = Field(min_length=1, max_length=80)
    reason: str = Field(min_length=1, max_length=300)


def next_day_ms(now_ms: int, boundary_minutes: int) -> int:
    """The start of the day after ``now_ms`` (B-9)."""
    return (day_of(now_ms, boundary_minutes) + 1) * DAY_MS + boundary_minutes * 60_000


def timer_of(record: CypherRecord) -> TimerRequest | None:
    """One timer for the earliest day's roll still due."""
    if not record.diseases:
        return None
    due = min(d.next_ms for d in record.diseases)
    timer_id = f"cypher:disease:{record.character}:{due}"
    return TimerRequest(timer_id, due, KIND, {"kind": KIND})


def contract(
    record: CypherRecord, command: DiseaseCommand, armor: int, seed: str, now_ms: int
) -> list[Event]:
    """A new disease (its name replaces one of the same name) and its first roll, now."""
    record.diseases = [d for d in record.diseases if d.name != command.name]
    disease = Disease(
        name=command.name,
        level=command.level,
        damage=command.damage,
        steps=command.steps,
        armor=armor,
        next_ms=now_ms,
        seed=seed,
        commitment=commitment(seed),
    )
    record.diseases.append(disease)
    shown = {
        "character": record.character,
        "disease": command.name,
        "level": command.level,
        "reason": command.reason,
        "rule": RULE,
    }
    return [Event(DISEASE_CONTRACTED, shown), *due_rolls(record, now_ms, next_seed=seed)]


def cure(record: CypherRecord, command: CureCommand) -> list[Event]:
    if not any(d.name == command.name for d in record.diseases):
        raise RuleViolation("no_such_state", RULE, state=command.name)
    record.diseases = [d for d in record.diseases if d.name != command.name]
    shown = {
        "character": record.character,
        "disease": command.name,
        "reason": command.reason,
        "rule": RULE,
    }
    return [Event(DISEASE_CURED, shown)]


def due_rolls(record: CypherRecord, now_ms: int, *, next_seed: str) -> list[Event]:
    """Every day's roll due by ``now_ms`` (none while he is in a combat): d20 against
    3 x level; failed, the damage past Armor and the steps; the next one tomorrow, on a
    seed made from ``next_seed`` (a fresh secret) whose commitment ``disease.rolled``
    shows (``next_commitment``)."""
    if record.in_combat or record.pools is None:
        return []
    boundary = record.day_boundary_minutes or 0
    events: list[Event] = []
    for disease in record.diseases:
        if disease.next_ms > now_ms:
            continue
        rolled = one_roll(record, disease)
        # the next day's seed: from the caller's fresh secret, one per disease; its
        # commitment is published with this roll
        disease.seed = commitment(f"{next_seed}:{disease.name}")
        disease.commitment = commitment(disease.seed)
        disease.next_ms = next_day_ms(now_ms, boundary)
        rolled.payload["next_commitment"] = disease.commitment
        events.append(rolled)
    return events


def one_roll(record: CypherRecord, disease: Disease) -> Event:
    """001 enfermedad: a Might defense roll at the disease's level (B-24); failed, its
    effects (the damage, Might damage that Armor reduces, and the steps)."""
    assert record.pools is not None
    stream = SeededStream(disease.seed, "disease")
    rolled = roll("1d20", stream, purpose=RollPurpose.DISEASE_DEFENSE)
    needed = target_number(disease.level)
    resisted = rolled.total >= needed
    disease.rolls += 1
    shown: dict[str, Any] = {
        "character": record.character,
        "disease": disease.name,
        "level": disease.level,
        "target_number": needed,
        "roll": rolled.as_dict(),
        "seed": disease.seed,
        "commitment": disease.commitment,
        "success": resisted,
        "rule": RULE,
    }
    if not resisted:
        dealt = armor_applied(disease.damage, disease.armor, "might", ignores_armor=False)
        before = record.pools.model_dump()
        record.pools, _ = apply_damage(record.pools, dealt, "might")
        record.special_steps += disease.steps
        retracked(record)
        shown.update(
            raw=disease.damage,
            armor=disease.armor,
            damage=dealt,
            steps=disease.steps,
            pools_before=before,
            pools_after=record.pools.model_dump(),
            track_after=str(record.track_name),
        )
    return Event(DISEASE_ROLLED, shown)
