"""The preparation round (umh 1.3) and skills usable outside one's own turn (umh 2.4.1)."""

from __future__ import annotations

from typing import Any

import pytest

from .builders import (
    ATTACK,
    BLESSING,
    QUICK,
    READY_UP,
    T0,
    TURNS,
    act,
    attack_opening,
    fighting,
    new_state,
    now_of,
    payload,
    rejects,
    settle,
    sheet,
    skill,
    start_cmd,
    types,
    where,
)


def preparing() -> dict[str, Any]:
    return new_state(TURNS.start(start_cmd(), **where(T0)))


@pytest.mark.parametrize(
    ("name", "code"),
    [
        pytest.param(READY_UP, None, id="umh-1.3.2-1.3.3-a-preparation-skill"),
        pytest.param(BLESSING, "not_allowed_in_prep", id="umh-1.3.2-not-a-preparation-skill"),
        pytest.param(ATTACK, "not_allowed_in_prep", id="umh-1.3.2-no-attack-in-preparation"),
    ],
)
def test_skills_in_the_preparation_round(name: str, code: str | None) -> None:
    """umh 1.3.2 / 1.3.3: only skills that allow it; anyone, in no particular turn."""
    state = preparing()
    action = {"type": "skill", "actor": "bruno", "skill": name, "targets": []}
    if code is None:
        assert types(act(state, action, T0)) == ["action.declared", "resolution.requested"]
        return
    violation = rejects(state, action)
    assert (violation.code, violation.rule) == (code, "umh 1.3.2")


def test_the_aggressor_uses_the_preparation_his_opening_needs() -> None:
    """umh 1.3.6: the opening skill needs a preparation skill: he may use it right after."""
    sheets = {"ana": sheet("Ana"), "bruno": sheet("Bruno")}
    sheets["ana"]["skills"].append(skill("Rayo", damage=100, requires_preparation="Canalización"))
    sheets["ana"]["skills"].append(skill("Canalización", type="supplementary"))
    cmd = start_cmd(sheets=sheets, opening=attack_opening("bruno", skill_name="Rayo"))
    state = settle(new_state(TURNS.start(cmd, **where(T0))), T0)
    assert state["phase"] == "preparation"
    channel = {"type": "skill", "actor": "ana", "skill": "Canalización"}
    assert "action.declared" in types(act(state, channel, T0))
    refused = rejects(state, {**channel, "actor": "bruno"})
    assert refused.code == "unknown_skill"


def test_everyone_ready_ends_the_preparation_early() -> None:
    """umh 1.3.1 / A-99: once everybody is ready, round 1 starts at once."""
    state = preparing()
    decision = act(state, {"type": "ready", "actor": "ana"}, T0)
    assert payload(decision, "combatant.ready") == {"character": "ana", "waiting": ["bruno"]}
    state = new_state(decision)
    twice = rejects(state, {"type": "ready", "actor": "ana"})
    assert (twice.code, twice.rule) == ("already_reacted", "umh 1.3.1")
    decision = act(state, {"type": "ready", "actor": "bruno"}, T0 + 1000, n=2)
    assert types(decision)[1:4] == ["combat.phase_changed", "round.started", "turn.started"]
    assert decision.cancel == [next(iter(state["timers"]))]
    late = rejects(new_state(decision), {"type": "ready", "actor": "ana"})
    assert (late.code, late.rule) == ("wrong_phase", "umh 1.3.1")


def test_a_skill_usable_out_of_turn() -> None:
    """umh 2.4.1: outside his own turn a player may use skills that say so."""
    state = fighting()
    now = now_of(state)
    decision = act(state, {"type": "skill", "actor": "bruno", "skill": QUICK}, now)
    assert payload(decision, "action.declared")["attacker"] == "bruno"
    other = rejects(state, {"type": "skill", "actor": "bruno", "skill": BLESSING}, now)
    assert (other.code, other.rule) == ("not_your_turn", "umh 2.4.1")
