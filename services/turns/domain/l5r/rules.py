"""Pure rules of seed 004 that services/turns applies: raises, TN, stances, Void, initiative.

No I/O, no clock, no global random: dice come in as a stream. Every function names its rule
(docs/rules.md section 4 and the readings C-n of 6.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from shared.dice.notation import DiceSpec, roll_and_keep
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.errors import RuleViolation
from shared.rulesets.l5r.actions import CombatRaises

if TYPE_CHECKING:
    from services.turns.domain.l5r.fighter import Fighter, FullDefense

RAISE_TN: Final = 5
"""C-1: each declared raise adds 5 to the TN; a free raise cancels one or buys one effect."""

VOID_COSTS: Final[dict[str, int]] = {
    "mejora_die": 1,
    "mejora_rank": 1,
    "mejora_raise": 1,
    "alentar": 2,
    "cambiar_iniciativa": 1,
    "golpe_final": 3,
    "golpe_final_dead": 5,
    "incremento_no": 1,
    "obtener_accion": 2,
    "persistencia": 1,
    "reduccion_heridas": 1,
    "velocidad": 2,
}
"""T004-04: the cost of every Void use (004 "Usos")."""

CALLED_SHOT: Final[dict[str, int]] = {"torso": 1, "arm": 2, "leg": 2, "head": 3}
"""Ataque localizado (T004-19): torso 1, arms or legs 2, head 3 raises."""
KNOCKDOWN_RAISES: Final = 3
DISARM_RAISES: Final = 3
FEINT_RAISES: Final = 1
EXTRA_ATTACK_RAISES: Final = 4
TN_BOOST: Final = 10
"""Incremento del NO: +10 to the TN to be hit until the next turn (C-8)."""
WOUND_REDUCTION: Final = 10

ACTIONS: Final = (
    "complex",
    "simple",
    "ranged",
    "melee",
    "run",
    "speak",
    "ride",
    "move",
    "stand_up",
    "special",
)
ALLOWED: Final[dict[str, frozenset[str]]] = {
    "attack": frozenset(ACTIONS),
    "full_attack": frozenset({"simple", "melee", "speak", "move", "stand_up"}),
    "full_defense": frozenset({"simple", "speak", "stand_up"}),
}
"""Tabla posición/acción (004 lines 65-108; T004-27, C-30). Moving in Full Defense: C-16."""


def check_allowed(stance: str, action: str) -> None:
    """Tabla posición/acción (T004-27): what the stance forbids is refused."""
    if action not in ALLOWED[stance]:
        raise RuleViolation(
            "action_not_allowed_in_stance",
            "l5r Tabla posición/acción",
            stance=stance,
            action=action,
        )


def raise_max(void_ring: int, skill_rank: int, *, mejora_rank: bool = False) -> int:
    """Aumentos (max), T004-01 / C-28: max(Void ring, skill rank); Mejora's rank counts."""
    return max(void_ring, skill_rank + (1 if mejora_rank else 0))


def check_paid_raises(paid: int, maximum: int, *, skilled: bool) -> None:
    """Aumentos (max / unskilled), T004-01, T004-02: free raises are not counted here."""
    if paid and not skilled:
        raise RuleViolation("unskilled_no_raises", "l5r Aumentos (unskilled)", raises=paid)
    if paid > maximum:
        raise RuleViolation("too_many_raises", "l5r Aumentos (max)", raises=paid, max=maximum)


def check_void_on_roll(uses: list[str], *, persistencia_more_points: bool = True) -> None:
    """Vacío (one use), T004-05 / C-4: one Void use per roll (Alentar's point is apart);
    no use twice on one roll. Persistencia: "Puedes gastar más de un punto de Vacío para
    mejorar esta tirada": with the setting on (the default), a roll with Persistencia may
    also carry the Mejora uses, each once (C-4); off, Persistencia is one use like any."""
    if len(set(uses)) != len(uses):
        raise RuleViolation("one_void_use_per_roll", "l5r Vacío (one use)", uses=uses)
    if len(uses) <= 1:
        return
    if persistencia_more_points and "persistencia" in uses:
        return
    raise RuleViolation("one_void_use_per_roll", "l5r Vacío (one use)", uses=uses)


