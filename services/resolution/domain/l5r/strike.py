"""One l5r attack resolved (seed 004): the roll against the TN, the combat raises, damage
and wounds, every step recorded so a player can see how it came about.

Order of operations:
1. attack roll: (trait + skill) k trait with the ten-dice rule (``roll_and_keep``); tens
   explode unless unskilled (T004-02, C-29); the wound penalty is subtracted (Paso 1
   wounds; Persistencia cancels it);
2. hit when the total reaches the TN (raises already in it, C-1, T004-26);
3. Ataque adicional (C-21, T004-22): success = 2 hits, failure = 0;
4. Derribar (C-22, T004-18): total strictly above (Earth + Insight) x 5;
5. Desarmar (C-23): the target rolls (Strength + weapon skill) k Strength; the attacker's
   total must be higher;
6. Finta (T004-23): no damage; Ataque localizado is recorded (T004-19);
7. damage: weapon XkY plus the damage raises (C-24), one roll per hit; wounds add up and
   the rank follows the target's table (C-7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.dice.notation import roll_and_keep
from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.rulesets.l5r.sheet import wound_rank


@dataclass
class Struck:
    """The ``action.resolved`` payload and the rolls made, in order."""

    payload: dict[str, Any]
    rolls: list[tuple[Roll, str]] = field(default_factory=list)


def knocked_down(total: int, earth: int, insight: int) -> bool:
    """Derribar (T004-18, C-22): strictly above (Earth + Insight Rank) x 5."""
    return total > (earth + insight) * 5


def attack_roll(spec: dict[str, Any], stream: Stream, purpose: str) -> tuple[Roll, int]:
    """(trait + skill) k trait, exploding only when skilled; minus the wound penalty."""
    dice = roll_and_keep(int(spec["rolled"]), int(spec["kept"]), explode=bool(spec["explode"]))
    result = roll(dice, stream, purpose=purpose)
    return result, result.total - int(spec.get("penalty", 0))


def strike(request: dict[str, Any], stream: Stream) -> Struck:
    attacker, target = str(request["attacker"]), str(request["target"])
    raises: dict[str, Any] = request["raises"]
    foe: dict[str, Any] = request["target_state"]
    rolled, total = attack_roll(request["roll"], stream, f"attack {attacker} -> {target}")
    out = Struck(payload={}, rolls=[(rolled, attacker)])
    tn = int(request["tn"])
    success = total >= tn
    steps: list[dict[str, Any]] = [
        *request.get("tn_steps", []),
        {
            "step": "attack_roll",
            "rule": "l5r C-1",
            "spec": rolled.spec,
            "dice": rolled.dice,
            "kept": rolled.kept,
            "roll": rolled.total,
            "penalty": request["roll"].get("penalty", 0),
            "total": total,
            "tn": tn,
            "success": success,
        },
    ]
    hits = (2 if raises.get("extra_attack") else 1) if success else 0
    if raises.get("extra_attack"):
        steps.append({"step": "extra_attack", "rule": "l5r Ataque adicional", "hits": hits})
    knocked = bool(
        success
        and raises.get("knockdown")
        and knocked_down(total, int(foe["earth"]), int(foe["insight"]))
    )
    if raises.get("knockdown"):
        threshold = (int(foe["earth"]) + int(foe["insight"])) * 5
        steps.append(
            {
                "step": "knockdown",
                "rule": "l5r Derribar",
                "threshold": threshold,
                "total": total,
                "knocked_down": knocked,
            }
        )
    disarmed = False
    if success and raises.get("disarm"):
        strength = int(foe["strength"])
        opposed = roll(
            roll_and_keep(
                strength + int(foe["weapon_rank"]), strength, explode=int(foe["weapon_rank"]) > 0
            ),
            stream,
            purpose=f"disarm opposed {target}",
        )
        out.rolls.append((opposed, target))
        disarmed = total > opposed.total
        steps.append(
            {
                "step": "disarm",
                "rule": "l5r Desarmar",
                "opposed": opposed.total,
                "total": total,
                "disarmed": disarmed,
            }
        )
    if raises.get("called_shot"):
        steps.append(
            {
                "step": "called_shot",
                "rule": "l5r Ataque localizado",
                "location": raises["called_shot"],
                "success": success,
            }
        )
    feint = bool(success and raises.get("feint"))
    damage_rolls: list[int] = []
    if hits and not feint:
        spec = roll_and_keep(int(request["damage"]["rolled"]), int(request["damage"]["kept"]))
        for n in range(hits):
            dmg = roll(spec, stream, purpose=f"damage {attacker} -> {target} #{n + 1}")
            out.rolls.append((dmg, attacker))
            damage_rolls.append(dmg.total)
            steps.append(
                {
                    "step": "damage",
                    "rule": "l5r Incrementar el daño",
                    "hit": n + 1,
                    "spec": dmg.spec,
                    "dice": dmg.dice,
                    "kept": dmg.kept,
                    "total": dmg.total,
                    "damage_raises": raises.get("damage_raises", 0),
                }
            )
    elif feint:
        steps.append({"step": "feint", "rule": "l5r Finta", "damage": 0})
    before = int(foe["wounds"])
    dealt = sum(damage_rolls)
    after = before + dealt
    rank_before, _ = wound_rank(before, foe["wound_table"])
    rank, penalty = wound_rank(after, foe["wound_table"])
    steps.append(
        {
            "step": "wounds",
            "rule": "l5r C-7",
            "before": before,
            "dealt": dealt,
            "after": after,
            "rank_before": rank_before,
            "rank": rank,
            "penalty": penalty,
        }
    )
    out.payload = {
        "ruleset": "l5r",
        "action_id": request["action_id"],
        "attacker": attacker,
        "target": target,
        "skill": request.get("skill", ""),
        "round": request.get("round", 0),
        "success": success,
        "total": total,
        "tn": tn,
        "hits": hits,
        "damage": damage_rolls,
        "wounds_dealt": dealt,
        "wounds_before": before,
        "wounds_after": after,
        "rank_before": rank_before,
        "rank": rank,
        "penalty": penalty,
        "down": rank in ("down", "out", "dead"),
        "knocked_down": knocked,
        "disarmed": disarmed,
        "feint": feint,
        "called_shot": raises.get("called_shot"),
        "raises": raises,
        "steps": steps,
    }
    return out
