"""Action points (umh 3, 1.2.6.2): what a skill costs, what is left, what comes back.

Pure functions over one :class:`Participant`; the order of the checks is the one of
``skills.use_skill`` and ``reactions.react``.
"""

from __future__ import annotations

from typing import Final

from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.state import Settings
from shared.errors import RuleViolation

LONE_FIGHTER_BUCKET: Final = 2
"""umh 1.2.6.2: the lone fighter recovers 2 PA in his later own turns of a round."""
FULL_PRICE_1PA_OFFENSIVES: Final = 3
"""umh 3.4: three 1-PA offensive skills per round at their price; the fourth costs +1."""
ZERO_PA_PER_OWN_TURN: Final = 2
"""umh 3.3: at most two actions costing 0 PA in one own turn."""


def cost_of(actor: Participant, skill: SkillInfo) -> int:
    """umh 3.1.2 / 3.4 / A-17 / A-94: the skill's PA; an offensive skill whose base cost is
    1 costs 2 once three of them were used this round (interference turns included). The
    surcharge is not cumulative; defensive and supplementary skills never pay it."""
    surcharged = skill.offensive and skill.pa == 1
    if surcharged and actor.offensive_1pa >= FULL_PRICE_1PA_OFFENSIVES:
        return skill.pa + 1
    return skill.pa


def check_zero_pa(actor: Participant, cost: int, *, own_turn: bool) -> None:
    """umh 3.3: a third action costing 0 PA in the same own turn is refused."""
    if own_turn and cost == 0 and actor.zero_pa_actions >= ZERO_PA_PER_OWN_TURN:
        raise RuleViolation(
            "zero_pa_limit", "umh 3.3", used=actor.zero_pa_actions, max=ZERO_PA_PER_OWN_TURN
        )


def check_pa(actor: Participant, cost: int) -> None:
    """umh 3.1.2 / 3.1.1: the cost must be left this round (the lone fighter's bucket too)."""
    if cost > actor.pa_available:
        raise RuleViolation("insufficient_pa", "umh 3.1.2", needed=cost, left=actor.pa_available)


def spend(actor: Participant, cost: int) -> None:
    """umh 3.1.2 / A-15: pay ``cost``, from the lone fighter's bucket first."""
    from_bucket = min(actor.bonus_pa, cost)
    actor.bonus_pa -= from_bucket
    actor.pa -= cost - from_bucket
    assert actor.pa >= 0, "checked by check_pa"


def count_skill(actor: Participant, skill: SkillInfo, cost: int, *, own_turn: bool) -> None:
    """umh 3.3 / 3.4: the counters the next skill's price depends on."""
    if skill.offensive and skill.pa == 1:
        actor.offensive_1pa += 1
    if own_turn and cost == 0:
        actor.zero_pa_actions += 1


def lone_fighter_bucket(actor: Participant, settings: Settings) -> int:
    """umh 1.2.6.1 - 1.2.6.2 / A-15: the PA recovered at the start of the lone fighter's
    second and third own turns of a round (none in his first): 2, capped so that his PA
    never exceed the round's (a setting: uncapped)."""
    if actor.own_turns < 2:
        return 0
    if not settings.readings.lone_fighter_bucket_cap:
        return LONE_FIGHTER_BUCKET
    return max(0, min(LONE_FIGHTER_BUCKET, settings.pa_per_round - actor.pa))


def refund(actor: Participant, amount: int, settings: Settings) -> int:
    """umh 3.2 / 3.1.1: PA given back by resolution (an anticipated skill); never above the
    round's PA. Returns what was actually given back."""
    given = max(0, min(amount, settings.pa_per_round - actor.pa))
    actor.pa += given
    return given
