"""Joining a running combat (umh 1.2.3 - 1.2.5, 1.2.4.1, 2.2.2 - 2.2.3, 1.3.4, 4.2.3)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.payloads import CombatantJoined

from .builders import (
    ENTRY,
    RALLY,
    SECOND,
    T0,
    TURNS,
    act,
    fighting,
    fire,
    fire_kind,
    join_cmd,
    joined,
    new_state,
    now_of,
    passes,
    payload,
    play_round,
    rejects,
    start_cmd,
    types,
    use,
    where,
)


def refuses(state: dict[str, Any], cmd: Any, now: int) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        TURNS.act(state, cmd, now_ms=now)
    return caught.value


def enter(state: dict[str, Any], joiner: str, now: int, **kw: Any) -> dict[str, Any]:
    """``joiner`` enters at once (LLAMADA DE AUXILIO, umh 1.2.4)."""
    cmd = join_cmd(joiner, kw.pop("side", "defenders"), "llamada_de_auxilio", **kw)
    return new_state(joined(state, cmd, now))


def three_defenders() -> tuple[dict[str, Any], int]:
    state = fighting(defenders=("bruno", "carla"))
    now = now_of(state)
    return enter(state, "dani", now), now


def test_llamada_de_auxilio_enters_at_once() -> None:
    """umh 1.2.4 / 1.2.5 / 2.2.2: he is in, his place spent, he plays at the round's end."""
    state = fighting()
    now = now_of(state)
    decision = joined(state, join_cmd("carla", via="llamada_de_auxilio", vel=9), now)
    assert types(decision) == ["combatant.joined", "turn_order.changed"]
    event = CombatantJoined.model_validate(payload(decision, "combatant.joined"))
    assert (event.character, event.side, event.via, event.joined_at_ms) == (
        "carla",
        "defenders",
        "llamada_de_auxilio",
        now,
    )
    assert event.sheet["name"] == "Carla"
    state = new_state(decision)
    assert state["turn_order"] == ["ana", "bruno", "carla"]
    view = TURNS.view(state)
    assert view["slots_left"] == {"attackers": 2, "defenders": 1}
    assert view["participants"]["carla"]["joined"]["late"] is True


def test_t000_16_side_full_and_one_slot_raise_per_side() -> None:
    """umh 1.2.3 / T000-16: a 4th player cannot join a side of 3; a slot-raising skill adds
    places once per side; a second one is refused."""
    state, now = three_defenders()
    violation = refuses(state, join_cmd("eva", via="llamada_de_auxilio"), now)
    assert (violation.code, violation.rule) == ("side_full", "umh 1.2.3")
    state = play_round(state, now)
    while state["turn"]["actor"] != "bruno":
        state = passes(state, state["turn"]["actor"], now)
    state = use(state, "bruno", RALLY, now, n="rally")
    assert TURNS.view(state)["slots_left"]["defenders"] == 1
    state = enter(state, "eva", now)
    while state["turn"]["actor"] != "carla":
        state = passes(state, state["turn"]["actor"], now, "c")
    again = rejects(state, {"type": "skill", "actor": "carla", "skill": RALLY}, now)
    assert (again.code, again.rule) == ("slot_boost_already_used", "umh 1.2.3")


def test_t000_17_a_fled_member_keeps_his_slot_spent() -> None:
    """umh 1.2.5 / 4.2.3 / A-12 / T000-17: one of three flees; IRRUMPIR still finds it full."""
    state, now = three_defenders()
    state = play_round(state, now)
    while state["turn"]["actor"] != "dani":
        state = passes(state, state["turn"]["actor"], now)
    state = new_state(act(state, {"type": "flee", "actor": "dani"}, now, n="flee"))
    assert state["participants"]["dani"]["status"] == "fled"
    violation = refuses(state, join_cmd("eva"), now)
    assert violation.code == "side_full"


def test_who_fled_never_comes_back_and_nobody_enters_twice() -> None:
    """umh 4.2.3 / T000-35: rejoining the fled combat is always refused (either side)."""
    state = fighting(defenders=("bruno", "carla"))
    now = now_of(state)
    state = passes(state, "ana", now)
    state = new_state(act(state, {"type": "flee", "actor": "bruno"}, now, n="flee"))
    for side in ("defenders", "attackers"):
        violation = refuses(state, join_cmd("bruno", side, "llamada_de_auxilio"), now)
        assert (violation.code, violation.rule) == ("cannot_rejoin_fled_combat", "umh 4.2.3")
    assert refuses(state, join_cmd("carla", "attackers"), now).code == "duplicate_participant"


def raised(state: dict[str, Any], now: int) -> dict[str, Any]:
    """The defenders' one slot-raising skill (umh 1.2.3): bruno uses it in his turn."""
    while state["turn"]["actor"] != "bruno":
        state = passes(state, state["turn"]["actor"], now, "to-bruno")
    return use(state, "bruno", RALLY, now, n="rally")


