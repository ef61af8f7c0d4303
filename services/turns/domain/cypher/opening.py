"""Opening a cypher combat (seed 001 ASALTO, INICIATIVA).

Checks, in order: every sheet is a valid cypher sheet (``ruleset_mismatch``,
``invalid_request``); nobody twice (``duplicate_participant``); nobody dead (``dead``) and
someone able to fight on each side (``debilitated``), from the pools the fighters carry.
Then initiative (B-2) and the first round. The opening of docs/api.md (challenge or skill) only
names the sides: in cypher every combat opens with initiative.
"""

from __future__ import annotations

import copy

from pydantic import ValidationError

from services.turns.domain.cypher.flow import begin_round, initiative
from services.turns.domain.cypher.state import CypherCombat, Settings
from shared.dice.combat import Dice
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import COMBAT_STARTED
from shared.outcome import Outcome, State
from shared.payloads import StartCombat
from shared.rulesets.cypher.conditions import Condition, Status, dumped, initial
from shared.rulesets.cypher.settings import CypherSettings
from shared.rulesets.cypher.sheet import CypherSheet, Pools
from shared.vocabulary import SIDES, Side

RULE = "cypher ASALTO"


def parse_sheets(cmd: StartCombat) -> dict[str, CypherSheet]:
    """The first checks of the module docstring: every sheet a valid cypher sheet, once."""
    everyone = [cmd.attacker, *cmd.defenders]
    if len(set(everyone)) != len(everyone):
        raise RuleViolation("duplicate_participant", RULE)
    sheets: dict[str, CypherSheet] = {}
    for character in everyone:
        raw = cmd.sheets.get(character)
        if raw is None:
            raise RuleViolation("unknown_character", RULE, character=character)
        if raw.get("ruleset") != "cypher":
            raise RuleViolation(
                "ruleset_mismatch", RULE, character=character, got=raw.get("ruleset")
            )
        try:
            sheets[character] = CypherSheet.model_validate(raw)
        except ValidationError as exc:
            raise RuleViolation(
                "invalid_request", RULE, character=character, errors=str(exc)[:500]
            ) from exc
    return sheets


def carried_over(sheet: CypherSheet, kept: dict[str, int] | None) -> CypherSheet:
    """001 RECUPERAR: a PC starts from the pools services/states kept (the last combat and
    the rests since), never above his maxima; without them, from his sheet."""
    if sheet.kind != "pc" or sheet.pools is None or not kept:
        return sheet
    if not all(stat in kept for stat in ("might", "speed", "intellect")):
        return sheet
    now = {
        stat: min(int(kept[stat]), sheet.pools.of(stat)) for stat in ("might", "speed", "intellect")
    }
    return sheet.model_copy(update={"current": Pools(**now)})


def condition_of(sheet: CypherSheet, side: Side, kept: dict[str, int] | None) -> Condition:
    """His condition at the start, with the special-damage steps he still carries (B-5) and
    the rests he already took today (B-10)."""
    cond = initial(carried_over(sheet, kept), side)
    steps = int((kept or {}).get("special_steps", 0))
    if sheet.kind == "pc" and steps:
        cond.special_steps = steps
        cond.refresh()
    cond.rested_today = int((kept or {}).get("rests_today", 0))
    return cond


def new_state(
    cmd: StartCombat, sheets: dict[str, CypherSheet], tenant: str, room: str, now_ms: int
) -> CypherCombat:
    """The combat before its first roll: sides, conditions, settings, the dice."""
    sides = {Side.ATTACKERS: [cmd.attacker], Side.DEFENDERS: list(cmd.defenders)}
    kept = cmd.weekly_uses
    participants = {
        c: condition_of(sheets[c], side, kept.get(c)) for side in SIDES for c in sides[side]
    }
    settings = Settings(
        turn_seconds=cmd.settings.timers.turn_seconds,
        literal_low_light=cmd.settings.ruleset("cypher", CypherSettings).literal_low_light,
    )
    return CypherCombat(
        id=cmd.combat_id,
        tenant=tenant,
        room=room,
        sides=sides,
        participants=participants,
        sheets=sheets,
        settings=settings,
        created_at_ms=now_ms,
        dice=Dice.model_validate(cmd.dice) if cmd.dice else None,
    )


def check_able(state: CypherCombat) -> None:
    """001 INDICADOR: a dead character fights no more (``dead``); a side whose members are
    all out of the fight (debilitated, B-6) has lost before the first roll (``debilitated``)."""
    for character, cond in state.participants.items():
        if cond.status == Status.DEAD:
            raise RuleViolation("dead", "cypher INDICADOR (muerto)", character=character)
    for side, members in state.sides.items():
        if state.side_out(side):
            raise RuleViolation(
                "debilitated", "cypher INDICADOR (incapacitado)", side=side, characters=members
            )


def start(cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
    """001 ASALTO / INICIATIVA: the combat starts fighting at once: initiative (B-2), round 1."""
    sheets = parse_sheets(cmd)
    state = new_state(cmd, sheets, tenant, room, now_ms)
    check_able(state)
    out = Outcome()
    out.emit(
        COMBAT_STARTED,
        {
            "combat_id": state.id,
            "ruleset": "cypher",
            "room": room,
            "tenant": tenant,
            "initiator": cmd.attacker,
            "sides": {str(side): list(members) for side, members in state.sides.items()},
            "opening": cmd.opening.model_dump(mode="json"),
            "sheets": {c: copy.deepcopy(cmd.sheets[c]) for c in sheets},
            "settings": cmd.settings.model_dump(mode="json"),
            "started_at_ms": now_ms,
            "conditions": dumped(state.participants),
        },
    )
    state.order = initiative(state, out)
    begin_round(state, out, now_ms)
    return out.decision(state)
