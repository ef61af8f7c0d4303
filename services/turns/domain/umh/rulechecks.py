"""The seam to ``shared/rulesets/umh/checks.py`` (umh 5 - 12: reach, areas, heights, natures'
reaction requirements, defense kinds, evasion geometry): turns builds the contexts from its
state and calls the checks after its own who / when / cost checks, before spending. The
contexts carry the combat's readings: its grid metric (A-61) and REF under 1 (A-22)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from services.turns.domain.umh.state import CombatState
from shared.payloads import Height, Position
from shared.rulesets.umh import checks, reaction_checks
from shared.rulesets.umh.grid import area_squares, distance, inside
from shared.rulesets.umh.sheet import Skill, UmhSheet
from shared.rulesets.umh.weapons import check_wielded


class Combatants:
    """Every participant as the checks see him, each sheet parsed at most once."""

    def __init__(self, state: CombatState) -> None:
        self.state = state
        self._cache: dict[str, checks.Combatant] = {}

    def __getitem__(self, character: str) -> checks.Combatant:
        found = self._cache.get(character)
        if found is None:
            found = self._cache[character] = self._build(character)
        return found

    def everyone(self) -> dict[str, checks.Combatant]:
        return {cid: self[cid] for cid in self.state.participants}

    def _build(self, character: str) -> checks.Combatant:
        p = self.state.participants[character]
        return checks.Combatant(
            id=character,
            side=p.side,
            sheet=UmhSheet.model_validate(p.sheet),
            position=position_of(self.state, character),
            effects=tuple(e.effect for e in p.effects.values()),
            blocks=frozenset(p.blocks()),
            speed_left=float(p.movement_left),
        )


def position_of(state: CombatState, character: str) -> Position:
    """umh 5, 10: his square (if the combat has a grid) and his height."""
    square = state.positions.get(character)
    height = cast(Height, state.heights.get(character, "suelo"))
    return Position(square=(square[0], square[1]) if square else None, height=height)


def squares_apart(state: CombatState, a: Sequence[int], b: Sequence[int]) -> int:
    """umh 5.1.1 / A-61: squares between two squares (Chebyshev; a setting: Manhattan)."""
    return distance((a[0], a[1]), (b[0], b[1]), state.settings.readings.grid_metric)


def sheet_skill(combatant: checks.Combatant, name: str) -> Skill:
    skill = combatant.sheet.skill(name)
    assert skill is not None, "turns validated the skill against the same sheet"
    return skill


def declaration(
    state: CombatState,
    actor: str,
    skill: str,
    targets: Sequence[str],
    squares: Sequence[tuple[int, int]],
    *,
    in_own_turn: bool,
    weapons: Sequence[str] = (),
    weapon_effects: str | None = None,
) -> None:
    """Run ``check_declaration`` for a skill about to be declared (with the weapons it is
    used with, umh 12)."""
    people = Combatants(state)
    user = people[actor]
    check_wielded(user.sheet, weapons, weapon_effects)
    checks.check_declaration(
        checks.Declaration(
            actor=user,
            skill=sheet_skill(user, skill),
            targets=[people[t] for t in targets],
            squares=list(squares),
            combatants=people.everyone(),
            in_own_turn=in_own_turn,
            weapons=list(weapons),
            metric=state.settings.readings.grid_metric,
        )
    )


def covered_squares(
    state: CombatState,
    attacker: str,
    skill: Skill,
    targets: Sequence[str],
    squares: Sequence[Sequence[int]],
) -> list[tuple[int, int]]:
    """umh 6.1.1 / A-62: the squares an area covers, aimed at the first declared square,
    else the first target's square (none without an area or a grid)."""
    here = state.positions.get(attacker)
    if skill.area is None or here is None:
        return []
    aims = [s for s in squares] + [state.positions[t] for t in targets if t in state.positions]
    aim = aims[0] if aims else here
    metric = state.settings.readings.grid_metric
    covered = area_squares(
        skill.area.shape.value,
        skill.area.size,
        (here[0], here[1]),
        (aim[0], aim[1]),
        metric,
        declared=[(s[0], s[1]) for s in squares],
    )
    return sorted(covered)


def caught_in_area(
    state: CombatState,
    attacker: str,
    skill_name: str,
    targets: list[str],
    squares: Sequence[Sequence[int]],
) -> list[str]:
    """umh 6.1.1: an offensive area hits everyone in the fight standing on its squares,
    allies included unless the skill says otherwise (``hits_allies``), never its user: the
    declared targets, then the others it caught (by id)."""
    skill = sheet_skill(Combatants(state)[attacker], skill_name)
    if skill.type.value != "offensive" or skill.area is None:
        return targets
    covered = covered_squares(state, attacker, skill, targets, squares)
    side = state.participants[attacker].side
    standing = {
        cid: (square[0], square[1])
        for cid, square in state.positions.items()
        if cid in state.participants and state.participants[cid].in_fight
    }
    caught = [
        cid
        for cid in sorted(inside(covered, standing))
        if cid != attacker
        and cid not in targets
        and (skill.hits_allies or state.participants[cid].side != side)
    ]
    return [*targets, *caught]


def reaction(
    state: CombatState,
    reactor: str,
    attacker: str,
    attack: str,
    defense: str | None,
    *,
    resist: bool,
    to: tuple[int, int] | None,
    redirect_to: str | None,
    attack_is_anticipation: bool,
    targets: Sequence[str],
    squares: Sequence[Sequence[int]] = (),
) -> None:
    """Run ``check_reaction`` for a reaction about to be accepted: ``targets`` are who the
    attack aims at, ``squares`` the squares it was declared on."""
    people = Combatants(state)
    user, foe = people[reactor], people[attacker]
    attack_skill = sheet_skill(foe, attack)
    reaction_checks.check_reaction(
        reaction_checks.Reaction(
            reactor=user,
            attacker=foe,
            attack=attack_skill,
            defense=sheet_skill(user, defense) if defense else None,
            resist=resist,
            to=to,
            redirect_to=people[redirect_to] if redirect_to else None,
            attack_is_anticipation=attack_is_anticipation,
            combatants=people.everyone(),
            targets=list(targets),
            squares=covered_squares(state, attacker, attack_skill, targets, squares),
            metric=state.settings.readings.grid_metric,
            stat_below_one=state.settings.readings.stat_below_one,
        )
    )
