"""The readings of docs/rules.md 6.1 that a community may switch ("config"), as services/turns
applies them: each table starts the combat with the community setting flipped
(``StartCombat.settings.umh.readings``) and shows the other behaviour. Also the IRRUMPIR veto
window (``timers.veto_seconds``) and states kept before the readings were copied."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation

from .builders import (
    ATTACK,
    JAB,
    SECOND,
    SLASH,
    T0,
    TURNS,
    act,
    action_id,
    fighting,
    fire_kind,
    join_cmd,
    joined,
    new_state,
    now_of,
    passes,
    payload,
    play_round,
    rejects,
    settle,
    sheet,
    skill,
    start_cmd,
    types,
    use,
    where,
)

JSON = dict[str, Any]


def community(**readings: Any) -> JSON:
    """Community settings whose ``umh.readings`` are ``readings`` (the rest: defaults)."""
    return {"umh": {"readings": readings}}


def started(**cmd: Any) -> JSON:
    """A challenge whose preparation round is over: round 1, ``ana`` acts."""
    state = new_state(TURNS.start(start_cmd(**cmd), **where(T0)))
    return new_state(fire_kind(state, "preparation"))


def skill_on(actor: str, name: str, *targets: str) -> JSON:
    return {"type": "skill", "actor": actor, "skill": name, "targets": list(targets)}


@pytest.mark.parametrize(
    ("readings", "bonus"),
    [
        pytest.param({}, 0, id="A-15-bucket-capped-at-the-rounds-pa"),
        pytest.param({"lone_fighter_bucket_cap": False}, 2, id="A-15-bucket-uncapped"),
    ],
)
def test_a_15_lone_fighter_bucket(readings: JSON, bonus: int) -> None:
    """umh 1.2.6.2: ana, alone against two, spent nothing in her first own turn of round 2:
    capped, her second own turn brings no PA (she has the round's 10); uncapped, 2 more."""
    state = fighting(
        defenders=("bruno", "carla"),
        vel={"ana": 3, "bruno": 7, "carla": 6},
        settings=community(**readings),
    )
    now = now_of(state)
    state = play_round(state, now)
    assert state["turn_order"] == ["bruno", "ana", "carla", "ana"]
    for who in ("bruno", "ana", "carla"):
        state = passes(state, who, now)
    assert state["turn"]["actor"] == "ana"
    ana = state["participants"]["ana"]
    assert (ana["pa"], ana["bonus_pa"]) == (10, bonus)
    assert TURNS.view(state)["participants"]["ana"]["pa_bonus"] == bonus


@pytest.mark.parametrize(
    ("readings", "ready_round"),
    [
        pytest.param({}, 4, id="A-19-cooldown-r+n+1"),
        pytest.param({"cooldown_from_next_round": False}, 3, id="A-19-cooldown-r+n"),
    ],
)
def test_a_19_cooldown(readings: JSON, ready_round: int) -> None:
    """umh 2.3.4: Tajo (2 rounds) used in round 1 is usable again from round 4 (two full
    rounds in between), or from round 3 with the setting."""
    state = fighting(settings=community(**readings))
    now = now_of(state)
    state = use(state, "ana", SLASH, now, n="slash", targets=("bruno",))
    assert state["participants"]["ana"]["cooldowns"] == {SLASH.casefold(): ready_round}
    state = play_round(play_round(state, now, "a"), now, "b")
    assert (state["round"], state["turn"]["actor"]) == (3, "ana")
    again = skill_on("ana", SLASH, "bruno")
    if ready_round == 3:
        assert "action.declared" in types(act(state, again, now, n="again"))
    else:
        violation = rejects(state, again, now)
        assert (violation.code, violation.details["ready_round"]) == ("on_cooldown", 4)


@pytest.mark.parametrize(
    ("readings", "next_number"),
    [
        pytest.param({}, 1, id="A-20-counter-per-skill"),
        pytest.param({"annul_anticipate_counter": "shared"}, 2, id="A-20-counter-shared"),
    ],
)
def test_a_20_annul_anticipate_counter(readings: JSON, next_number: int) -> None:
    """umh 2.3.4.1 / 2.3.1.2: after annulment #1, bruno's first anticipation is its own #1
    (one counter per skill), or #2 (one counter for all of them)."""
    state = fighting(settings=community(**readings))
    now = now_of(state)
    state = new_state(act(state, skill_on("ana", ATTACK, "bruno"), now, n="atk1"))
    annul: JSON = {"type": "react", "actor": "bruno", "action_id": action_id("atk1")}
    annul |= {"skill": "Anulación", "use_number": 1}
    state = settle(new_state(act(state, annul, now, n="re1")), now)
    state = new_state(act(state, skill_on("ana", JAB, "bruno"), now, n="atk2"))
    foresee = {"type": "react", "actor": "bruno", "action_id": action_id("atk2")}
    foresee |= {"skill": "Previsión"}
    wrong = rejects(state, {**foresee, "use_number": 3 - next_number}, now)
    assert (wrong.code, wrong.details["expected"]) == ("use_number_mismatch", next_number)
    assert "reaction.answered" in types(act(state, {**foresee, "use_number": next_number}, now))


@pytest.mark.parametrize(
    ("readings", "code"),
    [
        pytest.param({}, "insufficient_speed", id="A-22-vel-under-1-kept-pays-no-square"),
        pytest.param({"stat_below_one": "clamp"}, None, id="A-22-vel-under-1-clamped-to-1"),
    ],
)
def test_a_22_vel_below_one(readings: JSON, code: str | None) -> None:
    """umh 2.6.1.2 / 2.3.2.1: a VEL of 0.5 pays for no square unless read as 1."""
    sheets = {"ana": sheet("Ana", vel=0.5), "bruno": sheet("Bruno")}
    positions = {"ana": (0, 0), "bruno": (4, 0)}
    state = started(sheets=sheets, positions=positions, settings=community(**readings))
    step = {"type": "move", "actor": "ana", "to": [1, 0]}
    if code is not None:
        assert rejects(state, step, now_of(state)).code == code
        return
    moved = new_state(act(state, step, now_of(state)))
    assert moved["positions"]["ana"] == [1, 0]
    assert moved["participants"]["ana"]["movement_left"] == 0


@pytest.mark.parametrize(
    ("readings", "code"),
    [
        pytest.param({}, "reaction_requirement", id="A-22-ref-under-1-kept-requirement-unmet"),
        pytest.param({"stat_below_one": "clamp"}, None, id="A-22-ref-under-1-clamped-meets-1"),
    ],
)
def test_a_22_ref_below_one(readings: JSON, code: str | None) -> None:
    """umh 2.6.1.1 / 7.1.1: an annulment of a skill that asks 1 REF, by a REF of 0.5."""
    sheets = {"ana": sheet("Ana"), "bruno": sheet("Bruno")}
    sheets["ana"]["skills"].append(skill("Certero", damage=10, ref_required=1))
    sheets["bruno"]["stats"]["ref"] = 0.5
    state = started(sheets=sheets, settings=community(**readings))
    now = now_of(state)
    state = new_state(act(state, skill_on("ana", "Certero", "bruno"), now, n="atk"))
    annul: JSON = {"type": "react", "actor": "bruno", "action_id": action_id("atk")}
    annul |= {"skill": "Anulación", "use_number": 1}
    if code is not None:
        assert rejects(state, annul, now).code == code
        return
    assert "reaction.answered" in types(act(state, annul, now, n="re"))


@pytest.mark.parametrize(
    ("readings", "code"),
    [
        pytest.param({}, None, id="A-61-chebyshev-diagonal-step-costs-1"),
        pytest.param(
            {"grid_metric": "manhattan"}, "insufficient_speed", id="A-61-manhattan-costs-2"
        ),
    ],
)
def test_a_61_movement(readings: JSON, code: str | None) -> None:
    """umh 2.3.2.1: with VEL 1, one diagonal step."""
    sheets = {"ana": sheet("Ana", vel=1), "bruno": sheet("Bruno")}
    positions = {"ana": (0, 0), "bruno": (3, 0)}
    state = started(sheets=sheets, positions=positions, settings=community(**readings))
    step = {"type": "move", "actor": "ana", "to": [1, 1]}
    if code is not None:
        assert rejects(state, step, now_of(state)).code == code
        return
    assert new_state(act(state, step, now_of(state)))["positions"]["ana"] == [1, 1]


@pytest.mark.parametrize(
    ("readings", "code"),
    [
        pytest.param({}, None, id="A-61-chebyshev-challenge-3-squares-away"),
        pytest.param(
            {"grid_metric": "manhattan"}, "challenge_out_of_range", id="A-61-manhattan-6-away"
        ),
    ],
)
def test_a_61_challenge_reach(readings: JSON, code: str | None) -> None:
    """umh 1.1.1.2: a challenge reaches 5 squares; (0, 0) to (3, 3) is 3 or 6."""
    cmd = start_cmd(positions={"ana": (0, 0), "bruno": (3, 3)}, settings=community(**readings))
    if code is None:
        assert new_state(TURNS.start(cmd, **where(T0)))["phase"] == "preparation"
        return
    with pytest.raises(RuleViolation) as caught:
        TURNS.start(cmd, **where(T0))
    assert (caught.value.code, caught.value.rule) == (code, "umh 1.1.1.2")


@pytest.mark.parametrize(
    ("readings", "code"),
    [
        pytest.param({}, None, id="A-61-chebyshev-diagonal-neighbour-in-reach-1"),
        pytest.param(
            {"grid_metric": "manhattan"}, "target_out_of_range", id="A-61-manhattan-2-away"
        ),
    ],
)
def test_a_61_skill_reach(readings: JSON, code: str | None) -> None:
    """umh 5.1.1 (shared/rulesets/umh/checks.py, the combat's metric): Puño reaches 1."""
    positions = {"ana": (0, 0), "bruno": (1, 1)}
    state = started(positions=positions, settings=community(**readings))
    punch = skill_on("ana", ATTACK, "bruno")
    if code is not None:
        assert rejects(state, punch, now_of(state)).code == code
        return
    assert "action.declared" in types(act(state, punch, now_of(state)))


@pytest.mark.parametrize(
    ("readings", "phase"),
    [
        pytest.param({}, "fighting", id="A-99-preparation-ends-when-everyone-is-ready"),
        pytest.param(
            {"preparation_ends_when_ready": False}, "preparation", id="A-99-preparation-runs-out"
        ),
    ],
)
def test_a_99_preparation(readings: JSON, phase: str) -> None:
    """umh 1.3.1: both ready; off, the preparation round lasts its whole time."""
    state = new_state(TURNS.start(start_cmd(settings=community(**readings)), **where(T0)))
    state = new_state(act(state, {"type": "ready", "actor": "ana"}, T0))
    state = new_state(act(state, {"type": "ready", "actor": "bruno"}, T0 + SECOND, n=2))
    assert state["phase"] == phase
    if phase == "preparation":
        decision = fire_kind(state, "preparation")
        assert payload(decision, "round.started")["round"] == 1


@pytest.mark.parametrize(
    ("timers", "window"),
    [
        pytest.param({"defense_seconds": 300}, 300, id="umh-1.2.4.1-veto-window-a-defense-window"),
        pytest.param(
            {"defense_seconds": 300, "veto_seconds": 30}, 30, id="umh-1.2.4.1-veto-seconds-setting"
        ),
    ],
)
def test_the_veto_window(timers: JSON, window: int) -> None:
    """umh 1.2.4.1: an IRRUMPIR waits ``veto_seconds`` (none set: ``defense_seconds``)."""
    state = fighting(settings={"timers": timers})
    now = now_of(state)
    decision = joined(state, join_cmd("carla"), now)
    assert payload(decision, "join.requested")["deadline_ms"] == now + window * SECOND
    (armed,) = decision.arm
    assert (armed.kind, armed.due_ms) == ("join", now + window * SECOND)


def test_the_combat_keeps_its_readings_and_old_states_load_the_recommended_ones() -> None:
    """The readings are the combat's copy of its start's settings; a state written before
    they were copied (its settings without ``readings``, with the old internal flags)
    plays on with the recommended ones."""
    state = fighting(settings=community(cooldown_from_next_round=False, grid_metric="manhattan"))
    readings = state["settings"]["readings"]
    assert (readings["cooldown_from_next_round"], readings["grid_metric"]) == (False, "manhattan")
    old = fighting()
    legacy = {k: v for k, v in old["settings"].items() if k != "readings"}
    old["settings"] = {**legacy, "reading_cooldown_round_of_use_counts": False}
    now = now_of(old)
    old = use(old, "ana", SLASH, now, n="slash", targets=("bruno",))
    assert old["participants"]["ana"]["cooldowns"] == {SLASH.casefold(): 4}
    assert old["settings"]["readings"] == fighting()["settings"]["readings"]
