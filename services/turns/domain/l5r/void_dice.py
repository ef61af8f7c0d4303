"""The Void point two exploding dice give back (seed 004 "Vacío"; C-3).

"se recuperan cuando obtienes 2 dados relanzables en una tirada que sea relevante para la
historia (el DM confirmará esto)": with the community's ``void_for_two_tens`` at ``auto``
(the default) the referee gives the point as soon as a roll of a combatant shows two dice
that exploded (each die counts once, however many times it rolled on), capped at his Void
ring, and a moderator may take it back (``l5r.veto_void``) when the roll did not matter to
the story; at ``moderator`` only ``l5r.grant_void`` gives it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.turns.domain.l5r.state import L5rCombat
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.l5r.actions import L5rVetoVoid

RULE = "l5r Vacío (recovery)"
TENS_NEEDED = 2


def exploded(dice: Sequence[Sequence[int]]) -> int:
    """How many dice of a roll exploded (rolled on after a ten)."""
    return sum(1 for chain in dice if len(chain) > 1)


def after_roll(
    state: L5rCombat, out: Outcome, cid: str, dice: Sequence[Sequence[int]], action_id: str | None
) -> None:
    """C-3: two exploding dice in one roll give ``cid`` one Void point (``auto``), capped."""
    p = state.participants.get(cid)
    if state.settings.void_for_two_tens != "auto" or p is None:
        return
    if exploded(dice) < TENS_NEEDED or p.void >= p.void_max:
        return
    p.void += 1
    p.void_from_dice += 1
    out.emit(
        "void.regained",
        {
            "character": cid,
            "void_points": p.void,
            "reason": "two_exploding_dice",
            "action_id": action_id,
            "vetoable": True,
            "rule": RULE,
        },
    )


def after_resolved(state: L5rCombat, out: Outcome, payload: dict[str, Any]) -> None:
    """The attacker's attack roll and each damage roll of an ``action.resolved``."""
    attacker = str(payload.get("attacker"))
    action_id = payload.get("action_id")
    for step in payload.get("steps", []):
        if step.get("step") in ("attack_roll", "damage") and isinstance(step.get("dice"), list):
            after_roll(state, out, attacker, step["dice"], str(action_id))


def veto(state: L5rCombat, out: Outcome, action: L5rVetoVoid, *, moderator: bool) -> None:
    """C-3: "el DM confirmará esto": a moderator takes back the last point the dice gave."""
    if not moderator:
        raise RuleViolation("forbidden", None, needs="moderator")
    p = state.participants.get(action.character)
    if p is None:
        raise RuleViolation("not_in_combat", None, character=action.character)
    if p.void_from_dice <= 0 or p.void <= 0:
        raise RuleViolation("no_void_to_veto", RULE, character=action.character)
    p.void_from_dice -= 1
    p.void -= 1
    out.emit(
        "void.vetoed",
        {"character": action.character, "void_points": p.void, "by": action.actor, "rule": RULE},
    )
