"""The checks of one cypher action before it is declared (seed 001 ATACAR, ACCIÓN,
RECUPERAR; B-7, B-10): an impossible action is refused here, never half-resolved."""

from __future__ import annotations

from services.turns.domain.cypher.state import CypherCombat
from shared.errors import RuleViolation
from shared.rulesets.cypher import difficulty as dif
from shared.rulesets.cypher.actions import CypherAttack, CypherGenericAction, CypherRecover
from shared.rulesets.cypher.conditions import Condition, Status
from shared.rulesets.cypher.damage import effort_cost


def check_effort(
    state: CypherCombat, actor: str, stat: str, levels: int, part: Condition, *, minimum: int = 0
) -> None:
    """B-7: Effort up to the sheet's ``effort``, PCs only, paid from the stat's pool; with an
    action's minimum spend (001 ACCIÓN) the pool must pay both, the minimum first."""
    if levels <= 0:
        return
    me = state.sheets[actor]
    if me.kind == "npc" or levels > me.effort:
        raise RuleViolation(
            "effort_too_high",
            "cypher INDICADOR (lesionado), B-7",
            max=me.effort if me.kind == "pc" else 0,
        )
    cost = effort_cost(levels, int(getattr(me.edges, stat)), impaired=part.impaired)
    if part.pool(stat) < minimum + cost:
        raise RuleViolation(
            "insufficient_pool",
            "cypher ACCIÓN, B-7",
            pool=stat,
            cost=cost,
            minimum_spend=minimum,
            have=part.pool(stat),
        )


def check_attack(state: CypherCombat, action: CypherAttack, part: Condition) -> None:
    """001 ATACAR / ALCANCE / COBERTURA / AGUA: a known attack on another fighter, the stat
    allowed, within reach; paralysed: only attacks that need no movement (ranged Intellect)."""
    me = state.sheets[action.actor]
    attack = me.attack(action.attack)
    if attack is None:
        raise RuleViolation("unknown_skill", "cypher ATACAR", attack=action.attack)
    target = state.participants.get(action.target)
    if (
        target is None
        or action.target == action.actor
        or target.status in (Status.DEAD, Status.FLED)
    ):
        raise RuleViolation("invalid_target", "cypher ATACAR", target=action.target)
    stat = dif.attack_stat(attack, action.stat)
    if part.paralyzed and not (attack.kind == "ranged" and stat == "intellect"):
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    dif.attack_steps(me, attack, action.circumstances)
    check_effort(state, action.actor, stat, action.effort, part)


def check_generic(state: CypherCombat, action: CypherGenericAction, part: Condition) -> None:
    """001 ACCIÓN: a physical action needs movement (paralysis, 001 DAÑO ESPECIAL); its
    Effort and minimum spend must be payable (B-7)."""
    if part.paralyzed and action.physical:
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    check_effort(
        state, action.actor, action.stat, action.effort, part, minimum=action.minimum_spend
    )


def check_recover(action: CypherRecover, part: Condition) -> None:
    """001 RECUPERAR, B-10: in combat only the day's first rest (once a combat, and not after
    a rest taken earlier that day, which services/states reported at the start); the special
    damage option needs every pool above 0 and special damage to heal
    (E_RECOVERY_OPTION_INVALID)."""
    if part.kind != "pc":
        raise RuleViolation("invalid_target", "cypher RECUPERAR", reason="NPCs do not rest")
    taken = part.rests_taken + part.rested_today
    if part.recovered_this_combat or taken >= 1:
        raise RuleViolation("no_rests_left", "cypher RECUPERAR, B-10", rests_today=taken)
    if action.special_damage and (part.pools_at_zero() or part.special_steps <= 0):
        raise RuleViolation(
            "recovery_option_invalid",
            "cypher RECUPERAR (special damage)",
            pools_at_zero=part.pools_at_zero(),
            special_steps=part.special_steps,
        )
