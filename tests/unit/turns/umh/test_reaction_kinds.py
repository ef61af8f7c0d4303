"""Every defense kind in a window (umh 8.2), the attacker's answer to an anticipation
(8.2.2.4), combos hit by hit (8.1.1.1.1), falls outside a hit (11.2)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.payloads import ResolutionRequested

from .builders import (
    AEGIS,
    ATTACK,
    CLASH,
    COMBO,
    DEFENSE_KINDS,
    MIND,
    SHIELD,
    TURNS,
    act,
    action_id,
    fighting,
    fire_kind,
    new_state,
    now_of,
    payload,
    rejects,
    resolved,
    types,
)

USES = {"anticipation": 1, "annulment": 1, "reflection": 1}


def attacked(
    skill: str = ATTACK, defenders: tuple[str, ...] = ("bruno",)
) -> tuple[dict[str, Any], int]:
    state = fighting(defenders=defenders)
    now = now_of(state)
    aim = {"type": "skill", "actor": "ana", "skill": skill, "targets": [defenders[0]]}
    return new_state(act(state, aim, now)), now


@pytest.mark.parametrize(
    ("name", "kind"),
    [pytest.param(n, k, id=f"umh-8.2-{k}-accepted") for n, k in DEFENSE_KINDS.items()],
)
def test_every_defense_kind_is_accepted_and_paid(name: str, kind: str) -> None:
    """umh 8.2.1 - 8.2.5 / 3.1.2 / 2.3.1.2: its PA spent, its use counted; resolution
    computes what it does."""
    state, now = attacked()
    react: dict[str, Any] = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": name,
    }
    if kind in USES:
        react["use_number"] = 1
    if kind == "reflection":
        react["redirect_to"] = "ana"
    decision = act(state, react, now, n=2)
    answered = payload(decision, "reaction.answered")
    assert (answered["skill"], answered["kind"]) == (name, kind)
    after = new_state(decision)
    assert after["participants"]["bruno"]["pa"] == 9
    if kind in ("anticipation", "counter"):  # umh 8.2.2.4, 8.2.4.4: the attacker may answer
        assert types(decision) == ["reaction.answered", "reaction.requested"]
        assert payload(decision, "reaction.requested")["answer_to"] == kind
        return
    if kind == "reflection":  # umh 8.2.5.2: its new target defends it first
        assert payload(decision, "reaction.requested")["reflected_by"] == "bruno"
        take = {"type": "react", "actor": "ana", "action_id": action_id(1), "skill": None}
        decision = act(after, take, now, n=3)
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    choice = request.reactions["bruno"]
    assert (choice.skill, choice.use_number) == (name, react.get("use_number"))
    if kind == "reflection":
        assert choice.redirect_to == "ana"


def anticipated() -> tuple[dict[str, Any], int]:
    state, now = attacked()
    react = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": "Previsión",
        "use_number": 1,
    }
    decision = act(state, react, now, n=2)
    requested = [e.payload for e in decision.events if e.type == "reaction.requested"]
    assert requested[0]["reactor"] == "ana" and requested[0]["anticipation_by"] == "bruno"
    return new_state(decision), now


def test_the_attacker_may_answer_an_anticipation() -> None:
    """umh 8.2.2.4: a window for the attacker, visible, with its own timer; his clock stays
    paused; his answer goes to resolution."""
    state, now = anticipated()
    (pending,) = TURNS.view(state)["pending_reactions"]
    assert (pending["reactor"], pending["anticipation_by"]) == ("ana", "bruno")
    assert TURNS.view(state)["turn"]["paused_remaining"] is not None
    answer = {"type": "react", "actor": "ana", "action_id": action_id(1), "skill": "Campo"}
    decision = act(state, answer, now, n=3)
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    assert request.reactions["bruno"].skill == "Previsión"
    assert request.anticipation_answers["bruno"].skill == "Campo"


def test_t000_anticipation_chain_is_refused() -> None:
    """umh 8.2.2.4.1: no anticipation answers an anticipation."""
    state, now = anticipated()
    answer = {
        "type": "react",
        "actor": "ana",
        "action_id": action_id(1),
        "skill": "Previsión",
        "use_number": 1,
    }
    violation = rejects(state, answer, now)
    assert (violation.code, violation.rule) == ("anticipation_chain", "umh 8.2.2.4.1")


def test_an_unanswered_anticipation_times_out() -> None:
    """umh 2.4.2 / A-24: the attacker's window closes like any other."""
    state, _now = anticipated()
    decision = fire_kind(state, "answer")
    assert types(decision) == ["reaction.timed_out", "resolution.requested"]
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    assert request.anticipation_answers["bruno"].timed_out


