"""Difficulty of a cypher action (seed 001): range, step modifiers, Effort, target number.

Pure functions. A *step* (grado) is one unit of difficulty; a positive step is in the
defender's favour (harder for the attacker). Order of operations (B-14): base difficulty +
every circumstance step + dazed (B-18) - Effort levels, then floored at 0 and capped at 10.
Services/turns calls :func:`attack_steps` to refuse an impossible attack before it is
declared; services/resolution calls it again to show every step in ``action.resolved``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from shared.errors import RuleViolation
from shared.rulesets.cypher.actions import Circumstances
from shared.rulesets.cypher.sheet import RANGE_ORDER, Attack, CypherSheet, Stat

MAX_DIFFICULTY: Final = 10
IMMEDIATE_M: Final = 3.0
SHORT_M: Final = 15.0
LONG_M: Final = 30.0
IMPOSSIBLE_UNDERWATER: Final = frozenset({"thrown", "bow", "crossbow", "blowgun"})
LOW_LIGHT: Final = ("low_light", "combatir con poca luz", "poca luz")
RIDING: Final = ("riding", "montar")

Category = Literal["immediate", "short", "long", "beyond"]


@dataclass(frozen=True)
class Step:
    """One modifier: its name, its steps (+ = defender's favour) and its rule reference."""

    name: str
    steps: int
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.name, "steps": self.steps, "rule": self.rule}


def range_category(distance_m: float) -> Category:
    """001 DISTANCIA, B-16: immediate <= 3 m; short < 15 m; long < 30 m; beyond: a measure."""
    if distance_m <= IMMEDIATE_M:
        return "immediate"
    if distance_m < SHORT_M:
        return "short"
    if distance_m < LONG_M:
        return "long"
    return "beyond"


def target_number(difficulty: int) -> int:
    """B-1: the d20 must meet or beat 3 x difficulty; difficulty 0 succeeds with no roll."""
    return 3 * difficulty


def clamp(difficulty: int) -> int:
    """B-14: floored at 0 (automatic success), capped at 10."""
    return max(0, min(MAX_DIFFICULTY, difficulty))


def attack_stat(attack: Attack, stat: Stat | None) -> Stat:
    """001 ATACAR: melee is Might or Speed at the player's choice (Intellect refused);
    ranged is Speed unless declared (an arcane attack may be Intellect, RECORD)."""
    if attack.kind == "melee":
        if stat == "intellect":
            raise RuleViolation(
                "invalid_stat_for_attack",
                "cypher ATACAR (melee stat)",
                stat=stat,
                attack=attack.name,
            )
        return stat or "might"
    return stat or "speed"


def check_reach(attack: Attack, c: Circumstances) -> Category:
    """001 ALCANCE / DISTANCIA / AGUA (ranged submerged): melee within immediate range
    (B-19); ranged within the weapon's category, one category less when submerged."""
    where = range_category(c.distance_m)
    reach = RANGE_ORDER[attack.range]
    if attack.kind == "ranged" and c.water == "submerged":
        reach -= 1
    if where == "beyond" or RANGE_ORDER[where] > reach:
        raise RuleViolation(
            "out_of_range",
            "cypher ALCANCE",
            distance_m=c.distance_m,
            category=where,
            reach=attack.range,
            submerged=c.water == "submerged",
        )
    return where


def cover_steps(attack: Attack, c: Circumstances) -> list[Step]:
    """001 COBERTURA: partial cover one step; full cover cannot be attacked (E_TARGET_FULL_COVER)
    unless the attack goes through it."""
    if c.cover == "full" and not attack.pierces_cover:
        raise RuleViolation("target_full_cover", "cypher COBERTURA (full)")
    if c.cover == "partial":
        return [Step("cover", 1, "cypher COBERTURA (partial)")]
    return []


def position_steps(attack: Attack, c: Circumstances, where: Category) -> list[Step]:
    """001 POSICIÓN, SORPRESA (B-25), ALCANCE (bocajarro, extremo)."""
    out: list[Step] = []
    if c.target_prone:
        melee = attack.kind == "melee"
        out.append(Step("target_prone", -1 if melee else 1, "cypher POSICIÓN (postrado)"))
    if c.target_elevated:
        out.append(Step("target_elevated", 1, "cypher POSICIÓN (elevada), B-13"))
    if c.attacker_elevated:
        out.append(Step("attacker_elevated", -1, "cypher POSICIÓN (elevada), B-13"))
    if c.surprise == "unaware":
        out.append(Step("surprise_unaware", -2, "cypher SORPRESA, B-25"))
    elif c.surprise == "on_guard":
        out.append(Step("surprise_on_guard", -1, "cypher SORPRESA, B-25"))
    if attack.kind == "ranged" and where == "immediate":
        out.append(Step("point_blank", -1, "cypher ALCANCE (bocajarro)"))
    if c.extreme_range:
        out.append(Step("extreme_range", 1, "cypher ALCANCE (extremo), B-11"))
    return out