def irrumpir(state: dict[str, Any], now: int, joiner: str = "eva") -> dict[str, Any]:
    decision = joined(state, join_cmd(joiner), now)
    assert types(decision) == ["join.requested"]
    return new_state(decision)


@pytest.mark.parametrize(
    ("defenders", "vetoes", "denied"),
    [
        pytest.param(
            ("bruno", "carla", "dani"), ("bruno", "carla"), True, id="umh-1.2.4.1-T000-18-2-of-3"
        ),
        pytest.param(
            ("bruno", "carla", "dani"), ("bruno",), False, id="umh-1.2.4.1-T000-18-1-of-3"
        ),
        pytest.param(
            ("bruno", "carla"), ("bruno",), False, id="umh-1.2.4.1-A-59-1-of-2-is-no-majority"
        ),
        pytest.param(("bruno", "carla"), ("bruno", "carla"), True, id="umh-1.2.4.1-2-of-2"),
    ],
)
def test_t000_18_majority_veto_of_irrumpir(
    defenders: tuple[str, ...], vetoes: tuple[str, ...], denied: bool
) -> None:
    """umh 1.2.4.1 / A-59 / T000-18: strictly more than half of the side's active members."""
    state = fighting(defenders=("bruno", "carla"))
    now = now_of(state)
    if "dani" in defenders:
        state = raised(enter(state, "dani", now), now)
    state = irrumpir(state, now)
    view = TURNS.view(state)
    (pending,) = view["pending_joins"]
    assert (pending["joiner"], pending["side"], pending["vetoes"]) == ("eva", "defenders", [])
    assert pending["vetoes_needed"] == len(defenders) // 2 + 1
    assert view["slots_left"]["defenders"] == 3 - len(defenders) - 1 + len(defenders) // 3
    for n, voter in enumerate(vetoes):
        decision = act(state, {"type": "veto_join", "actor": voter, "joiner": "eva"}, now, n=n)
        state = new_state(decision)
    if denied:
        assert "join.vetoed" in types(decision)
        assert "eva" not in state["participants"] and state["pending_joins"] == {}
        assert [t["kind"] for t in state["timers"].values()] == ["turn"]
        return
    assert state["pending_joins"]["eva"]["vetoes"] == list(vetoes)
    decision = fire_kind(state, "join")
    assert types(decision) == ["combatant.joined", "turn_order.changed"]
    assert "eva" in new_state(decision)["sides"]["defenders"]


@pytest.mark.parametrize(
    ("voter", "joiner", "code"),
    [
        pytest.param("ana", "eva", "deny_not_allowed", id="umh-1.2.4.1-only-the-sides-members"),
        pytest.param("bruno", "dani", "deny_not_allowed", id="umh-1.2.4.1-not-an-irrumpir-entry"),
        pytest.param("bruno", "zoe", "not_in_combat", id="umh-1.2.4.1-nobody-to-deny"),
    ],
)
def test_veto_rejections(voter: str, joiner: str, code: str) -> None:
    state = fighting(defenders=("bruno",))
    now = now_of(state)
    state = enter(state, "dani", now, skill_name=ENTRY)
    state = irrumpir(state, now)
    violation = rejects(state, {"type": "veto_join", "actor": voter, "joiner": joiner}, now)
    assert (violation.code, violation.rule) == (code, "umh 1.2.4.1")


def test_one_veto_each() -> None:
    state = fighting(defenders=("bruno", "carla"))
    now = now_of(state)
    state = irrumpir(state, now)
    veto = {"type": "veto_join", "actor": "bruno", "joiner": "eva"}
    state = new_state(act(state, veto, now))
    assert rejects(state, veto, now).code == "already_reacted"


@pytest.mark.parametrize(
    ("skill_name", "code", "rule"),
    [
        pytest.param("Nada", "unknown_skill", "umh 1.2.4.1", id="umh-1.2.4.1-unknown-entry-skill"),
        pytest.param("Puño", "invalid_request", "umh 1.2.4.1", id="umh-1.2.4.1-not-an-entry-skill"),
    ],
)
def test_entry_skill_rejections(skill_name: str, code: str, rule: str) -> None:
    state = fighting()
    violation = refuses(state, join_cmd("carla", skill_name=skill_name), now_of(state))
    assert (violation.code, violation.rule) == (code, rule)


def test_an_entry_skill_cannot_be_vetoed() -> None:
    """umh 1.2.4.1: entries through other skills cannot be denied."""
    state = fighting()
    now = now_of(state)
    decision = joined(state, join_cmd("carla", skill_name=ENTRY), now)
    assert payload(decision, "combatant.joined")["via"] == "skill"
    state = new_state(decision)
    violation = rejects(state, {"type": "veto_join", "actor": "bruno", "joiner": "carla"}, now)
    assert (violation.code, violation.rule) == ("deny_not_allowed", "umh 1.2.4.1")


