"""The end of a combat (umh 4.1.1 - 4.1.1.3, 4.3.3, 2.3.3.1, 4.2.4): flight, disconnection,
pact, stalemate and annulment, each with ``combat.ended`` and its reason."""

from __future__ import annotations

from typing import Any

import pytest

from shared.payloads import CombatantFled, CombatEnded

from .builders import (
    ATTACK,
    PORTAL,
    RUN,
    SECOND,
    T0,
    TURNS,
    act,
    fighting,
    fire_kind,
    new_state,
    now_of,
    passes,
    payload,
    play_round,
    rejects,
    resolved,
    start_cmd,
    types,
    use,
    where,
)

MINUTE = 60 * SECOND


def ended(decision: Any) -> CombatEnded:
    return CombatEnded.model_validate(payload(decision, "combat.ended"))


@pytest.mark.parametrize(
    ("skill", "hours", "pa"),
    [
        pytest.param(None, None, 10, id="umh-4.1.1.1-T000-35-huir"),
        pytest.param(RUN, 24.0, 9, id="umh-4.1.1.1.1-flight-skill-own-cooldown"),
    ],
)
def test_flight_counts_as_falling(skill: str | None, hours: float | None, pa: int) -> None:
    """umh 4.1.1.1 / 4.1.1.1.1 / T000-35: HUIR (or a flight skill) in his own turn; the
    side with nobody left loses (reason ``fled``); services/states gets the cooldown."""
    state = fighting()
    now = now_of(state)
    action: dict[str, Any] = {"type": "flee", "actor": "ana"}
    if skill:
        action["skill"] = skill
    decision = act(state, action, now)
    fled = CombatantFled.model_validate(payload(decision, "combatant.fled"))
    assert (fled.character, fled.side, fled.skill, fled.flight_cooldown_hours) == (
        "ana",
        "attackers",
        skill,
        hours,
    )
    assert (fled.profile, fled.fled_at_ms) == ("basic", now)
    result = ended(decision)
    assert (result.winner, result.reason, result.room) == ("defenders", "fled", "plaza")
    assert result.participants["ana"].status == "fled"
    assert result.participants["ana"].rank == 2
    state = new_state(decision)
    assert state["participants"]["ana"]["pa"] == pa


def test_a_flight_in_two_vs_one_skips_his_turns() -> None:
    """umh 4.1.1.1 / 1.2.5: the fled one leaves the order; his side fights on."""
    state = fighting(defenders=("bruno", "carla"))
    now = now_of(state)
    state = passes(state, "ana", now)
    decision = act(state, {"type": "flee", "actor": "bruno"}, now)
    assert types(decision)[:3] == ["combatant.fled", "turn.ended", "turn.started"]
    assert payload(decision, "turn.ended")["reason"] == "fled"
    state = new_state(decision)
    assert state["turn"]["actor"] == "ana"
    state = play_round(state, now)
    assert state["turn_order"] == ["ana", "carla"]


@pytest.mark.parametrize(
    ("action", "code", "rule"),
    [
        pytest.param({"actor": "bruno"}, "not_your_turn", "umh 2.4.1", id="umh-2.4.1-flee-in-turn"),
        pytest.param(
            {"actor": "ana", "skill": ATTACK},
            "invalid_request",
            "umh 4.1.1.1",
            id="umh-4.1.1.1-not-a-flight-skill",
        ),
    ],
)
def test_flee_rejections(action: dict[str, Any], code: str, rule: str) -> None:
    state = fighting()
    violation = rejects(state, {"type": "flee", **action}, now_of(state))
    assert (violation.code, violation.rule) == (code, rule)


@pytest.mark.parametrize(
    ("blocks", "skill", "code", "rule"),
    [
        pytest.param(
            ["move"], None, "immobilized", "umh 11.5.1", id="umh-11.5.1-no-flight-immobilised"
        ),
        pytest.param(["act"], None, "stunned", "umh 11.4.1", id="umh-11.4.1-no-flight-stunned"),
        pytest.param(["move"], PORTAL, None, None, id="umh-7.1.1.1-a-teleport-flees-immobilised"),
    ],
)
def test_flight_and_conditions(
    blocks: list[str], skill: str | None, code: str | None, rule: str | None
) -> None:
    state = fighting()
    effect = {"effect_id": "e1", "kind": "state", "type": "inmovilizacion"}
    applied = {"combat_id": state["id"], "character": "ana", "effect": effect, "blocks": blocks}
    state = new_state(TURNS.on_event(state, "effect.applied", applied, now_ms=T0))
    action: dict[str, Any] = {"type": "flee", "actor": "ana"}
    if skill:
        action["skill"] = skill
    if code is None:
        assert "combatant.fled" in types(act(state, action, now_of(state)))
        return
    violation = rejects(state, action, now_of(state))
    assert (violation.code, violation.rule) == (code, rule)


