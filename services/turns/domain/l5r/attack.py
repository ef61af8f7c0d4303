"""An l5r attack in services/turns: checks in a documented order, the raises paid, the TN,
then ``resolution.requested`` for services/resolution; and what ``action.resolved`` changes.

Checks, in order (the first failing one is raised):
1. ``invalid_target``: an opponent still in the fight;
2. ``no_other_action_while_running`` (Correr);
3. ``extra_attack_limit`` (C-21), then ``attack_limit`` / ``extra_action_cannot_attack``
   (Ataque a distancia / cuerpo a cuerpo: once per round; C-9);
4. the stance matrix (T004-27, C-30) and riding (T004-28: ``cannot_fight_mounted``);
5. ``disarm_at_range`` (C-23); ``prone`` / ``not_prone`` (T004-25, C-31);
6. ``one_void_use_per_roll`` (C-4), ``not_enough_void``;
7. ``unskilled_no_raises`` / ``too_many_raises`` on the raises left to pay (T004-01, T004-02).
"""

from __future__ import annotations

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.fighter import OUT_OF_FIGHT, Fighter, Stance
from services.turns.domain.l5r.request import build_request
from services.turns.domain.l5r.state import L5rCombat, PendingAttack
from shared.errors import RuleViolation
from shared.messages import ACTION_DECLARED, RESOLUTION_REQUESTED
from shared.outcome import Outcome
from shared.rulesets.l5r.actions import L5rAttack


def free_raises(p: Fighter, foe: Fighter, target: str, uses: list[str]) -> list[rules.FreeRaise]:
    """Free raises of this attack: Full Attack (2, TN or damage; C-14), an enemy in Full
    Attack (3, any), Mejora (1, not TN), a feint (any, T004-23), concentration (damage, C-26)."""
    free: list[rules.FreeRaise] = []
    if p.stance == Stance.FULL_ATTACK:
        free.append(rules.FreeRaise("full_attack", 2, rules.FULL_ATTACK_OWN))
    if foe.stance == Stance.FULL_ATTACK:
        free.append(rules.FreeRaise("enemy_full_attack", 3, rules.ANY))
    if "mejora_raise" in uses:
        free.append(rules.FreeRaise("mejora", 1, rules.NOT_TN))
    if p.feint.get(target):
        free.append(rules.FreeRaise("feint", p.feint[target], rules.ANY))
    concentration = p.concentration
    if concentration is not None and concentration.target == target:
        free.append(rules.FreeRaise("concentration", concentration.rounds, rules.DAMAGE_ONLY))
    return free


def check_limits(p: Fighter, action: L5rAttack) -> None:
    """Checks 2-5 of the module docstring (the running, the round's attack, the stance, the
    horse, disarming at range)."""
    counters = p.round
    if counters.ran:
        raise RuleViolation("no_other_action_while_running", "l5r Correr")
    if action.raises.extra_attack and counters.extra_attack_tried:
        raise RuleViolation("extra_attack_limit", "l5r Ataque adicional")
    if counters.attacks >= 1:
        if counters.extra_actions > 0:
            raise RuleViolation("extra_action_cannot_attack", "l5r Obtener una acción")
        raise RuleViolation(
            "attack_limit",
            f"l5r Ataque {'a distancia' if action.kind == 'ranged' else 'cuerpo a cuerpo'}",
        )
    rules.check_allowed(p.current_stance, action.kind)
    if p.mounted and p.skill("horsemanship") <= 0:
        raise RuleViolation("cannot_fight_mounted", "l5r Montar a caballo")
    if action.raises.disarm and action.kind == "ranged":
        raise RuleViolation("disarm_at_range", "l5r Desarmar")


def forced_raises(p: Fighter, action: L5rAttack) -> int:
    """T004-24 / C-20 / C-31: melee after moving in Attack stance, 1; prone in Full Attack,
    standing and attacking, 2."""
    stance = p.current_stance
    forced = 0
    if p.prone:
        if not action.stand_up or stance != Stance.FULL_ATTACK:
            raise RuleViolation("prone", "l5r Ponerte en pie", stance=str(stance))
        forced += 2
    elif action.stand_up:
        raise RuleViolation("not_prone", "l5r Ponerte en pie")
    if action.kind == "melee" and stance == Stance.ATTACK and p.round.moved > 0:
        forced += 1
    return forced


def check_target(state: L5rCombat, p: Fighter, action: L5rAttack) -> Fighter:
    """Check 1: an opponent still in the fight; Proteger names an ally (C-25)."""
    foe = state.participants.get(action.target)
    if foe is None or foe.side == p.side or foe.status in OUT_OF_FIGHT:
        raise RuleViolation("invalid_target", "l5r Ataque", target=action.target)
    return foe


def check_protect(state: L5rCombat, p: Fighter, action: L5rAttack) -> None:
    """Proteger (T004-21, C-25): the ally is on his side, and not himself."""
    protect = action.raises.protect
    if protect is not None:
        ally = state.participants.get(protect.ally)
        if ally is None or ally.side != p.side or protect.ally == action.actor:
            raise RuleViolation("not_an_ally", "l5r Proteger", ally=protect.ally)


def declare(state: L5rCombat, out: Outcome, action_id: str, action: L5rAttack) -> None:
    """The checks in order, then ``action.declared`` and ``resolution.requested``; the Void
    and Alentar's bonus are spent, feint and concentration used up, the fight goes on."""
    actor, target = action.actor, action.target
    p = state.participants[actor]
    foe = check_target(state, p, action)
    check_limits(p, action)
    forced = forced_raises(p, action)
    uses: list[str] = list(action.void)
    rules.check_void_on_roll(uses, persistencia_more_points=state.settings.persistencia_more_points)
    cost = sum(rules.VOID_COSTS[u] for u in uses)
    rules.check_void(p.void, cost, "+".join(uses))
    check_protect(state, p, action)
    free = free_raises(p, foe, target, uses)
    request = build_request(state, action_id, action, p, foe, free, forced)
    if cost:
        spend(out, p, actor, cost, "+".join(uses), action_id)
    after_attack(state, p, action)
    out.emit(
        ACTION_DECLARED,
        {
            "action_id": action_id,
            "attacker": actor,
            "skill": request["skill"],
            "targets": [target],
            "round": state.round,
            "offensive": True,
            "ruleset": "l5r",
        },
    )
    out.emit(RESOLUTION_REQUESTED, request)
    state.pending = PendingAttack(
        action_id=action_id, attacker=actor, target=target, protect=action.raises.protect
    )


def after_attack(state: L5rCombat, p: Fighter, action: L5rAttack) -> None:
    """Alentar's die spent (T004-09), the feint and the concentration used up, the round's
    attack counted; Paso 3: every word of stopping is withdrawn."""
    if p.alentar_bonus:
        p.alentar_bonus -= 1
    p.feint.pop(action.target, None)
    p.concentration = None
    p.round.attacks += 1
    p.round.acted = True
    p.round.extra_attack_tried = p.round.extra_attack_tried or action.raises.extra_attack
    state.swap_open = False
    for q in state.participants.values():
        q.stop = False


def spend(out: Outcome, p: Fighter, actor: str, cost: int, use: str, action_id: str | None) -> None:
    """Vacío: points spent (the pool shows them; services/states keeps what is left)."""
    p.void -= cost
    p.void_spent += cost
    out.emit(
        "void.spent",
        {
            "character": actor,
            "use": use,
            "cost": cost,
            "void_points": p.void,
            "action_id": action_id,
            "rule": "l5r Vacío",
        },
    )