def lighting_steps(
    c: Circumstances, where: Category, training: str | None, *, literal: bool = False
) -> list[Step]:
    """001 ILUMINACIÓN: dim +1 (trained: none); very dim +1 immediate / +2 short; darkness
    located by senses +4 (B-12); training -1, specialized -2, cancelling the penalty only
    (net >= 0, B-23) unless the community reads it literally. Darkness not located: the
    attack misses with no roll (:func:`automatic_miss`) unless 1 XP is spent (+4, B-12)."""
    rule = "cypher ILUMINACIÓN"
    if c.lighting == "light":
        return []
    if c.lighting == "dim":
        penalty = 0 if training else 1
        return [Step("dim_light", penalty, f"{rule} (luz tenue)")]
    penalty = (1 if where == "immediate" else 2) if c.lighting == "very_dim" else 4
    relief = {"trained": 1, "specialized": 2}.get(training or "", 0)
    net = penalty - relief if literal else max(0, penalty - relief)
    name = "very_dim_light" if c.lighting == "very_dim" else "darkness"
    return [Step(name, net, f"{rule} ({name}), B-12, B-23")]


def automatic_miss(c: Circumstances) -> bool:
    """B-12: in darkness, a target not placed by other senses is missed with no roll,
    unless the player spends 1 XP for a lucky hit."""
    return c.lighting == "darkness" and not c.located_by_senses and not c.xp_spent


def water_steps(attack: Attack, c: Circumstances, aquatic: bool) -> list[Step]:
    """001 AGUA: shallow nothing; chest-deep +1; submerged melee +2 slashing / bludgeoning,
    +1 piercing; submerged ranged +1, throwing / bow / crossbow / blowgun impossible
    (E_ATTACK_IMPOSSIBLE_UNDERWATER). Aquatic creatures ignore the steps."""
    ranged = attack.kind == "ranged"
    if c.water == "submerged" and ranged and attack.ranged_kind in IMPOSSIBLE_UNDERWATER:
        raise RuleViolation(
            "attack_impossible_underwater", "cypher AGUA (ranged submerged)", attack=attack.name
        )
    if aquatic or c.water in ("none", "shallow"):
        return []
    if c.water == "deep":
        return [Step("deep_water", 1, "cypher AGUA (profunda)")]
    if attack.kind == "ranged":
        return [Step("underwater_ranged", 1, "cypher AGUA (ranged submerged)")]
    steps = 1 if attack.weapon == "piercing" else 2
    return [Step("underwater_melee", steps, "cypher AGUA (melee submerged)")]


def movement_steps(c: Circumstances, riding: str | None) -> list[Step]:
    """001 MOVIMIENTO: a very fast target +1; from a moving mount or vehicle +1 (trained
    riders ignore it); off-balance +1 (unless a skill cancels it, RECORD)."""
    out: list[Step] = []
    if c.target_moving_fast:
        out.append(Step("target_moving", 1, "cypher MOVIMIENTO (objetivo)"))
    if c.attacker_mounted and not riding:
        out.append(Step("attacker_mounted", 1, "cypher MOVIMIENTO (atacante)"))
    if c.off_balance and not c.off_balance_ignored:
        out.append(Step("off_balance", 1, "cypher MOVIMIENTO (desequilibrado)"))
    return out


def attack_steps(
    sheet: CypherSheet, attack: Attack, c: Circumstances, *, literal_low_light: bool = False
) -> list[Step]:
    """Every circumstance step of an attack, in the seed's order, after its refusals
    (range, full cover, underwater); raises :class:`RuleViolation` for those."""
    where = check_reach(attack, c)
    steps = cover_steps(attack, c)
    steps += water_steps(attack, c, sheet.aquatic)
    steps += position_steps(attack, c, where)
    steps += lighting_steps(c, where, sheet.training(*LOW_LIGHT), literal=literal_low_light)
    if c.lighting == "darkness" and not c.located_by_senses and c.xp_spent:
        steps.append(Step("lucky_hit", 0, "cypher ILUMINACIÓN (oscuridad), B-12: 1 XP"))
    steps += movement_steps(c, sheet.training(*RIDING))
    if c.other_steps:
        steps.append(Step("other", c.other_steps, "cypher ATACAR (factors), GM"))
    return steps


def difficulty(base: int, steps: list[Step], *, dazed: bool = False, effort: int = 0) -> int:
    """B-14 order: base + steps + dazed (B-18, one step harder) - Effort, floored 0, capped 10."""
    total = base + sum(s.steps for s in steps) + (1 if dazed else 0) - effort
    return clamp(total)


def defense_of(sheet: CypherSheet) -> int:
    """The base difficulty of an attack on a character: an NPC's level (B-1), a PC's
    ``defense`` (default: his tier; reading of this referee, docs/cypher.md)."""
    if sheet.kind == "npc":
        return int(sheet.level or 1)
    return sheet.defense if sheet.defense is not None else sheet.tier
