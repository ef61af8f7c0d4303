"""Opening a combat (umh 1.1, 1.2): validation in a documented order, then the first events.

Checks, in order (the first failing one is raised):
1. ``ruleset_mismatch``: the command and every sheet are ``umh``;
2. ``duplicate_participant`` (umh 1.2.1): the attacker is not a defender, nobody twice;
3. ``targets_not_declared`` / ``too_many_initial_targets`` (umh 1.1.2): 1 to 2 defenders;
   a prisoner challenging his captors (services/states says so) faces up to 3
   (``too_many_opponents``, umh 4.5.4);
4. ``unknown_character``: every participant has a sheet (``invalid_request`` if malformed);
5. challenge (umh 1.1.1.2, A-60, A-61): exactly 1 defender (a prisoner's: up to 3), at most
   5 squares (in the community's grid metric, Chebyshev by default);
6. skill opening (umh 1.1.1.1, 1.1.2, 1.2.2): the attacker's offensive skill, targets equal
   to the defenders; a combo is resolved hit by hit (8.1.1.1.1);
7. its limits (weekly uses, 2.3.4.2) and ``check_declaration`` of shared/rulesets/umh.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from services.turns.domain.umh import limits, rulechecks
from services.turns.domain.umh.flow import enter_preparation
from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import Side
from services.turns.domain.umh.reactions import declare, open_reactions
from services.turns.domain.umh.roster import new_participant, parse_sheet
from services.turns.domain.umh.state import CombatState, Readings, Settings
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import COMBAT_STARTED, derived_id
from shared.outcome import Outcome
from shared.payloads import StartCombat
from shared.rulesets.umh.grid import distance
from shared.rulesets.umh.settings import UmhSettings
from shared.rulesets.umh.sheet import Skill, SkillType, UmhSheet
from shared.vocabulary import Phase

RULESET: Final = "umh"
MAX_INITIAL_TARGETS: Final = 2
MAX_PRISONER_OPPONENTS: Final = 3
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
    """umh 1.2.1 / 1.2.2 / 1.1.2 / 4.5.4: one attacker, 1 to 2 distinct defenders (a
    prisoner's challenge: up to 3 of his captors)."""
    everyone = [cmd.attacker, *cmd.defenders]
    if len(set(everyone)) != len(everyone):
        raise RuleViolation("duplicate_participant", "umh 1.2.1")
    if not cmd.defenders:
        raise RuleViolation("targets_not_declared", "umh 1.1.2")
    if cmd.prisoner_challenge:
        if len(cmd.defenders) > MAX_PRISONER_OPPONENTS:
            raise RuleViolation("too_many_opponents", "umh 4.5.4", count=len(cmd.defenders), max=3)
        return
    if len(cmd.defenders) > MAX_INITIAL_TARGETS:
        raise RuleViolation(
            "too_many_initial_targets", "umh 1.1.2", count=len(cmd.defenders), max=2
        )


def parse_sheets(cmd: StartCombat) -> dict[str, UmhSheet]:
    """Every participant's sheet, validated as a umh sheet."""
    return {c: parse_sheet(c, cmd.sheets.get(c)) for c in (cmd.attacker, *cmd.defenders)}


def check_challenge(cmd: StartCombat) -> None:
    """umh 1.1.1.2 / A-60 / A-61 / 4.5.4: a challenge names one user (a prisoner's, up to
    three captors), each at most 5 squares away in the community's grid metric."""
    if len(cmd.defenders) != 1 and not cmd.prisoner_challenge:
        raise RuleViolation("invalid_target", "umh 1.1.1.2", count=len(cmd.defenders))
    positions = cmd.positions or {}
    here = positions.get(cmd.attacker)
    metric = cmd.settings.ruleset("umh", UmhSettings).readings.grid_metric
    for defender in cmd.defenders:
        there = positions.get(defender)
        if here is None or there is None:
            continue
        apart = distance(here, there, metric)
        if apart > CHALLENGE_REACH:
            raise RuleViolation(
                "challenge_out_of_range", "umh 1.1.1.2", distance=apart, max=CHALLENGE_REACH
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
    return skill


def settings_of(cmd: StartCombat) -> Settings:
    """The community settings this combat keeps for its whole life (docs/rules.md 7.1, A-16,
    A-20, the readings of 6.1 turns applies); the join veto window lasts ``veto_seconds``,
    as long as a defense window unless the community set it (umh 1.2.4.1)."""
    timers, umh = cmd.settings.timers, cmd.settings.ruleset("umh", UmhSettings)
    readings = umh.readings
    return Settings(
        turn_seconds=timers.turn_seconds,
        defense_seconds=timers.defense_seconds,
        preparation_seconds=timers.preparation_seconds,
        pa_per_round=umh.pa_per_round,
        disconnect_seconds=timers.disconnect_seconds,
        join_veto_seconds=timers.veto_seconds or timers.defense_seconds,
        uses_per_combat_annul_anticipate=umh.uses_per_combat_annul_anticipate,
        timezone=cmd.settings.timezone,
        readings=Readings(
            lone_fighter_bucket_cap=readings.lone_fighter_bucket_cap,
            cooldown_from_next_round=readings.cooldown_from_next_round,
            annul_anticipate_counter=readings.annul_anticipate_counter,
            stat_below_one=readings.stat_below_one,
            grid_metric=readings.grid_metric,
            preparation_ends_when_ready=readings.preparation_ends_when_ready,
        ),
    )


def new_state(
    cmd: StartCombat, sheets: dict[str, UmhSheet], tenant: str, room: str, now_ms: int
) -> CombatState:
    settings = settings_of(cmd)
    sides: list[tuple[str, Side]] = [(cmd.attacker, "attackers")]
    sides += [(d, "defenders") for d in cmd.defenders]
    participants = {
        c: new_participant(
            sheets[c], cmd.sheets[c], side, seq, settings, now_ms, cmd.weekly_uses.get(c)
        )
        for seq, (c, side) in enumerate(sides)
    }
    return CombatState(
        id=cmd.combat_id,
        tenant=tenant,
        room=room,
        initiator=cmd.attacker,
        sides={"attackers": [cmd.attacker], "defenders": list(cmd.defenders)},
        participants=participants,
        settings=settings,
        created_at_ms=now_ms,
        phase=Phase.OPENING,
        positions={c: [x, y] for c, (x, y) in (cmd.positions or {}).items()},
        terrain=cmd.terrain.model_dump(mode="json") if cmd.terrain else None,
        heights={c: sheets[c].position.value for c in sheets},
        opening_skill=cmd.opening.skill if cmd.opening.kind == "skill" else None,
        prisoner_challenge=cmd.prisoner_challenge,
    )


def started_payload(cmd: StartCombat, state: CombatState, now_ms: int) -> dict[str, Any]:
    payload = {
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
    carried = {c: kept for c, kept in cmd.carried.items() if c in state.participants}
    if carried:  # umh 4.1.7: what services/states said each one carries from his last combat
        payload["carried"] = {c: kept.model_dump(mode="json") for c, kept in carried.items()}
    return payload


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
    if skill is not None:
        check_opening_limits(state, cmd, skill, now_ms)
    out = Outcome()
    out.emit(COMBAT_STARTED, started_payload(cmd, state, now_ms))
    if skill is None:
        enter_preparation(state, out, now_ms)
        return out.decision(state)
    action_id = derived_id("a", state.id, "opening")
    info = state.participants[cmd.attacker].skill(skill.name)
    assert info is not None
    limits.note_use(
        state.participants[cmd.attacker],
        info,
        round_=0,
        now_ms=now_ms,
        settings=state.settings,
        in_round=False,
    )
    action = InFlight(
        attacker=cmd.attacker,
        skill=skill.name,
        targets=list(cmd.opening.targets),
        opening=True,
        round=0,
        turn_seq=0,
        hits=skill.hits,
    )
    declare(state, out, action_id, action, info)
    open_reactions(state, out, action_id, now_ms)
    return out.decision(state)


def check_opening_limits(state: CombatState, cmd: StartCombat, skill: Skill, now_ms: int) -> None:
    """umh 2.3.4.2 / 2.3.4.1: the opening skill's weekly and per-combat uses; then the checks
    of shared/rulesets/umh (reach, heights, umh 1.1.2 / 10.2). It spends no PA."""
    player = state.participants[cmd.attacker]
    info = player.skill(skill.name)
    assert info is not None
    limits.check_weekly(player, info, now_ms, state.settings)
    limits.check_per_combat(player, info)
    rulechecks.declaration(
        state, cmd.attacker, skill.name, list(cmd.opening.targets), [], in_own_turn=True
    )