def test_resistir_where_the_rules_allow_it() -> None:
    """umh 7.1.2.3: RESISTIR is a basic command (no PA); check_reaction decides where."""
    state, now = attacked(MIND)
    decision = act(
        state,
        {"type": "react", "actor": "bruno", "action_id": action_id(1), "resist": True},
        now,
        n=2,
    )
    assert payload(decision, "resolution.requested")["reactions"]["bruno"]["resist"] is True
    assert new_state(decision)["participants"]["bruno"]["pa"] == 10


def test_a_reflection_needs_someone_in_the_combat() -> None:
    state, now = attacked()
    react = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": "Espejo",
        "use_number": 1,
        "redirect_to": "zoe",
    }
    assert rejects(state, react, now).code == "not_in_combat"


def test_a_combo_is_resolved_hit_by_hit() -> None:
    """umh 8.1.1.1.1 / 8.1.1.1.2: each hit gets its own windows; the combo goes on while
    resolution says so, and ends when it does not."""
    state, now = attacked(COMBO)
    for hit in (1, 2):
        (pending,) = TURNS.view(state)["pending_reactions"]
        assert (pending["hit"], pending["hits"]) == (hit, 3)
        shield = {
            "type": "react",
            "actor": "bruno",
            "action_id": action_id(1),
            "skill": SHIELD if hit == 1 else None,
        }
        decision = act(state, shield, now, n=f"h{hit}")
        request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
        assert (request.hit, request.hits) == (hit, 3)
        state = new_state(decision)
        answer = {
            "action_id": action_id(1),
            "attacker": "ana",
            "skill": COMBO,
            "hit": hit,
            "combo_continues": hit == 1,
        }
        stale = {**answer, "hit": hit + 1}
        assert TURNS.on_event(state, "action.resolved", stale, now_ms=now).state is None
        decision = TURNS.on_event(state, "action.resolved", answer, now_ms=now)
        state = new_state(decision)
    assert types(decision) == ["action.completed", "turn.resumed"]
    assert state["participants"]["bruno"]["pa"] == 9  # one defense, one PA


def test_a_fall_outside_a_hit_closes_his_windows() -> None:
    """umh 11.2 / 4.1.1.2 / 2.1.3: a damage-over-time tick fells a target with an open window:
    the window closes (A-24); with nobody left on his side, the combat ends once the hit
    already being resolved has come back (never before its ``action.resolved``)."""
    state, now = attacked(defenders=("bruno", "carla"))
    down = {"character": "bruno", "cause": "indirect"}
    decision = TURNS.on_event(state, "combatant.down", down, now_ms=now)
    assert types(decision) == ["reaction.timed_out", "resolution.requested"]
    state = new_state(decision)
    assert state["participants"]["bruno"]["status"] == "down"
    assert TURNS.on_event(state, "combatant.down", down, now_ms=now).state is None
    decision = TURNS.on_event(state, "combatant.down", {"character": "carla"}, now_ms=now)
    assert "combat.ended" not in types(decision)
    state = new_state(decision)
    answer = TURNS.on_event(state, "action.resolved", resolved(action_id(1)), now_ms=now)
    assert payload(answer, "combat.ended")["reason"] == "defeat"


def stepping_in(skill: str, **extra: Any) -> dict[str, Any]:
    return {"type": "react", "actor": "carla", "action_id": action_id(1), "skill": skill, **extra}


