"""services/states for l5r (seed 004): the Void pool between combats (T004-03, RULES.md 7.1
W15: +1 per day up to the Void ring) and Alentar's per-day count (C-5); the character's
status shows them in ``ruleset_status.l5r``; a combat starts with them (``states.check``
answers them per character, and the gateway hands them to the combat's start)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from services.states.domain.l5r.void import DAY_MS, alentar_today, day_of, next_regain_ms, void_now
from services.states.interface import AftermathRuleset, Context, State
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, Event
from shared.payloads import CharacterStatus, Refusal, StatesCheck, StatesChecked

TIMER = "l5r_void_regain"


def _rfc(ms: int | None) -> str | None:
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _record(state: State | None, character: str) -> dict[str, Any]:
    return dict(state) if state else {"ruleset": "l5r", "character": character, "history": []}


def _note(record: dict[str, Any], entry: dict[str, Any]) -> None:
    record["history"] = [*record.get("history", []), entry][-100:]


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
        now = ctx.now_ms
        if event_type == COMBAT_STARTED:
            sheet = (payload.get("sheets") or {}).get(character) or {}
            record = _record(state, character)
            void_max = int((sheet.get("rings") or {}).get("void", record.get("void_max", 1)))
            if "void_points" not in record:
                start = sheet.get("void_points")
                record["void_points"] = void_max if start is None else int(start)
                record["void_at_ms"] = now
            else:
                record["void_points"], record["void_at_ms"] = void_now(record, now), now
            record["void_max"] = void_max
            record["void_points"] = min(int(record["void_points"]), void_max)
            record["in_combat"] = payload.get("combat_id")
            return Decision(record, [], self.armed_timers(record))  # W15: its clock moved
        if event_type == COMBAT_ENDED:
            mine = (payload.get("l5r") or {}).get(character)
            record = _record(state, character)
            record["in_combat"] = None
            if not mine:
                return Decision(record)
            record["void_max"] = int(mine["void_max"])
            record["void_points"], record["void_at_ms"] = int(mine["void_points"]), now
            record["alentar"] = {"day": day_of(now), "received": int(mine["alentar_received"])}
            change = {
                "character": character,
                "change": "void_points",
                "void_points": record["void_points"],
                "void_max": record["void_max"],
                "regains_at": _rfc(next_regain_ms(record, now)),
                "combat_id": payload.get("combat_id"),
                "rule": "l5r Vacío (recovery)",
                "reason": "combat_ended",
            }
            _note(record, {"at": _rfc(now), **change})
            timers = self.armed_timers(record)
            return Decision(record, [Event("aftermath.applied", change)], timers)
        return Decision(None)

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        raise RuleViolation("not_implemented", "l5r (RULES.md section 4)", ruleset=self.name)

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        """W15: a day passed: one Void point back (T004-03)."""
        if not state or "void_points" not in state:
            return Decision(None)
        record = dict(state)
        now = ctx.now_ms
        points = void_now(record, now)
        if points == int(record["void_points"]):
            return Decision(None, [], self.armed_timers(record))
        record["void_points"], record["void_at_ms"] = points, now
        change = {
            "character": character,
            "void_points": points,
            "void_max": record["void_max"],
            "rule": "l5r Vacío (recovery)",
            "reason": "elapsed",
        }
        _note(record, {"at": _rfc(now), "change": "void_regained", **change})
        return Decision(record, [Event("void.regained", change)], self.armed_timers(record))

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
            record = states.get(character)
            if not record or record.get("ruleset") != "l5r":
                continue
            busy = record.get("in_combat")
            if busy and busy != query.combat_id and busy not in ended_combats:
                refusals.append(
                    Refusal(character=character, code="already_in_combat", rule="l5r Paso 1")
                )
            if "void_points" in record:
                counters[character] = {
                    "void_points": void_now(record, now_ms),
                    "alentar_received": alentar_today(record, now_ms),
                }
        return StatesChecked(allowed=not refusals, refusals=refusals, weekly_uses=counters)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        record = state or {}
        status = CharacterStatus(in_combat=record.get("in_combat"))
        body = status.model_dump(mode="json")
        if "void_points" in record:
            body["ruleset_status"] = {
                "l5r": {
                    "void_points": void_now(record, now_ms),
                    "void_max": record["void_max"],
                    "void_regains_at": _rfc(next_regain_ms(record, now_ms)),
                    "alentar_received_today": alentar_today(record, now_ms),
                }
            }
        return {"status": body, "history": list(record.get("history", []))}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        if "void_points" not in state:
            return []
        at = int(state.get("void_at_ms") or 0)
        if int(state["void_points"]) >= int(state["void_max"]):
            return []
        due = at + DAY_MS
        return [
            TimerRequest(
                f"{TIMER}:{state.get('character')}:{due}",
                due,
                TIMER,
                {"subject": state.get("character")},
            )
        ]


def _conforms() -> AftermathRuleset:
    return L5rAftermath()