def check_void(available: int, cost: int, use: str) -> None:
    """T004-04: a use needs its points."""
    if available < cost:
        raise RuleViolation("not_enough_void", "l5r Vacío", use=use, cost=cost, void=available)


@dataclass(frozen=True)
class FreeRaise:
    """Free raises of one source and what they may buy: ``tn`` (lower the TN), ``damage``,
    ``effect`` (any other combat raise)."""

    source: str
    count: int
    uses: frozenset[str]


FULL_ATTACK_OWN: Final = frozenset({"tn", "damage"})  # C-14
ANY: Final = frozenset({"tn", "damage", "effect"})  # enemy in Full Attack (C-14), feint
NOT_TN: Final = frozenset({"damage", "effect"})  # Mejora free raise (004 lines 14-16)
DAMAGE_ONLY: Final = frozenset({"damage"})  # Concentración (C-26)


@dataclass
class RaisePlan:
    """How the raises of one attack are paid: ``paid`` declared (+5 TN each), free raises
    spent, the TN lowered by leftover free raises, damage raises in all."""

    paid: int
    forced: int
    free_used: dict[str, int] = field(default_factory=dict)
    tn_lowered: int = 0
    damage_raises: int = 0
    effects: int = 0


def effect_cost(raises: CombatRaises) -> int:
    """Aumentos en combate: the raises the non-damage effects cost (T004-19, 004 110-116)."""
    cost = CALLED_SHOT.get(raises.called_shot or "", 0)
    cost += KNOCKDOWN_RAISES if raises.knockdown else 0
    cost += DISARM_RAISES if raises.disarm else 0
    cost += FEINT_RAISES if raises.feint else 0
    cost += EXTRA_ATTACK_RAISES if raises.extra_attack else 0
    return cost + (raises.protect.raises if raises.protect is not None else 0)


def plan_raises(raises: CombatRaises, free: list[FreeRaise], forced: int) -> RaisePlan:
    """C-1 / C-14 / C-26 / T004-01: free raises pay the declared effects first (damage-only
    ones on damage, the rest on effects then damage); what remains is paid (+5 TN each),
    forced raises (C-19, C-20, C-31) always are. Leftover free raises lower the TN (5 each)
    when their source allows, else add damage."""
    effects, damage = effect_cost(raises), raises.damage
    lower = raises.lower_tn
    plan = RaisePlan(paid=0, forced=forced, effects=effects)
    left = {f.source: f.count for f in free}
    order = sorted(free, key=lambda f: (len(f.uses), "tn" in f.uses))
    for f in order:  # the most restricted sources first
        if "effect" in f.uses:
            used = min(left[f.source], effects)
            effects -= used
            left[f.source] -= used
        if "damage" in f.uses:
            used = min(left[f.source], damage)
            damage -= used
            left[f.source] -= used
            plan.damage_raises += used
    for f in free:
        spare = left[f.source]
        if spare and "tn" in f.uses:
            plan.tn_lowered += spare
        elif spare and "damage" in f.uses:
            plan.damage_raises += spare
        plan.free_used[f.source] = f.count
    plan.damage_raises += damage
    plan.paid = effects + damage + lower + forced
    return plan


def damage_bonus(raises: int, reading: str = "alternate") -> tuple[int, int]:
    """Incrementar el daño (T004-20, C-24): n raises add +ceil(n/2) k floor(n/2); the other
    reading (config) adds +n k0."""
    if reading == "rolled_only":
        return raises, 0
    return math.ceil(raises / 2), raises // 2


def base_tn(reflexes: int, armor_tn: int, *, multiplier: int = 5, base: int = 5) -> int:
    """C-27 (L5R, config): the TN to be hit is Reflexes x 5 + 5 + armour."""
    return reflexes * multiplier + base + armor_tn


def full_defense_covers(fd: FullDefense, attacker: str, insight: int) -> bool:
    """Defensa Total (T004-15, C-15): the bonus covers the first Insight-Rank distinct
    opponents to attack after the declaration; ``fd.opponents`` is updated."""
    if fd.lost:
        return False
    opponents = fd.opponents
    if attacker in opponents:
        return True
    if len(opponents) < insight:
        opponents.append(attacker)
        return True
    return False


