"""The chaos checker proven by mutation: real logs (two umh combats played through the chain,
:mod:`tests.unit.chaos.played`) pass it clean; each kind of loss and duplicate the faults can
cause, written into a copy of them, must be reported under its own count."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.chaos.audit import GRACE_MS
from tests.chaos.check import LATE_TIMER_MS, CombatRecord, Figures, judge, overdue
from tests.chaos.load import Attempt
from tests.unit.chaos.played import Played, played

JSON = dict[str, Any]
Mutation = Callable[[CombatRecord, list[Attempt]], None]
LATER = 3_600_000


def figures_of(game: Played, mutate: Mutation | None = None, *, after_ms: int = LATER) -> Figures:
    record, attempts = copy.deepcopy(game.record), copy.deepcopy(game.attempts)
    if mutate is not None:
        mutate(record, attempts)
    return judge([record], attempts, game.last_ms + after_ms)


def positions(record: CombatRecord, kind: str) -> list[int]:
    return [i for i, e in enumerate(record.events) if e["type"] == kind]


def doubled(kind: str, which: int = 0) -> Mutation:
    """The ``which``-th event of ``kind`` recorded again under a new id (a repeat applied)."""

    def mutate(record: CombatRecord, attempts: list[Attempt]) -> None:
        at = positions(record, kind)[which]
        again = copy.deepcopy(record.events[at])
        again["id"] = again["id"] + "x"
        record.events.insert(at + 1, again)

    return mutate


def dropped(*kinds: str, last: bool = False) -> Mutation:
    def mutate(record: CombatRecord, attempts: list[Attempt]) -> None:
        for kind in kinds:
            at = positions(record, kind)
            del record.events[at[-1] if last else at[0]]

    return mutate


COUNTS = (
    "unanswered",
    "lost",
    "duplicated",
    "stuck",
    "timers_never_fired",
    "timers_fired_twice",
    "aftermath_missing",
    "mismatches",
)


def bad(figures: Figures) -> dict[str, int]:
    return {name: getattr(figures, name) for name in COUNTS if getattr(figures, name)}


def test_the_real_logs_pass_clean() -> None:
    ended, running = played()
    clean = figures_of(ended)
    assert bad(clean) == {}, clean.problems
    assert (clean.combats_ended, clean.aftermath_applied) == (1, 2)
    assert clean.timers_due == clean.timers_fired == 3  # a turn and two windows timed out
    live = figures_of(running, after_ms=1000)
    assert bad(live) == {}, live.problems


@pytest.mark.parametrize(
    "kind",
    [
        "action.declared",
        "reaction.requested",
        "reaction.answered",
        "reaction.timed_out",
        "action.resolved",
        "action.completed",
        "turn.started",
        "turn.ended",
        "turn.timed_out",
        "round.started",
        "combatant.down",
        "combat.ended",
    ],
)
def test_every_event_type_said_twice_is_a_duplicate(kind: str) -> None:
    """umh: each of these happens once per thing it is about (an action, a window, a hit, a
    turn, a round, a fall, the combat)."""
    ended, _ = played()
    assert figures_of(ended, doubled(kind)).duplicated >= 1


def test_an_effect_applied_twice_is_a_duplicate() -> None:
    """umh 11: an effect a hit applies is applied once (resolution's dedupe by hit)."""
    ended, _ = played()

    def effect(record: CombatRecord, attempts: list[Attempt]) -> None:
        at = positions(record, "action.resolved")[0]
        applied = {
            "id": "m_effect",
            "type": "effect.applied",
            "occurred_at": record.events[at]["occurred_at"],
            "correlation_id": record.events[at]["correlation_id"],
            "data": {
                "character": "bruno",
                "action_id": record.events[at]["data"]["action_id"],
                "effect": {"type": "aturdimiento", "rounds": 1},
            },
        }
        record.events.insert(at + 1, applied)

    assert bad(figures_of(ended, effect)) == {}

    def twice(record: CombatRecord, attempts: list[Attempt]) -> None:
        effect(record, attempts)
        doubled("effect.applied")(record, attempts)

    assert figures_of(ended, twice).duplicated == 1


def test_the_same_event_recorded_twice_is_a_duplicate() -> None:
    ended, _ = played()

    def again(record: CombatRecord, attempts: list[Attempt]) -> None:
        record.events.insert(5, copy.deepcopy(record.events[5]))

    assert figures_of(ended, again).duplicated >= 1


def test_a_hit_applied_twice_shows_in_the_replay() -> None:
    """umh 9.1.1: the second application starts from a VIT the replay no longer holds."""
    ended, _ = played()
    figures = figures_of(ended, doubled("action.resolved"))
    assert figures.duplicated >= 1 and figures.mismatches >= 1, figures.problems


def test_a_hand_off_lost_after_resolution_is_lost() -> None:
    """The hit resolved, ``action.completed`` never came: the turn stays paused for good."""
    _, running = played()
    figures = figures_of(
        running, dropped("action.completed", "turn.resumed"), after_ms=GRACE_MS * 2
    )
    assert figures.lost >= 1 and figures.stuck == 1, figures.problems


def test_a_paused_turn_does_not_hide_a_stuck_combat() -> None:
    _, running = played()
    figures = figures_of(running, dropped("turn.resumed"), after_ms=GRACE_MS * 2)
    assert figures.stuck == 1, figures.problems


def test_a_hit_lost_between_turns_and_resolution_is_lost() -> None:
    _, running = played()
    lost = dropped("action.resolved", "action.completed", "turn.resumed")
    figures = figures_of(running, lost, after_ms=GRACE_MS * 2)
    assert figures.lost >= 1 and figures.stuck == 1, figures.problems


def test_an_acknowledged_action_missing_from_the_log_is_lost() -> None:
    ended, _ = played()

    def forgotten(record: CombatRecord, attempts: list[Attempt]) -> None:
        attempts[0].action_id, attempts[0].event_ids = "a_never_seen", []

    assert figures_of(ended, forgotten).lost == 1


def test_an_event_a_200_answer_carried_missing_from_the_log_is_lost() -> None:
    ended, _ = played()

    def forgotten(record: CombatRecord, attempts: list[Attempt]) -> None:
        attempts[0].event_ids.append("m_answered_only")
        attempts[0].event_types.append("action.resolved")

    assert figures_of(ended, forgotten).lost == 1


def test_the_aftermath_a_200_answer_carried_is_read_in_the_histories() -> None:
    """services/states' ``aftermath.applied`` of the chain is logged with the character."""
    ended, _ = played()

    def told(record: CombatRecord, attempts: list[Attempt]) -> None:
        attempts[0].event_ids.append("m_aftermath")
        attempts[0].event_types.append("aftermath.applied")

    assert figures_of(ended, told).lost == 0


def test_a_request_unanswered_after_retries_is_counted() -> None:
    ended, _ = played()

    def unanswered(record: CombatRecord, attempts: list[Attempt]) -> None:
        attempts.append(Attempt(record.combat_id, "skill", "ana", "k-late", 0.0))

    figures = figures_of(ended, unanswered)
    assert (figures.unanswered, figures.attempted) == (1, len(ended.attempts) + 1)


def test_a_turn_due_that_never_fired_is_counted() -> None:
    """umh 2.4.2: the turn timer is due at its deadline; nothing closed the turn."""
    _, running = played()
    figures = figures_of(running, after_ms=GRACE_MS + 10_000)
    assert figures.timers_never_fired == 1, figures.problems


def test_a_window_due_that_never_fired_is_counted() -> None:
    ended, _ = played()

    def unfired(record: CombatRecord, attempts: list[Attempt]) -> None:
        at = positions(record, "reaction.timed_out")[0]
        del record.events[at:]

    figures = figures_of(ended, unfired)
    assert figures.timers_never_fired == 1, figures.problems


@pytest.mark.parametrize("kind", ["turn.timed_out", "reaction.timed_out"])
def test_a_timer_fired_late_is_counted_with_its_delay(kind: str) -> None:
    """A timer that fired 6 s after its deadline (say, armed by a commit whose process was
    killed and carried out by the sweeper long after) is counted late, with its delay."""
    ended, _ = played()
    clean = figures_of(ended)
    assert clean.timers_fired_late == 0 and clean.timer_late_max_ms < LATE_TIMER_MS

    def delayed(record: CombatRecord, attempts: list[Attempt]) -> None:
        event = record.events[positions(record, kind)[0]]
        later = datetime.fromisoformat(event["occurred_at"].replace("Z", "+00:00"))
        event["occurred_at"] = (later + timedelta(seconds=6)).isoformat()

    figures = figures_of(ended, delayed)
    assert figures.timers_fired_late == 1, figures.problems
    assert figures.timer_late_max_ms >= 6000


@pytest.mark.parametrize("kind", ["turn.timed_out", "reaction.timed_out"])
def test_a_timer_fired_twice_is_counted(kind: str) -> None:
    ended, _ = played()
    assert figures_of(ended, doubled(kind)).timers_fired_twice == 1


@pytest.mark.parametrize("change", ["combat_ended", "vigor_lost", "combat_started"])
def test_aftermath_missing_is_counted(change: str) -> None:
    """umh 4.1.4 and services/states: the end, and the vigor lost at 0 VIT, are recorded."""
    ended, _ = played()

    def missing(record: CombatRecord, attempts: list[Attempt]) -> None:
        history = record.histories["bruno"]
        history[:] = [h for h in history if h["change"] != change]

    assert figures_of(ended, missing).aftermath_missing == 1


@pytest.mark.parametrize("change", ["combat_ended", "vigor_lost", "requirement"])
def test_aftermath_applied_twice_is_counted(change: str) -> None:
    ended, _ = played()

    def twice(record: CombatRecord, attempts: list[Attempt]) -> None:
        history = record.histories["bruno"]
        history += [copy.deepcopy(h) for h in history if h["change"] == change]

    assert figures_of(ended, twice).aftermath_missing == 1


def test_a_fighter_still_held_in_an_ended_combat_is_counted() -> None:
    ended, _ = played()

    def held(record: CombatRecord, attempts: list[Attempt]) -> None:
        record.statuses["ana"]["in_combat"] = record.combat_id

    assert figures_of(ended, held).aftermath_missing == 1


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("participants", "bruno", "vit"), 1),
        (("participants", "ana", "pa"), 9),
        (("participants", "bruno", "status"), "active"),
        (("phase",), "fighting"),
        (("round",), 7),
        (("result", "winner"), "defenders"),
    ],
)
def test_the_stored_state_is_compared_with_the_replay(where: tuple[str, ...], value: Any) -> None:
    ended, _ = played()

    def changed(record: CombatRecord, attempts: list[Attempt]) -> None:
        target: JSON = record.combat
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] = value

    assert figures_of(ended, changed).mismatches >= 1


def test_a_running_turn_and_its_windows_are_compared() -> None:
    _, running = played()

    def other_turn(record: CombatRecord, attempts: list[Attempt]) -> None:
        record.combat["turn"]["actor"] = "dora"
        record.combat["pending_reactions"] = [{"action_id": "a_x", "reactor": "cai"}]

    assert figures_of(running, other_turn, after_ms=1000).mismatches == 2


def test_a_hit_lost_shows_in_the_replay() -> None:
    """umh 9.1.1: without the first hit, the second starts from a VIT the replay lacks."""
    ended, _ = played()
    assert figures_of(ended, dropped("action.resolved")).mismatches >= 1


def test_a_state_behind_its_log_is_looked_at_again_before_it_counts() -> None:
    """A mismatch at the first look (turns has not yet applied a ``combatant.down`` the log
    holds, behind a backlog) makes the checker read the combat again 30 s later; only what
    is still wrong then counts."""
    ended, _ = played()

    def behind(record: CombatRecord, attempts: list[Attempt]) -> None:
        record.combat["participants"]["bruno"]["vit"] += 1

    figures = figures_of(ended, behind)
    assert figures.mismatches == 1 and overdue(figures)
    assert not overdue(figures_of(ended))