def disconnected(settings: dict[str, Any] | None = None) -> tuple[dict[str, Any], int]:
    cmd = start_cmd(
        settings=settings or {"timers": {"turn_seconds": 60, "disconnect_seconds": 600}}
    )
    state = new_state(fire_kind(new_state(TURNS.start(cmd, **where(T0))), "preparation"))
    now = now_of(state)
    decision = act(state, {"type": "disconnect", "actor": "bruno"}, now)
    grace = new_state(decision)["settings"]["disconnect_seconds"] * SECOND
    assert payload(decision, "combatant.disconnected") == {
        "character": "bruno",
        "deadline_ms": now + grace,
    }
    return new_state(decision), now


def test_t000_34_disconnected_ten_minutes_is_defeated() -> None:
    """umh 4.3.3 / A-58 / T000-34: his turns still time out meanwhile; at 10:00 he is out and
    his side (nobody left) loses with reason ``disconnected``."""
    state, now = disconnected()
    assert state["settings"]["disconnect_seconds"] == 10 * 60
    view = TURNS.view(state)["participants"]["bruno"]
    assert view["status"] == "disconnected" and view["disconnected"]["out"] is False
    refused = rejects(state, {"type": "pass_turn", "actor": "bruno"}, now)
    assert (refused.code, refused.rule) == ("character_down", "umh 4.3.3")
    state = passes(state, "ana", now)
    assert state["turn"]["actor"] == "bruno"  # his turn still comes
    state = new_state(fire_kind(state, "turn"))  # and times out
    assert state["turn"]["actor"] == "ana"
    decision = fire_kind(state, "disconnect")
    result = ended(decision)
    assert (result.winner, result.reason) == ("attackers", "disconnected")
    assert result.participants["bruno"].status == "disconnected"


def test_reconnecting_within_the_grace() -> None:
    """umh 4.3.3: back within 10 minutes he plays on; the grace timer is cancelled."""
    state, now = disconnected()
    decision = act(state, {"type": "reconnect", "actor": "bruno"}, now + 9 * MINUTE)
    assert types(decision) == ["combatant.reconnected"]
    assert [t["kind"] for t in new_state(decision)["timers"].values()] == ["turn"]
    again = rejects(new_state(decision), {"type": "reconnect", "actor": "bruno"}, now)
    assert (again.code, again.rule) == ("wrong_phase", "umh 4.3.3")


def test_the_disconnected_players_window_closes_at_the_grace() -> None:
    """umh 4.3.3 / 2.4.2 / 2.1.3: his defense window expires by itself or at the end of the
    grace; the hit it leaves is resolved before the combat ends (never after its end)."""
    state, now = disconnected({"timers": {"disconnect_seconds": 60, "defense_seconds": 300}})
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    state = new_state(act(state, attack, now, n="atk"))
    decision = fire_kind(state, "disconnect")
    assert types(decision) == [
        "reaction.timed_out",
        "resolution.requested",
        "combatant.disconnected",
    ]
    state = new_state(decision)
    assert state["phase"] == "fighting" and state["end_reason"] == "disconnected"
    refused = rejects(state, {"type": "pass_turn", "actor": "ana"}, now)
    assert refused.code == "reaction_pending"
    hit = payload(decision, "resolution.requested")["action_id"]
    answer = TURNS.on_event(state, "action.resolved", resolved(hit), now_ms=now)
    assert types(answer) == ["action.completed", "combat.phase_changed", "combat.ended"]
    result = ended(answer)
    assert (result.winner, result.reason) == ("attackers", "disconnected")