def test_umh_8_2_3_3_an_opponent_not_targeted_annuls_while_the_windows_are_open() -> None:
    """umh 8.2.3.3 / 8.2.5.1: carla is not a target of ana's attack on bruno; she annuls it
    before it resolves (her use counted); the hit resolves once bruno answers too."""
    state, now = attacked(defenders=("bruno", "carla"))
    decision = act(state, stepping_in("Anulación", use_number=1), now, n=2)
    answered = payload(decision, "reaction.answered")
    assert (answered["reactor"], answered["kind"]) == ("carla", "annulment")
    assert "resolution.requested" not in types(decision)
    state = new_state(decision)
    assert state["participants"]["carla"]["pa"] == 9
    take = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": None}
    decision = act(state, take, now, n=3)
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    assert request.reactions["carla"].skill == "Anulación"
    assert request.targets == ["bruno"]


def test_umh_8_2_2_5_an_opponent_not_targeted_anticipates_and_the_attacker_may_answer() -> None:
    state, now = attacked(defenders=("bruno", "carla"))
    decision = act(state, stepping_in("Previsión", use_number=1), now, n=2)
    requested = payload(decision, "reaction.requested")
    assert (requested["reactor"], requested["anticipation_by"]) == ("ana", "carla")


@pytest.mark.parametrize(
    ("skill", "extra"),
    [
        pytest.param(SHIELD, {}, id="umh-8.1.1.3.1-an-internal-defense-is-for-targets"),
        pytest.param(None, {}, id="umh-8.1.1.3-nothing-to-answer"),
    ],
)
def test_umh_8_1_1_3_1_only_reaching_kinds_step_in(
    skill: str | None, extra: dict[str, Any]
) -> None:
    state, now = attacked(defenders=("bruno", "carla"))
    refused = rejects(state, stepping_in(skill, **extra), now)  # type: ignore[arg-type]
    assert (refused.code, refused.rule) == ("no_pending_reaction", "umh 8.1.1.3")


def test_umh_8_2_3_3_too_late_once_the_hit_is_resolving() -> None:
    state, now = attacked(defenders=("bruno", "carla"))
    take = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": None}
    state = new_state(act(state, take, now, n=2))
    refused = rejects(state, stepping_in("Anulación", use_number=1), now)
    assert refused.code == "no_pending_reaction"


def test_umh_8_1_1_3_1_an_ally_covers_the_target_with_his_defense() -> None:
    """umh 8.1.1.3.1: carla is not targeted; her defense that covers allies goes to
    resolution with the hit (she pays its PA)."""
    state, now = attacked(defenders=("bruno", "carla"))
    decision = act(state, stepping_in(AEGIS), now, n=2)
    assert payload(decision, "reaction.answered")["kind"] == "external"
    state = new_state(decision)
    assert state["participants"]["carla"]["pa"] == 9
    take = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": None}
    request = ResolutionRequested.model_validate(
        payload(act(state, take, now, n=3), "resolution.requested")
    )
    assert request.reactions["carla"].skill == AEGIS


def test_umh_8_2_4_4_the_attacker_answers_the_surplus_of_a_ranged_counter() -> None:
    """umh 8.2.4.3 / 8.2.4.4 / A-52: bruno counters with a counter that is not melee; ana
    gets a window for its surplus and raises a defense, which goes to resolution."""
    state, now = attacked()
    counter = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": "Réplica"}
    state = new_state(act(state, counter, now, n=2))
    (pending,) = TURNS.view(state)["pending_reactions"]
    assert (pending["reactor"], pending["anticipation_by"]) == ("ana", "bruno")
    answer = {"type": "react", "actor": "ana", "action_id": action_id(1), "skill": "Campo"}
    request = ResolutionRequested.model_validate(
        payload(act(state, answer, now, n=3), "resolution.requested")
    )
    assert request.anticipation_answers["bruno"].skill == "Campo"


def test_umh_8_2_4_4_no_answer_to_a_melee_counter() -> None:
    state, now = attacked()
    counter = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": CLASH}
    decision = act(state, counter, now, n=2)
    assert types(decision)[:2] == ["reaction.answered", "resolution.requested"]