def tn_to_be_hit(
    base: int, *, boost: int = 0, full_defense: int = 0, protect: int = 0
) -> list[dict[str, Any]]:
    """The TN to be hit, step by step: C-27 base, Incremento del NO (+10, T004-06), Full
    Defense roll (T004-15), Proteger (+5 per raise, T004-21)."""
    steps = [{"step": "base", "rule": "l5r C-27", "tn": base}]
    total = base
    for name, rule, amount in (
        ("incremento_no", "l5r Incremento del NO", boost),
        ("full_defense", "l5r Posición: Defensa Total", full_defense),
        ("protect", "l5r Proteger", protect),
    ):
        if amount:
            total += amount
            steps.append({"step": name, "rule": rule, "bonus": amount, "tn": total})
    return steps


def initiative_spec(insight: int, reflexes: int, *, velocidad: bool) -> DiceSpec:
    """Paso 1 (C-2, T004-11): (Insight Rank + Reflexes) k Reflexes; Velocidad +1k1 (C-6)."""
    extra = 1 if velocidad else 0
    return roll_and_keep(insight + reflexes + extra, reflexes + extra)


def effective_initiative(base: int, penalty: int) -> int:
    """Paso 1 (wounds), T004-12 / C-13: wound penalties are subtracted, floored at 0."""
    return max(0, base - penalty)


def order_key(p: Fighter, cid: str) -> tuple[int, int, int, int, str]:
    """C-11: higher initiative, then Reflexes, then Void ring, then a random tie-break roll."""
    return (
        -effective_initiative(p.initiative, p.penalty),
        -p.reflexes,
        -p.void_max,
        -(p.tiebreak or 0),
        cid,
    )


def tide_roll(stream: Stream) -> Roll:
    """Curso de combate (C-12): 1d10, not exploding."""
    return roll("1d10", stream, purpose=RollPurpose.COMBAT_TIDE)


def apply_tide(own: int, die: int, *, against: int | None = None) -> tuple[int, int | None]:
    """Curso de combate (T004-13): add the die to your initiative, or subtract it from an
    opponent's (floored at 0, C-12). Returns (own, opponent's)."""
    if against is None:
        return own + die, None
    return own, max(0, against - die)


def move_limit(
    water: int, mode: str, stance: str, horse: float | None = None
) -> tuple[float, float]:
    """Mover / Correr (T004-16, C-16): (allowed metres, half movement). Move Water x 3, run
    Water x 9; in Full Defense half of Water x 3 keeps the stance's benefits. Montar a
    caballo: riding is movement, with the horse's movement instead of his own (``horse``
    metres a round, running three times that)."""
    full = water * 3.0 if horse is None else horse
    if mode == "run":
        return full * 3, full / 2
    return full, full / 2


def reduce_wounds(wounds: int) -> int:
    """Reducción de heridas (T004-07, C-10): 10 fewer Wounds, floored at 0."""
    return max(0, wounds - WOUND_REDUCTION)


def golpe_final_cost(rank: str) -> int:
    """Golpe final (T004-08): 3 points at Down or Out, 5 when dead; else not available."""
    if rank in ("down", "out"):
        return VOID_COSTS["golpe_final"]
    if rank == "dead":
        return VOID_COSTS["golpe_final_dead"]
    raise RuleViolation("not_fallen", "l5r Golpe final", rank=rank)


def check_alentar(received: int, void_ring: int) -> None:
    """Alentar (T004-09, C-5): nobody receives more points this way than his Void ring."""
    if received + 1 > void_ring:
        raise RuleViolation("alentar_cap", "l5r Alentar", received=received, max=void_ring)


def concentration_rounds(rounds: int, void_ring: int) -> int:
    """Concentración (T004-17, C-26): one more round, at most the Void ring."""
    return min(rounds + 1, void_ring)


def protect_bonus(current: int, raises: int) -> int:
    """Proteger (T004-21, C-25): +5 per raise; the attack with most raises stays active."""
    return max(current, RAISE_TN * raises)


def mounted_stance_allowed(stance: str, horsemanship: int, techniques: int, threshold: int) -> bool:
    """Montar a caballo (T004-28, C-17): Full Attack / Full Defense mounted need a riding
    technique or Horsemanship at the threshold (config)."""
    if stance == "attack":
        return True
    return techniques > 0 or horsemanship >= threshold