@pytest.mark.parametrize(
    "defenders",
    [
        pytest.param(("bruno",), id="umh-4.1.1.3-one-vs-one"),
        pytest.param(("bruno", "carla"), id="umh-4.1.1.3-everyone"),
    ],
)
def test_pact_needs_everyone(defenders: tuple[str, ...]) -> None:
    """umh 4.1.1.3: both sides agree: no winner, reason ``pact``; offers are visible."""
    state = fighting(defenders=defenders)
    now = now_of(state)
    everyone = ["ana", *defenders]
    for n, who in enumerate(everyone[:-1]):
        state = new_state(act(state, {"type": "pact", "actor": who}, now, n=n))
    assert TURNS.view(state)["pact_offers"] == everyone[:-1]
    twice = rejects(state, {"type": "pact", "actor": "ana"}, now)
    assert (twice.code, twice.rule) == ("already_reacted", "umh 4.1.1.3")
    decision = act(state, {"type": "pact", "actor": everyone[-1]}, now, n="last")
    result = ended(decision)
    assert (result.winner, result.reason) == (None, "pact")


def test_t000_26_stalemate_after_three_rounds_of_mutual_passing() -> None:
    """umh 2.3.3.1 / A-89 / A-90 / T000-26: three rounds with no offensive skill end the
    combat, both sides lose (no winner); an offensive skill resets the count."""
    state = fighting()
    now = now_of(state)
    state = play_round(state, now)
    state = play_round(state, now)
    assert TURNS.view(state)["stalemate_rounds"] == 2
    state = use(state, "ana", ATTACK, now, n="reset", targets=("bruno",))
    state = play_round(state, now)
    assert state["stalemate_rounds"] == 0
    for expected in (1, 2):
        state = play_round(state, now)
        assert state["stalemate_rounds"] == expected
    state = passes(state, "ana", now, "end")
    decision = act(state, {"type": "pass_turn", "actor": "bruno"}, now, n="end")
    assert types(decision) == ["turn.ended", "round.ended", "combat.phase_changed", "combat.ended"]
    result = ended(decision)
    assert (result.winner, result.reason) == (None, "stalemate")


def test_a_timed_out_turn_is_not_a_voluntary_pass() -> None:
    """umh 2.3.3.1: "voluntariamente": a round with a turn timed out does not count."""
    state = fighting()
    now = now_of(state)
    state = play_round(state, now)
    state = passes(state, state["turn"]["actor"], now)
    state = new_state(fire_kind(state, "turn"))
    assert state["stalemate_rounds"] == 0


def test_annul_by_a_moderator_only() -> None:
    """umh 4.2.4: reason ``annulled``, no winner, the moderator's reason kept."""
    from shared.payloads import ActOnCombat

    from .builders import act_cmd

    state = fighting()
    body = {"type": "annul", "actor": "mod", "reason": "trampas"}
    refused = rejects(state, body)
    assert (refused.code, refused.rule) == ("forbidden", "umh 4.2.4")
    cmd = ActOnCombat.model_validate({**act_cmd(body).model_dump(), "moderator": True})
    decision = TURNS.act(state, cmd, now_ms=T0)
    result = ended(decision)
    assert (result.winner, result.reason, result.annul_reason) == (None, "annulled", "trampas")


def test_a_pact_agreed_while_a_hit_is_being_resolved_ends_after_that_hit() -> None:
    """umh 4.1.1.3 / 2.1.3: everyone offers the pact while ana's hit is on its way to
    services/resolution; the combat ends (no winner, ``pact``) once its ``action.resolved``
    is in, never before it (it was resolved after ``combat.ended``)."""
    state = fighting()
    now = now_of(state)
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    state = new_state(act(state, attack, now, n="atk"))
    timed_out = fire_kind(state, "defense")
    hit = payload(timed_out, "resolution.requested")["action_id"]
    state = new_state(timed_out)
    state = new_state(act(state, {"type": "pact", "actor": "ana"}, now, n="p1"))
    agreed = act(state, {"type": "pact", "actor": "bruno"}, now, n="p2")
    assert types(agreed) == ["pact.offered"]
    state = new_state(agreed)
    answer = TURNS.on_event(state, "action.resolved", resolved(hit), now_ms=now)
    result = ended(answer)
    assert (result.winner, result.reason) == (None, "pact")
