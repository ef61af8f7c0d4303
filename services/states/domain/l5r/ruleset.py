"""services/states for l5r (seed 004): the Void pool between combats (T004-03, docs/rules.md 7.1
W15: +1 per day up to the Void ring) and Alentar's per-day count (C-5); the character's
status shows them in ``ruleset_status.l5r``; a combat starts with them (``states.check``
answers them per character, and the gateway hands them to the combat's start)."""

from __future__ import annotations

from typing import Any

from services.states.domain.l5r.record import Alentar, L5rRecord
from services.states.domain.l5r.void import DAY_MS, alentar_today, day_of, next_regain_ms, void_now
from services.states.interface import AftermathRuleset, Context, State
from shared.domain import Decision, TimerRequest, rfc3339
from shared.errors import RuleViolation
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, Event
from shared.payloads import CharacterStatus, Refusal, StatesCheck, StatesChecked

TIMER = "l5r_void_regain"


def record_of(state: State | None, character: str) -> L5rRecord:
    """The record parsed; a new one for a character never seen."""
    return L5rRecord.parse(state) if state else L5rRecord(character=character)


def entered(record: L5rRecord, payload: dict[str, Any], character: str, now: int) -> None:
    """combat.started: in combat; the pool as it is now (the sheet's, else full, the first
    time), never above the Void ring of the sheet he fights with."""
    sheet = (payload.get("sheets") or {}).get(character) or {}
    void_max = int((sheet.get("rings") or {}).get("void", record.void_max or 1))
    if record.void_points is None:
        start = sheet.get("void_points")
        record.void_points = void_max if start is None else int(start)
    else:
        record.void_points = void_now(record, now)
    record.void_at_ms = now
    record.void_max = void_max
    record.void_points = min(record.void_points, void_max)
    record.in_combat = payload.get("combat_id")


def left(record: L5rRecord, mine: dict[str, Any], now: int) -> None:
    """combat.ended: the pool and Alentar's count as the combat left them (T004-03, C-5)."""
    record.void_max = int(mine["void_max"])
    record.void_points, record.void_at_ms = int(mine["void_points"]), now
    record.alentar = Alentar(day=day_of(now), received=int(mine["alentar_received"]))


class L5rAftermath:
    name: str = "l5r"

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """combat.started and combat.ended of an l5r combat (T004-03, C-5)."""
        now = ctx.now_ms
        if event_type == COMBAT_STARTED:
            record = record_of(state, character)
            entered(record, payload, character, now)
            started = record.to_dict()
            return Decision(started, [], self.armed_timers(started))  # W15: its clock moved
        if event_type == COMBAT_ENDED:
            return self.ended(state, character, payload, now)
        return Decision(None)

    def ended(
        self, state: State | None, character: str, payload: dict[str, Any], now: int
    ) -> Decision[State]:
        """combat.ended: out of combat; the pool left, its regain timer (W15)."""
        record = record_of(state, character)
        record.in_combat = None
        mine = (payload.get("l5r") or {}).get(character)
        if not mine:
            return Decision(record.to_dict())
        left(record, mine, now)
        change = {
            "character": character,
            "change": "void_points",
            "void_points": record.void_points,
            "void_max": record.void_max,
            "regains_at": rfc3339(next_regain_ms(record, now)),
            "combat_id": payload.get("combat_id"),
            "rule": "l5r Vacío (recovery)",
            "reason": "combat_ended",
        }
        record.note({"at": rfc3339(now), **change})
        timers = self.armed_timers(record.to_dict())
        return Decision(record.to_dict(), [Event("aftermath.applied", change)], timers)

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """l5r has no character commands (docs/rules.md section 4)."""
        raise RuleViolation("not_implemented", "l5r", ruleset=self.name)

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        """W15: a day passed: one Void point back (T004-03)."""
        record = L5rRecord.parse(state) if state else None
        if record is None or not record.has_pool:
            return Decision(None)
        now = ctx.now_ms
        points = void_now(record, now)
        if points == record.void_points:
            return Decision(None, [], self.armed_timers(record.to_dict()))
        record.void_points, record.void_at_ms = points, now
        change = {
            "character": character,
            "void_points": points,
            "void_max": record.void_max,
            "rule": "l5r Vacío (recovery)",
            "reason": "elapsed",
        }
        record.note({"at": rfc3339(now), "change": "void_regained", **change})
        stored = record.to_dict()
        return Decision(stored, [Event("void.regained", change)], self.armed_timers(stored))

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        room: str,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        """Not in another combat; each one's Void now and Alentar today, for the start."""
        refusals: list[Refusal] = []
        counters: dict[str, dict[str, int]] = {}
        for character in query.characters:
            state = states.get(character)
            if not state or state.get("ruleset") != "l5r":
                continue
            record = L5rRecord.parse(state)
            busy = record.in_combat
            if busy and busy != query.combat_id and busy not in ended_combats:
                refusals.append(
                    Refusal(character=character, code="already_in_combat", rule="l5r Paso 1")
                )
            if record.has_pool:
                counters[character] = {
                    "void_points": void_now(record, now_ms),
                    "alentar_received": alentar_today(record, now_ms),
                }
        return StatesChecked(allowed=not refusals, refusals=refusals, weekly_uses=counters)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        """``ruleset_status.l5r``: the pool now, the ring, the next point back, Alentar."""
        record = L5rRecord.parse(state) if state else L5rRecord()
        body = CharacterStatus(in_combat=record.in_combat).model_dump(mode="json")
        if record.has_pool:
            body["ruleset_status"] = {
                "l5r": {
                    "void_points": void_now(record, now_ms),
                    "void_max": record.void_max,
                    "void_regains_at": rfc3339(next_regain_ms(record, now_ms)),
                    "alentar_received_today": alentar_today(record, now_ms),
                }
            }
        history = [line.model_dump(mode="json") for line in record.history]
        return {"status": body, "history": history}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        """W15: a pool below the ring gets its point back a day after its last change."""
        record = L5rRecord.parse(state)
        if not record.has_pool:
            return []
        assert record.void_points is not None and record.void_max is not None
        if record.void_points >= record.void_max:
            return []
        due = (record.void_at_ms or 0) + DAY_MS
        subject = record.character if "character" in state else None
        return [TimerRequest(f"{TIMER}:{subject}:{due}", due, TIMER, {"subject": subject})]


def _conforms() -> AftermathRuleset:
    return L5rAftermath()
