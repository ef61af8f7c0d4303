"""Resolving one hit of one action: every target's breakdown, the new condition, the events.

``resolution.requested`` arrives once every reaction to the hit is in (turns owns the
windows). Order (umh 8.1, 8.2, 9.1.1): a later combo impact counts as a general action
(A-26); annulments, reflections and anticipations may cancel the hit (8.2.2 - 8.2.5);
otherwise an offensive skill strikes each target (areas and single hits whole, 8.1.1.3.3;
multiple impacts summed against one defense and split, 8.1.1.3.2), a counter sends its
surplus back (8.2.4.3), pushes may collide (11.6); a supplementary skill puts its effects
on its targets. One ``action.resolved`` is emitted, then ``combatant.down`` for each down,
then the ``effect.applied`` / ``effect.expired`` events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from services.resolution.domain.umh.condition import Combatant, CombatCondition
from services.resolution.domain.umh.cover import covering
from services.resolution.domain.umh.effects import add, view_of
from services.resolution.domain.umh.hit import Reaction, Square
from services.resolution.domain.umh.impacts import (
    collide,
    follows,
    grow,
    multi_impact,
    shared_strikes,
    where_for,
)
from services.resolution.domain.umh.readings import UmhReadings
from services.resolution.domain.umh.released import release_holds
from services.resolution.domain.umh.strike import Struck, strike
from services.resolution.domain.umh.support import support_effects
from services.resolution.domain.umh.ticks import general_action
from services.resolution.domain.umh.variations import Stopped, counter_surplus, stop_action
from shared.messages import ACTION_RESOLVED, COMBATANT_DOWN, Event
from shared.payloads import ActionResolved, CombatantDown, Position
from shared.rulesets.umh.grid import Metric, distance
from shared.rulesets.umh.sheet import DefenseKind, Nature, Skill, SkillType
from shared.rulesets.umh.weapons import armed
from shared.vocabulary import EffectKind

DownCause = Literal["damage", "indirect", "fall", "collision"]


@dataclass(frozen=True)
class ActionRequest:
    """The domain form of ``resolution.requested``."""

    action_id: str
    attacker: str
    skill: str
    targets: tuple[str, ...]
    reactions: Mapping[str, Reaction] = field(default_factory=dict)
    round: int = 0
    hit: int = 1
    hits: int = 1
    squares: tuple[Square, ...] = ()
    positions: Mapping[str, Position] = field(default_factory=dict)
    anticipation_answers: Mapping[str, Reaction] = field(default_factory=dict)
    interference: bool = False
    weapons: tuple[str, ...] = ()
    weapon_effects: str | None = None
    movement_left: Mapping[str, float] = field(default_factory=dict)
    room: Square | None = None  # umh 11.6.1: [width, height]; None: unbounded
    obstacles: frozenset[Square] = frozenset()
    terrain_defenses: Mapping[str, int] = field(default_factory=dict)  # umh 8.2.1.4


@dataclass
class Tally:
    """What resolving one hit has gathered so far: each target's breakdown, the combatants it
    changed, its events, who went down and how, who moved and the squares they spent. The
    ruleset turns it into one ``action.resolved`` and the events that follow."""

    results: list[dict[str, Any]] = field(default_factory=list)
    changed: dict[str, Combatant] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    downs: list[tuple[str, DownCause]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    moved: dict[str, Position] = field(default_factory=dict)
    speed_spent: dict[str, float] = field(default_factory=dict)

    def take(self, who: str, struck: Struck, cause: DownCause = "damage") -> None:
        self.results.append(struck.result)
        self.changed[who] = struck.combatant
        self.events += struck.events
        if struck.down:
            self.downs.append((who, cause))
        landing = struck.landing
        if landing is not None and landing.fell_to_ground:
            here = self.moved.get(who)
            self.moved[who] = Position(square=here.square if here else None, height="suelo")


def _current(condition: CombatCondition, tally: Tally, who: str) -> Combatant | None:
    return tally.changed.get(who) or condition.participants.get(who)


def _evasion_moves(
    request: ActionRequest, target: str, hops: Sequence[Square], metric: Metric, out: Tally
) -> None:
    """umh 8.2.1.1 / A-61: an evasion moves the evader and spends the squares it took (in
    the combat's grid metric); several evasions of one hit (8.1.1.3) one after another."""
    if not hops:
        return
    here = request.positions.get(target)
    height = here.height if here else "suelo"
    out.moved[target] = Position(square=hops[-1], height=height)
    if here is not None and here.square is not None:
        origin, spent = here.square, 0
        for hop in hops:
            spent += distance(origin, hop, metric)
            origin = hop
        out.speed_spent[target] = float(spent)


def _hops(reaction: Reaction, kind: str | None, further: Sequence[str | None]) -> list[Square]:
    """The squares the evasions answering a hit go to, in order (8.2.1.1, 8.1.1.3)."""
    evasion = DefenseKind.EVASION.value
    answers = [(reaction, kind), *zip(reaction.more, further, strict=False)]
    return [r.to for r, k in answers if k == evasion and r.to is not None]


def _counter(
    condition: CombatCondition,
    request: ActionRequest,
    defender: str,
    struck: Struck,
    readings: UmhReadings,
    out: Tally,
) -> None:
    """umh 8.2.4.3 / A-52: the counter's surplus over the attack strikes the attacker, who
    answered it in his own window if the counter is not melee (8.2.4.4)."""
    plan, breakdown = struck.plan, struck.breakdown
    if plan is None or plan.defense_skill is None or breakdown is None:
        return
    back = where_for(condition, request, request.attacker, defender)
    attacker = _current(condition, out, request.attacker)
    assert attacker is not None
    surplus = counter_surplus(
        plan.defense_skill,
        breakdown.amount_before("defense"),
        condition.participants[defender],
        attacker,
        back,
        readings,
        answer=request.anticipation_answers.get(defender, Reaction()),
    )
    if surplus is not None:
        out.take(request.attacker, surplus)


def _offensive(
    condition: CombatCondition,
    request: ActionRequest,
    skill: Skill,
    readings: UmhReadings,
    out: Tally,
) -> None:
    attacker = condition.participants[request.attacker]
    targets = [t for t in dict.fromkeys(request.targets) if t in condition.participants]
    out.ignored += [t for t in dict.fromkeys(request.targets) if t not in condition.participants]
    first = request.hit == 1
    shared = multi_impact(skill, targets)
    strikes = shared_strikes(condition, request, skill, targets, readings) if shared else {}
    for target_id in targets:
        reaction = request.reactions.get(target_id, Reaction())
        if not reaction.reacted:
            reaction = covering(condition, request, target_id, targets) or reaction
        target = _current(condition, out, target_id)
        assert target is not None
        where = where_for(condition, request, target_id, request.attacker)
        struck = strikes.get(target_id) or strike(
            skill, attacker, target, reaction, where, readings, first_hit=first
        )
        out.take(target_id, struck)
        plan = struck.plan
        if plan is not None:
            hops = _hops(reaction, plan.kind, plan.further_kinds)
            _evasion_moves(request, target_id, hops, readings.metric, out)
        if plan is not None and plan.kind == DefenseKind.COUNTER.value:
            _counter(condition, request, target_id, struck, readings, out)
        if skill.push and not (plan and plan.evaded) and struck.breakdown is not None:
            collide(condition, request, skill, target_id, out, readings)


def unheard(skill: Skill, target: Combatant) -> bool:
    """umh 11.5.7: a deaf fighter gets nothing from a skill of spoken orders or alerts
    (``speech``) unless it is of mental nature."""
    deaf = target.has(EffectKind.STATE, "sordera")
    return deaf and skill.speech and Nature.MENTAL not in skill.natures


def _supplementary(
    condition: CombatCondition, request: ActionRequest, skill: Skill, out: Tally
) -> None:
    """umh 8.1.1.2: a supplementary skill's effects on each target (himself when he names
    none), under the same rules as any effect (:func:`support_effects`)."""
    for who in dict.fromkeys(request.targets or (request.attacker,)):
        target = _current(condition, out, who)
        if target is None:
            out.ignored.append(who)
            continue
        key = f"{request.action_id}:{request.hit}:{who}"
        applied = []
        deaf = unheard(skill, target)
        for effect in [] if deaf else support_effects(skill, key, request.attacker):
            target, events, reason = add(
                target, effect, combat_id=condition.combat_id, who=who, action_id=request.action_id
            )
            out.events += events
            if reason is None:
                applied.append(view_of(effect).model_dump(mode="json"))
        out.changed[who] = target
        steps = [{"step": "deaf", "rule": "umh 11.5.7"}] if deaf else []
        row = {"target": who, "steps": steps, "damage": 0, "vit_before": target.vit}
        out.results.append({**row, "vit_after": target.vit, "effects": applied})


def resolve_action(
    condition: CombatCondition, request: ActionRequest
) -> tuple[CombatCondition, list[Event]]:
    """umh 8 - 11: apply one hit of one action and report it (order in the module doc),
    under the combat's readings (``condition.readings``).

    An attacker or skill that cannot be found resolves to no results with an ``error``
    (turns validated both, so this only guards a broken contract).
    """
    attacker = condition.participants.get(request.attacker)
    sheet = attacker.parsed_sheet() if attacker else None
    skill = sheet.skill(request.skill) if sheet else None
    if skill is None:
        code = "unknown_character" if attacker is None else "unknown_skill"
        payload = {**_heading(request, request.skill), "error": {"code": code, "rule": None}}
        return condition.after_action(request.action_id, request.hit, {}), [
            Event(ACTION_RESOLVED, public(payload))
        ]
    readings = condition.readings
    assert sheet is not None
    skill, wielding = armed(
        sheet,
        skill,
        request.weapons,
        request.weapon_effects,
        four_plus=readings.ambidextrous_four_plus,
        unique_alone=readings.unique_weapon_alone,
    )
    ticks: list[Event] = []
    if request.hit > 1 and not request.interference:  # each combo impact is an action
        condition, ticks = general_action(condition)
    out, stopped = _apply(condition, request, skill, readings)
    continues = (
        request.hit < request.hits
        and not stopped.cancelled
        and follows(condition, request, skill, out.moved)
    )
    payload = {
        **_heading(request, skill.name),
        "results": out.results,
        "downs": [who for who, _ in out.downs],
        "cancelled": stopped.cancelled,
        "combo_continues": continues,
        "refunds": stopped.refunds,
        "speed_spent": out.speed_spent,
        "moved": {k: v.model_dump(mode="json") for k, v in out.moved.items()},
        "ignored_targets": out.ignored,
        "weapons": wielding,
    }
    resolved = Event(ACTION_RESOLVED, public(payload))
    released = release_holds(condition.participants, out.changed, condition.combat_id)
    events = [*ticks, resolved, *down_events(request, out.downs), *out.events, *released]
    return condition.after_action(request.action_id, request.hit, out.changed), events


def _heading(request: ActionRequest, skill: str) -> dict[str, Any]:
    return {
        "action_id": request.action_id,
        "attacker": request.attacker,
        "skill": skill,
        "round": request.round,
        "hit": request.hit,
        "hits": request.hits,
    }


def _apply(
    condition: CombatCondition, request: ActionRequest, skill: Skill, readings: UmhReadings
) -> tuple[Tally, Stopped]:
    """umh 8.2.2 - 8.2.5 first (they may cancel the hit), then the skill itself (8.1)."""
    out = Tally()
    stopped = stop_action(
        condition,
        skill,
        request.attacker,
        request.reactions,
        request.anticipation_answers,
        where_for(condition, request, request.attacker, request.attacker),
        readings,
    )
    for struck in stopped.strikes:
        out.take(struck.result["target"], struck)
    if stopped.cancelled:
        return out, stopped
    if skill.type is SkillType.OFFENSIVE:
        _offensive(condition, request, skill, readings, out)
    elif skill.type is SkillType.SUPPLEMENTARY:
        _supplementary(condition, request, skill, out)
    grow(condition, request, skill, out)  # umh 8.3.1
    return out, stopped


OPTIONAL_REACTION_KEYS = ("to", "redirect_to", "use_number", "covered_by", "more")


def _shown(reaction: dict[str, Any]) -> dict[str, Any]:
    shown = {k: v for k, v in reaction.items() if k not in OPTIONAL_REACTION_KEYS or v is not None}
    if shown.get("more"):
        shown["more"] = [_shown(answer) for answer in shown["more"]]
    return shown


def public(payload: dict[str, Any]) -> dict[str, Any]:
    """``action.resolved`` validated by :class:`ActionResolved`; each reaction's optional
    fields (``to``, ``redirect_to``, ``use_number``) and ``weapons`` show only when set."""
    resolved = ActionResolved.model_validate(payload).model_dump(mode="json")
    if resolved.get("weapons") is None:
        resolved.pop("weapons", None)  # umh 12: shown only when the skill used weapons
    for row in resolved["results"]:
        reaction = row.get("reaction")
        if reaction is not None:
            row["reaction"] = _shown(reaction)
    return resolved


def down_events(request: ActionRequest, downs: Sequence[tuple[str, DownCause]]) -> list[Event]:
    """umh 4.1.1.2: one ``combatant.down`` for each combatant this hit brought to 0 VIT."""
    return [
        Event(
            COMBATANT_DOWN,
            CombatantDown(
                character=who, action_id=request.action_id, by=request.attacker, cause=cause
            ).model_dump(mode="json"),
        )
        for who, cause in downs
    ]
