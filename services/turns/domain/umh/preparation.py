"""The preparation round (umh 1.3): equipping, being ready, and who has none (1.3.4)."""

from __future__ import annotations

from services.turns.domain.umh import approach
from services.turns.domain.umh.acting import acting_context
from services.turns.domain.umh.events import COMBATANT_READY, ITEM_EQUIPPED
from services.turns.domain.umh.flow import start_fighting
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.umh.actions import EquipAction
from shared.vocabulary import Phase


def equip(state: CombatState, out: Outcome, action: EquipAction) -> None:
    """umh 1.3.2 / 1.3.4: items are equipped in the preparation round; whoever entered after
    it has none (``no_prep_for_late_joiner``) and follows the traditional method. In the
    fight, gear that fell to the ground is equipped again in one's own turn (10.2.5), which
    puts someone in alzada or voladora on the ground until that turn ends."""
    player = state.participants[action.actor]
    if state.phase == Phase.FIGHTING and action.from_ground:
        acting_context(state, action.actor)
        out.emit(
            ITEM_EQUIPPED, {"character": action.actor, "item": action.item, "from_ground": True}
        )
        approach.regrab(state, out, action.actor)
        return
    if state.phase != Phase.PREPARATION:
        if player.late:
            raise RuleViolation("no_prep_for_late_joiner", "umh 1.3.4", character=action.actor)
        raise RuleViolation("wrong_phase", "umh 1.3.2", phase=state.phase)
    out.emit(ITEM_EQUIPPED, {"character": action.actor, "item": action.item})


def ready(state: CombatState, out: Outcome, actor: str, now_ms: int) -> None:
    """umh 1.3.1 / A-99 (a setting): once every participant still standing is ready, the
    preparation round ends early and round 1 starts; with the setting off it runs its whole
    time (the ``preparation`` timer ends it)."""
    if state.phase != Phase.PREPARATION:
        player = state.participants[actor]
        if player.late:
            raise RuleViolation("no_prep_for_late_joiner", "umh 1.3.4", character=actor)
        raise RuleViolation("wrong_phase", "umh 1.3.1", phase=state.phase)
    player = state.participants[actor]
    if player.ready:
        raise RuleViolation("already_reacted", "umh 1.3.1")
    player.ready = True
    waiting = [c for c, p in state.participants.items() if p.active and not p.ready]
    out.emit(COMBATANT_READY, {"character": actor, "waiting": waiting})
    if not waiting and state.settings.readings.preparation_ends_when_ready:
        start_fighting(state, out, now_ms)
