"""Opening a combat (umh 1.1, 1.2): validation in a documented order, then the first events.

Checks, in order (the first failing one is raised):
1. ``ruleset_mismatch``: the command and every sheet are ``umh``;
2. ``duplicate_participant`` (umh 1.2.1): the attacker is not a defender, nobody twice;
3. ``targets_not_declared`` / ``too_many_initial_targets`` (umh 1.1.2): 1 to 2 defenders;
4. ``unknown_character``: every participant has a sheet (``invalid_request`` if malformed);
5. challenge (umh 1.1.1.2, A-60, A-61): exactly 1 defender, at most 5 squares (Chebyshev);
6. skill opening (umh 1.1.1.1, 1.1.2, 1.2.2): the attacker's offensive skill, targets equal
   to the defenders; combos (8.1.1.1.1) and areas (6.1.1) are not refereed yet.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from pydantic import ValidationError

from services.turns.domain.flow import enter_preparation
from services.turns.domain.outcome import Outcome
from services.turns.domain.reactions import declare, open_reactions
from services.turns.domain.state import (
    PHASE_OPENING,
    CombatState,
    InFlight,
    Participant,
    Settings,
    Side,
    SkillInfo,
)
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import COMBAT_STARTED, derived_id
from shared.payloads import StartCombat
from shared.sheets.umh import Skill, SkillType, UmhSheet

RULESET: Final = "umh"
MAX_INITIAL_TARGETS: Final = 2
CHALLENGE_REACH: Final = 5


def check_rulesets(cmd: StartCombat) -> None:
    """The combat and every sheet it snapshots belong to umh."""
    if cmd.ruleset != RULESET:
        raise RuleViolation("ruleset_mismatch", None, expected=RULESET, got=cmd.ruleset)
    for character, sheet in cmd.sheets.items():
        if sheet.get("ruleset") != RULESET:
            raise RuleViolation(
                "ruleset_mismatch", None, character=character, got=sheet.get("ruleset")
            )


def check_sides(cmd: StartCombat) -> None:
    """umh 1.2.1 / 1.2.2 / 1.1.2: one attacker, 1 to 2 distinct defenders."""
    everyone = [cmd.attacker, *cmd.defenders]
    if len(set(everyone)) != len(everyone):
        raise RuleViolation("duplicate_participant", "umh 1.2.1")
    if not cmd.defenders:
        raise RuleViolation("targets_not_declared", "umh 1.1.2")
    if len(cmd.defenders) > MAX_INITIAL_TARGETS:
        raise RuleViolation(
            "too_many_initial_targets", "umh 1.1.2", count=len(cmd.defenders), max=2
        )


def parse_sheets(cmd: StartCombat) -> dict[str, UmhSheet]:
    """Every participant's sheet, validated as a umh sheet."""
    sheets: dict[str, UmhSheet] = {}
    for character in (cmd.attacker, *cmd.defenders):
        raw = cmd.sheets.get(character)
        if raw is None:
            raise RuleViolation("unknown_character", None, character=character)
        try:
            sheets[character] = UmhSheet.model_validate(raw)
        except ValidationError as exc:
            raise RuleViolation(
                "invalid_request", None, character=character, errors=exc.error_count()
            ) from exc
    return sheets


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """A-61: grid distance where a diagonal step is 1 square."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def check_challenge(cmd: StartCombat) -> None:
    """umh 1.1.1.2 / A-60 / A-61: a challenge names one user at most 5 squares away."""
    if len(cmd.defenders) != 1:
        raise RuleViolation("invalid_target", "umh 1.1.1.2", count=len(cmd.defenders))
    positions = cmd.positions or {}
    here, there = positions.get(cmd.attacker), positions.get(cmd.defenders[0])
    if here is not None and there is not None:
        distance = chebyshev(here, there)
        if distance > CHALLENGE_REACH:
            raise RuleViolation(
                "challenge_out_of_range", "umh 1.1.1.2", distance=distance, max=CHALLENGE_REACH
            )


def check_skill_opening(cmd: StartCombat, sheet: UmhSheet) -> Skill:
    """umh 1.1.1.1 / 1.1.2 / 1.2.2: an offensive skill of the attacker on the defenders."""
    skill = sheet.skill(cmd.opening.skill) if cmd.opening.skill else None
    if skill is None:
        raise RuleViolation("unknown_skill", "umh 1.1.1.1", skill=cmd.opening.skill)
    if skill.type is not SkillType.OFFENSIVE:
        raise RuleViolation("not_offensive", "umh 1.1.1.1", skill=skill.name)
    targets = cmd.opening.targets
    if not targets:
        raise RuleViolation("targets_not_declared", "umh 1.1.2")
    if len(set(targets)) != len(targets) or set(targets) != set(cmd.defenders):
        raise RuleViolation("invalid_target", "umh 1.2.2", targets=targets)
    if skill.hits > 1:
        raise RuleViolation("not_implemented", "umh 8.1.1.1.1", skill=skill.name)
    if skill.area is not None:
        raise RuleViolation("not_implemented", "umh 6.1.1", skill=skill.name)
    return skill


def skill_info(skill: Skill) -> SkillInfo:
    return SkillInfo(
        name=skill.name,
        pa=skill.pa,
        type=skill.type.value,
        defense_kind=skill.defense_kind.value if skill.defense_kind else None,
        hits=skill.hits,
        area=skill.area.shape.value if skill.area else None,
        cooldown_rounds=skill.cooldown_rounds,
    )


def number(value: float) -> float:
    """JSON-friendly speed: 6.0 is kept as 6."""
    return int(value) if float(value).is_integer() else value


def new_participant(sheet: UmhSheet, side: Side, joined_seq: int, pa: int) -> Participant:
    """umh 3.1.1 / 2.3.2: everyone starts with his PA and his whole speed."""
    vel = number(sheet.stats.vel)
    return Participant(
        side=side,
        vel=vel,
        pa=pa,
        movement_left=vel,
        joined_seq=joined_seq,
        skills={s.name.casefold(): skill_info(s) for s in sheet.skills},
    )


def new_state(
    cmd: StartCombat, sheets: dict[str, UmhSheet], tenant: str, room: str, now_ms: int
) -> CombatState:
    timers = cmd.settings.timers
    pa = cmd.settings.umh.pa_per_round
    participants = {cmd.attacker: new_participant(sheets[cmd.attacker], "attackers", 0, pa)}
    for seq, defender in enumerate(cmd.defenders, start=1):
        participants[defender] = new_participant(sheets[defender], "defenders", seq, pa)
    return CombatState(
        id=cmd.combat_id,
        tenant=tenant,
        room=room,
        initiator=cmd.attacker,
        sides={"attackers": [cmd.attacker], "defenders": list(cmd.defenders)},
        participants=participants,
        settings=Settings(
            turn_seconds=timers.turn_seconds,
            defense_seconds=timers.defense_seconds,
            preparation_seconds=timers.preparation_seconds,
            pa_per_round=pa,
        ),
        created_at_ms=now_ms,
        phase=PHASE_OPENING,
        positions={c: [x, y] for c, (x, y) in (cmd.positions or {}).items()},
    )


def started_payload(cmd: StartCombat, state: CombatState, now_ms: int) -> dict[str, Any]:
    return {
        "combat_id": state.id,
        "ruleset": state.ruleset,
        "room": state.room,
        "tenant": state.tenant,
        "initiator": state.initiator,
        "sides": copy.deepcopy(state.sides),
        "opening": cmd.opening.model_dump(mode="json"),
        "positions": copy.deepcopy(state.positions) if cmd.positions is not None else None,
        "sheets": copy.deepcopy(cmd.sheets),
        "settings": cmd.settings.model_dump(mode="json"),
        "started_at_ms": now_ms,
    }


def start(cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[dict[str, Any]]:
    """umh 1.1.1: open the combat by a challenge (straight to preparation) or an attack.

    The opening attack happens before the combat: it spends no PA; its targets get their
    defense windows at once, and preparation (1.3.1) starts once it is resolved.
    """
    check_rulesets(cmd)
    check_sides(cmd)
    sheets = parse_sheets(cmd)
    skill: Skill | None = None
    if cmd.opening.kind == "challenge":
        check_challenge(cmd)
    else:
        skill = check_skill_opening(cmd, sheets[cmd.attacker])
    state = new_state(cmd, sheets, tenant, room, now_ms)
    out = Outcome()
    out.emit(COMBAT_STARTED, started_payload(cmd, state, now_ms))
    if skill is None:
        enter_preparation(state, out, now_ms)
        return out.decision(state)
    action_id = derived_id("a", state.id, "opening")
    action = InFlight(
        attacker=cmd.attacker,
        skill=skill.name,
        targets=list(cmd.opening.targets),
        opening=True,
        round=0,
        turn_seq=0,
    )
    declare(state, out, action_id, action, 0)
    open_reactions(state, out, action_id, now_ms)
    return out.decision(state)
