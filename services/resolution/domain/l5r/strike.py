"""One l5r attack resolved (seed 004): the roll against the TN, the combat raises, damage
and wounds, every step recorded so a player can see how it came about.

Order of operations (each step its own function):
1. attack roll: (trait + skill) k trait with the ten-dice rule (``roll_and_keep``); tens
   explode unless unskilled (T004-02, C-29); the wound penalty is subtracted (Paso 1
   wounds; Persistencia cancels it);
2. hit when the total reaches the TN (raises already in it, C-1, T004-26);
3. Ataque adicional (C-21, T004-22): success = 2 hits, failure = 0;
4. Derribar (C-22, T004-18): total strictly above (Earth + Insight) x 5;
5. Desarmar (C-23): the target opposes with his usual roll, (Agility + weapon skill) k
   Agility, or (Strength + weapon skill) k Strength if his sheet chose it; the attacker's
   total must be higher;
6. Finta (T004-23): no damage; Ataque localizado is recorded (T004-19);
7. damage: weapon XkY plus the damage raises (C-24), one roll per hit; wounds add up and
   the rank follows the target's table (C-7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.resolution.domain.l5r.request import AttackDice, StrikeRequest
from services.resolution.domain.l5r.wounds import Wounds, damage_rolls, wounds_after
from shared.dice.notation import roll_and_keep
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.rulesets.l5r.sheet import FALLEN

Step = dict[str, Any]


@dataclass
class Struck:
    """The ``action.resolved`` payload and the rolls made, in order."""

    payload: dict[str, Any]
    rolls: list[tuple[Roll, str]] = field(default_factory=list)


def knocked_down(total: int, earth: int, insight: int) -> bool:
    """Derribar (T004-18, C-22): strictly above (Earth + Insight Rank) x 5."""
    return total > (earth + insight) * 5


def attack_roll(spec: AttackDice, stream: Stream, purpose: RollPurpose) -> tuple[Roll, int]:
    """1. (trait + skill) k trait, exploding only when skilled; minus the wound penalty."""
    dice = roll_and_keep(spec.rolled, spec.kept, explode=spec.explode)
    result = roll(dice, stream, purpose=purpose)
    return result, result.total - spec.penalty


def roll_step(request: StrikeRequest, rolled: Roll, total: int) -> Step:
    """2. The attack roll against the TN (C-1)."""
    return {
        "step": "attack_roll",
        "rule": "l5r C-1",
        "spec": rolled.spec,
        "dice": rolled.dice,
        "kept": rolled.kept,
        "roll": rolled.total,
        "penalty": request.roll.penalty,
        "total": total,
        "tn": request.tn,
        "success": total >= request.tn,
    }


def hits_of(request: StrikeRequest, success: bool, steps: list[Step]) -> int:
    """3. Ataque adicional (C-21, T004-22): a success is two hits, a failure none."""
    extra = request.raises.extra_attack
    hits = (2 if extra else 1) if success else 0
    if extra:
        steps.append({"step": "extra_attack", "rule": "l5r Ataque adicional", "hits": hits})
    return hits


def knockdown(request: StrikeRequest, success: bool, total: int, steps: list[Step]) -> bool:
    """4. Derribar (C-22, T004-18): shown whenever declared; only a hit knocks down."""
    if not request.raises.knockdown:
        return False
    foe = request.target_state
    knocked = success and knocked_down(total, foe.earth, foe.insight)
    steps.append(
        {
            "step": "knockdown",
            "rule": "l5r Derribar",
            "threshold": (foe.earth + foe.insight) * 5,
            "total": total,
            "knocked_down": knocked,
        }
    )
    return knocked


def disarm(
    request: StrikeRequest, total: int, stream: Stream, steps: list[Step], out: Struck
) -> bool:
    """5. Desarmar (C-23): an opposed roll; the target opposes with his usual attack roll,
    (Agility + weapon skill) k Agility, or, if he chose so ("El objetivo puede elegir usar su
    Fuerza/habilidad del arma en vez de la tirada habitual"), (Strength + weapon skill) k
    Strength; his wound penalty comes off it (Paso 1). The attacker's total must be higher.
    Called on a hit only."""
    foe = request.target_state
    usual = foe.disarm_roll == "usual" and foe.agility is not None
    trait = foe.agility if usual and foe.agility is not None else foe.strength
    spec = roll_and_keep(trait + foe.weapon_rank, trait, explode=foe.weapon_rank > 0)
    opposed = roll(spec, stream, purpose=RollPurpose.DISARM_OPPOSED)
    out.rolls.append((opposed, request.target))
    opposed_total = opposed.total - foe.penalty
    disarmed = total > opposed_total
    steps.append(
        {
            "step": "disarm",
            "rule": "l5r Desarmar",
            "roll": "usual" if usual else "strength",
            "opposed": opposed_total,
            "penalty": foe.penalty,
            "total": total,
            "disarmed": disarmed,
        }
    )
    return disarmed


def strike(request: StrikeRequest, stream: Stream) -> Struck:
    """The steps of the module docstring, in order; the ``action.resolved`` payload."""
    attacker, raises = request.attacker, request.raises
    rolled, total = attack_roll(request.roll, stream, RollPurpose.ATTACK)
    out = Struck(payload={}, rolls=[(rolled, attacker)])
    success = total >= request.tn
    steps: list[Step] = [*request.tn_steps, roll_step(request, rolled, total)]
    hits = hits_of(request, success, steps)
    knocked = knockdown(request, success, total, steps)
    disarmed = success and raises.disarm and disarm(request, total, stream, steps, out)
    if raises.called_shot:
        location = {"location": raises.called_shot, "success": success}
        steps.append({"step": "called_shot", "rule": "l5r Ataque localizado", **location})
    feint = success and raises.feint
    damage = damage_rolls(request, hits, feint, stream, steps, out.rolls)
    wounds = wounds_after(request.target_state, sum(damage), steps)
    out.payload = payload(request, success, total, hits, damage, wounds)
    out.payload.update(knocked_down=knocked, disarmed=bool(disarmed), feint=feint)
    out.payload.update(called_shot=raises.called_shot, raises=raises.as_sent(), steps=steps)
    return out


def payload(
    request: StrikeRequest, success: bool, total: int, hits: int, damage: list[int], w: Wounds
) -> dict[str, Any]:
    """``action.resolved`` up to ``down`` (the effects follow)."""
    return {
        "ruleset": "l5r",
        "action_id": request.action_id,
        "attacker": request.attacker,
        "target": request.target,
        "skill": request.skill,
        "round": request.round,
        "success": success,
        "total": total,
        "tn": request.tn,
        "hits": hits,
        "damage": damage,
        "wounds_dealt": w.dealt,
        "wounds_before": w.before,
        "wounds_after": w.after,
        "rank_before": str(w.rank_before),
        "rank": str(w.rank),
        "penalty": w.penalty,
        "down": w.rank in FALLEN,
    }