def test_late_joiners_play_at_the_end_of_the_round_by_speed_then_join_time() -> None:
    """umh 2.2.2 / 2.2.3: joiners of a round follow, fastest first, ties by join time."""
    state = fighting()
    now = now_of(state)
    state = enter(state, "carla", now, vel=4)
    state = enter(state, "dani", now + SECOND, vel=6, side="attackers")
    state = enter(state, "eva", now + 2 * SECOND, vel=6, side="attackers")
    assert state["turn_order"] == ["ana", "bruno", "dani", "eva", "carla"]


def test_t000_20_ties_initiator_first_then_join_time() -> None:
    """umh 2.2.1.1 / 2.2.3 / T000-20: round 2, ana and bruno VEL 5, J1 (20:01) and J2
    (20:03) VEL 6: the initiator's side starts the tie; J1 before J2."""
    state = fighting(vel={"ana": 5, "bruno": 5})
    now = now_of(state)
    state = enter(state, "jota", now + 60 * SECOND, vel=6, side="attackers")
    state = enter(state, "jeta", now + 180 * SECOND, vel=6)
    state = play_round(state, now)
    assert state["turn_order"] == ["jota", "jeta", "ana", "bruno"]


def test_joining_in_the_preparation_round() -> None:
    """umh 1.3.2 / 1.3.4 / 2.2.2: who joins during preparation equips and plays round 1
    after his side's original members; a late joiner has no preparation round."""
    state = new_state(TURNS.start(start_cmd(), **where(T0)))
    state = enter(state, "carla", T0, vel=9, side="attackers")
    equip = {"type": "equip", "actor": "carla", "item": "Espada"}
    assert types(act(state, equip, T0)) == ["item.equipped"]
    state = new_state(fire_kind(state, "preparation"))
    assert state["turn_order"] == ["ana", "bruno", "carla", "bruno"]
    now = now_of(state)
    state = enter(state, "dani", now)
    late = rejects(state, {"type": "equip", "actor": "dani", "item": "Escudo"}, now)
    assert (late.code, late.rule) == ("no_prep_for_late_joiner", "umh 1.3.4")
    original = rejects(state, {"type": "equip", "actor": "ana", "item": "Escudo"}, now)
    assert (original.code, original.rule) == ("wrong_phase", "umh 1.3.2")


def test_a_veto_window_outlived_by_the_combat_is_stale() -> None:
    state = fighting()
    now = now_of(state)
    state = irrumpir(state, now, "carla")
    timer = next(t for t, v in state["timers"].items() if v["kind"] == "join")
    vetoed = new_state(act(state, {"type": "veto_join", "actor": "bruno", "joiner": "carla"}, now))
    assert vetoed["pending_joins"] == {}
    assert fire(vetoed, timer).state is None


def on_a_grid() -> tuple[dict[str, Any], int]:
    cmd = start_cmd(positions={"ana": (0, 0), "bruno": (1, 0)})
    state = new_state(fire_kind(new_state(TURNS.start(cmd, **where(T0))), "preparation"))
    return state, now_of(state)


def test_umh_11_6_1_a_joiner_enters_on_a_free_square_of_the_grid() -> None:
    state, now = on_a_grid()
    decision = joined(state, join_cmd("carla", via="llamada_de_auxilio", square=(3, 2)), now)
    event = CombatantJoined.model_validate(payload(decision, "combatant.joined"))
    assert event.square == (3, 2)
    view = TURNS.view(new_state(decision))
    assert view["participants"]["carla"]["position"]["square"] == [3, 2]


@pytest.mark.parametrize(
    ("grid", "square", "rule"),
    [
        pytest.param(True, (1, 0), "umh 11.6.1", id="umh-11.6.1-square-taken"),
        pytest.param(False, (3, 2), "umh 2.3.2.1", id="umh-2.3.2.1-no-grid"),
    ],
)
def test_umh_11_6_1_a_joiner_square_refused(grid: bool, square: tuple[int, int], rule: str) -> None:
    state, now = on_a_grid() if grid else (fighting(), now_of(fighting()))
    violation = refuses(state, join_cmd("carla", via="llamada_de_auxilio", square=square), now)
    assert (violation.code, violation.rule) == ("invalid_target", rule)


def test_a_joiner_without_a_square_enters_off_the_grid() -> None:
    state, now = on_a_grid()
    decision = joined(state, join_cmd("carla", via="llamada_de_auxilio"), now)
    assert CombatantJoined.model_validate(payload(decision, "combatant.joined")).square is None
