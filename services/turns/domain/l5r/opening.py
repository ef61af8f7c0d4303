"""Opening an l5r combat: checks in order, then the preparation window (Velocidad is spent
before the initiative roll, 004 Velocidad; C-6).

Checks, in order: ``ruleset_mismatch`` (the combat and every sheet are l5r);
``duplicate_participant``; ``invalid_request`` (an l5r combat opens with a challenge);
``unknown_character`` / ``invalid_request`` (every participant has a valid l5r sheet).
"""

from __future__ import annotations

import copy
from typing import Any, Final

from pydantic import ValidationError

from services.turns.domain.l5r.fighter import new_fighter
from services.turns.domain.l5r.state import RULESET, L5rCombat, Settings
from shared.dice.combat import Dice
from shared.errors import RuleViolation
from shared.messages import COMBAT_PHASE_CHANGED, COMBAT_STARTED
from shared.outcome import Outcome, arm_timer
from shared.payloads import StartCombat
from shared.rulesets.l5r.settings import L5rSettings
from shared.rulesets.l5r.sheet import L5rSheet
from shared.vocabulary import SIDES, Phase, Side

MAX_DEFENDERS: Final = 8


def check(cmd: StartCombat) -> dict[str, L5rSheet]:
    """The checks of the module docstring, in order; every sheet parsed."""
    if cmd.ruleset != RULESET:
        raise RuleViolation("ruleset_mismatch", None, expected=RULESET, got=cmd.ruleset)
    everyone = [cmd.attacker, *cmd.defenders]
    if len(set(everyone)) != len(everyone):
        raise RuleViolation("duplicate_participant", "l5r Paso 1")
    if not cmd.defenders or len(cmd.defenders) > MAX_DEFENDERS:
        raise RuleViolation("invalid_target", "l5r Paso 1", count=len(cmd.defenders))
    if cmd.opening.kind != "challenge":
        raise RuleViolation(
            "invalid_request", "l5r Paso 1", reason="an l5r combat opens with a challenge"
        )
    sheets: dict[str, L5rSheet] = {}
    for cid in everyone:
        raw = cmd.sheets.get(cid)
        if raw is None:
            raise RuleViolation("unknown_character", None, character=cid)
        if raw.get("ruleset") != RULESET:
            raise RuleViolation("ruleset_mismatch", None, character=cid, got=raw.get("ruleset"))
        try:
            sheets[cid] = L5rSheet.model_validate(raw)
        except ValidationError as exc:
            raise RuleViolation("invalid_request", None, character=cid, errors=str(exc)) from exc
    return sheets


def counters(cmd: StartCombat, cid: str) -> dict[str, int]:
    """What services/states counts for him: his Void pool now; Alentar received today only
    when the cap is per day (C-5, a setting), none when it is per combat."""
    found = dict(cmd.weekly_uses.get(cid, {}))
    if cmd.settings.ruleset("l5r", L5rSettings).alentar_scope == "combat":
        found.pop("alentar_received", None)
    return found


def start(cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> tuple[L5rCombat, Outcome]:
    """Paso 1: the combat opens in preparation; initiative is rolled when everyone is ready
    (``l5r.ready``) or the preparation window (docs/rules.md 7.1 W1, the community's
    ``timers.preparation_seconds``) runs out."""
    sheets = check(cmd)
    sides = {Side.ATTACKERS: [cmd.attacker], Side.DEFENDERS: list(cmd.defenders)}
    readings = cmd.settings.ruleset("l5r", L5rSettings)
    participants = {
        cid: new_fighter(sheets[cid], side, counters(cmd, cid))
        for side in SIDES
        for cid in sides[side]
    }
    settings = Settings(
        turn_seconds=cmd.settings.timers.turn_seconds,
        preparation_seconds=cmd.settings.timers.preparation_seconds,
        **readings.model_dump(),
    )
    state = L5rCombat(
        id=cmd.combat_id,
        tenant=tenant,
        room=room,
        sides=sides,
        participants=participants,
        settings=settings,
        created_at_ms=now_ms,
        dice=Dice.model_validate(cmd.dice) if cmd.dice is not None else None,
    )
    out = Outcome()
    out.emit(COMBAT_STARTED, started_payload(cmd, state, now_ms))
    due = now_ms + state.settings.preparation_seconds * 1000
    arm_timer(state, out, "preparation", due, {})
    state.phase_deadline_ms = due
    out.emit(COMBAT_PHASE_CHANGED, {"from": None, "to": str(Phase.PREPARATION)})
    return state, out


def started_payload(cmd: StartCombat, state: L5rCombat, now_ms: int) -> dict[str, Any]:
    """``combat.started``: the sides, the opening, the sheets and settings as given."""
    return {
        "combat_id": state.id,
        "ruleset": RULESET,
        "room": state.room,
        "tenant": state.tenant,
        "initiator": cmd.attacker,
        "sides": {str(side): list(members) for side, members in state.sides.items()},
        "opening": cmd.opening.model_dump(mode="json"),
        "positions": None,
        "sheets": copy.deepcopy(cmd.sheets),
        "settings": cmd.settings.model_dump(mode="json"),
        "started_at_ms": now_ms,
    }
