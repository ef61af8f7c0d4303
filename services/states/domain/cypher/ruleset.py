"""services/states for cypher (seed 001): pools, damage track and rests that outlive combats.

One record per character: his pools as his last combat left them, the special-damage steps,
the rests taken today and the rest running (its wall-clock timer, RULES.md 7.1 W14). Out of
combat the player rests with ``POST /v1/characters/{id}/commands`` ``{"type": "cypher.rest"}``
(docs/API-extensions.md); each roll has a fresh seed whose commitment is published when the
rest starts and whose seed comes with the roll, so anyone can recompute it.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from services.states.domain.cypher import rests
from services.states.interface import AftermathRuleset, Context, State
from shared.dice.streams import new_seed
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, Event
from shared.payloads import CharacterStatus, Refusal, StatesCheck, StatesChecked

REST_STARTED = "rest.started"
REST_RECOVERED = "rest.recovered"
REST_INTERRUPTED = "rest.interrupted"
HISTORY_MAX = 100


Stat = Literal["might", "speed", "intellect"]


def _every_pool() -> list[Stat]:
    return ["might", "speed", "intellect"]


class RestCommand(BaseModel):
    """``cypher.rest``: the day's next rest (001 RECUPERAR)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["cypher.rest"]
    distribution: list[Stat] = Field(default_factory=_every_pool, min_length=1, max_length=3)
    special_damage: StrictBool = False


class EndRestCommand(BaseModel):
    """``cypher.end_rest``, moderator only: the running rest ends now and rolls (moderators
    end a timed state sooner, never later)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["cypher.end_rest"]
    reason: str = Field(min_length=1, max_length=300)


COMMANDS: TypeAdapter[RestCommand | EndRestCommand] = TypeAdapter(
    Annotated[RestCommand | EndRestCommand, Field(discriminator="type")]
)


def blank(character: str) -> State:
    return {
        "ruleset": "cypher",
        "character": character,
        "in_combat": None,
        "pools": None,
        "pools_max": None,
        "tier": 1,
        "special_steps": 0,
        "track": 0,
        "track_name": "unhurt",
        "day": None,
        "rests_today": 0,
        "resting": None,
        "history": [],
    }


def from_sheet(state: State, sheet: dict[str, Any] | None) -> State:
    """A PC never seen in a combat: his pools as his sheet says (``current``, else full)."""
    if state.get("pools") is not None or not sheet or sheet.get("kind", "pc") != "pc":
        return state
    maxima = sheet.get("pools")
    if not maxima:
        return state
    return {
        **state,
        "pools": dict(sheet.get("current") or maxima),
        "pools_max": dict(maxima),
        "tier": int(sheet.get("tier", 1)),
    }


def noted(state: State, at_ms: int, change: str, **fields: Any) -> None:
    state["history"] = [*state["history"], {"at_ms": at_ms, "change": change, **fields}][
        -HISTORY_MAX:
    ]


def timer_of(state: State) -> TimerRequest | None:
    resting = state.get("resting")
    if not resting or int(resting["due_ms"]) <= int(resting["started_ms"]):
        return None
    timer_id = f"cypher:rest:{state['character']}:{state['day']}:{resting['number']}"
    return TimerRequest(timer_id, int(resting["due_ms"]), "cypher_rest", {"kind": "cypher_rest"})


class CypherAftermath:
    name: str = "cypher"

    def __init__(self, day_boundary_minutes: int = 0) -> None:
        self.default_boundary = day_boundary_minutes

    def boundary_of(self, state: State | None, payload: dict[str, Any] | None = None) -> int:
        """B-9: the community's day boundary (``cypher.day_boundary_minutes``), as the last
        message that carried the settings said; else the default (00:00 server time)."""
        cypher = ((payload or {}).get("settings") or {}).get("cypher") or {}
        if "day_boundary_minutes" in cypher:
            return int(cypher["day_boundary_minutes"])
        return int((state or {}).get("day_boundary_minutes", self.default_boundary))

    def today(
        self, state: State | None, character: str, payload: dict[str, Any] | None, now_ms: int
    ) -> State:
        new = copy.deepcopy(state or blank(character))
        new["day_boundary_minutes"] = self.boundary_of(state, payload)
        return rests.on_day(new, now_ms, new["day_boundary_minutes"])

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        if event_type == COMBAT_STARTED:
            return self.entered(state, character, payload, ctx)
        if event_type == COMBAT_ENDED:
            return self.left(state, character, payload, ctx)
        return Decision(None)

    def entered(
        self, state: State | None, character: str, payload: dict[str, Any], ctx: Context
    ) -> Decision[State]:
        """combat.started: he is in combat; a rest running is interrupted (no roll, W14)."""
        new = self.today(state, character, payload, ctx.now_ms)
        new["in_combat"] = payload.get("combat_id")
        sheet = payload.get("sheets", {}).get(character, {})
        new["tier"] = int(sheet.get("tier", 1))
        events: list[Event] = []
        cancel: list[str] = []
        if new.get("resting"):
            timer = timer_of(new)
            if timer is not None:
                cancel.append(timer.timer_id)
            number = new["resting"]["number"]
            new["rests_today"] = max(0, int(new["rests_today"]) - 1)
            new["resting"] = None
            events.append(Event(REST_INTERRUPTED, {"character": character, "rest": number}))
            noted(new, ctx.now_ms, "rest_interrupted", rest=number, combat_id=new["in_combat"])
        return Decision(new, events, [], cancel)

    def left(
        self, state: State | None, character: str, payload: dict[str, Any], ctx: Context
    ) -> Decision[State]:
        """combat.ended: his pools and track as the combat left them; the rest he took in
        it counts for the day (B-10)."""
        new = self.today(state, character, payload, ctx.now_ms)
        new["in_combat"] = None
        cond = payload.get("conditions", {}).get(character)
        if cond and cond.get("kind") == "pc":
            for key in ("pools", "pools_max", "special_steps", "track", "track_name"):
                new[key] = copy.deepcopy(cond[key])
            new["rests_today"] = int(new["rests_today"]) + int(cond.get("rests_taken", 0))
        noted(new, ctx.now_ms, "combat_ended", combat_id=payload.get("combat_id"))
        return Decision(new)

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        try:
            command = COMMANDS.validate_python(payload.get("command", {}))
        except ValidationError as exc:
            raise RuleViolation(
                "invalid_request", "cypher RECUPERAR", errors=str(exc)[:500]
            ) from exc
        new = from_sheet(self.today(state, character, payload, ctx.now_ms), payload.get("sheet"))
        if isinstance(command, EndRestCommand):
            return self.end_rest(new, character, payload, command, ctx)
        new = rests.start_rest(
            new,
            ctx.now_ms,
            str(payload.get("seed") or new_seed()),
            special_damage=command.special_damage,
            distribution=list(command.distribution),
        )
        resting = new["resting"]
        started = {
            "character": character,
            "rest": resting["number"],
            "due_ms": resting["due_ms"],
            "commitment": resting["commitment"],
            "rule": rests.RULE,
        }
        noted(new, ctx.now_ms, "rest_started", rest=resting["number"], due_ms=resting["due_ms"])
        events = [Event(REST_STARTED, started)]
        timer = timer_of(new)
        if timer is None:
            return self.finish(new, character, ctx, events)
        return Decision(new, events, [timer])

    def end_rest(
        self,
        state: State,
        character: str,
        payload: dict[str, Any],
        command: EndRestCommand,
        ctx: Context,
    ) -> Decision[State]:
        if not payload.get("moderator"):
            raise RuleViolation("forbidden", None, needs="moderator")
        if not state.get("resting"):
            raise RuleViolation("no_such_state", rests.RULE, state="rest")
        timer = timer_of(state)
        noted(state, ctx.now_ms, "rest_ended_by_moderator", reason=command.reason)
        decision = self.finish(state, character, ctx, [])
        cancel = [timer.timer_id] if timer is not None else []
        return Decision(decision.state, decision.events, [], cancel)

    def finish(
        self, state: State, character: str, ctx: Context, events: list[Event]
    ) -> Decision[State]:
        resting = state["resting"]
        new, shown, rolled = rests.finish_rest(state, int(state.get("tier", 1)))
        record = rolled.as_dict() if rolled else None
        events.append(
            Event(
                REST_RECOVERED,
                {
                    "character": character,
                    "rest": resting["number"],
                    **shown,
                    "roll": record,
                    "seed": resting["seed"] if rolled else None,
                    "commitment": resting["commitment"],
                    "rule": f"{rests.RULE}, B-8",
                },
            )
        )
        noted(new, ctx.now_ms, "rest_recovered", rest=resting["number"], **shown)
        return Decision(new, events)

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        if state is None or not state.get("resting"):
            return Decision(None)
        timer = timer_of(state)
        if timer is None or timer.timer_id != timer_id:
            return Decision(None)
        return self.finish(copy.deepcopy(state), character, ctx, [])

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        room: str,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        """A combat starts from the pools (and special-damage steps) this service kept from
        the last combat and the rests since (001 RECUPERAR), and knows the rests already
        taken today (B-10), per character, in the answer's per-character counters
        (``weekly_uses``), which the gateway hands to the start. A character fights one
        combat at a time (API.md ``already_in_combat``)."""
        carried: dict[str, dict[str, int]] = {}
        refusals: list[Refusal] = []
        for character, record in states.items():
            if not record:
                continue
            busy = record.get("in_combat")
            if busy and busy != query.combat_id and busy not in ended_combats:
                refusals.append(Refusal(character=character, code="already_in_combat"))
            today = rests.on_day(record, now_ms, self.boundary_of(record))
            kept = {"rests_today": int(today.get("rests_today", 0))}
            if record.get("pools") is not None:
                kept.update({stat: int(value) for stat, value in record["pools"].items()})
                kept["special_steps"] = int(record.get("special_steps", 0))
            carried[character] = kept
        return StatesChecked(allowed=not refusals, refusals=refusals, weekly_uses=carried)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        if state is None:
            return {"status": CharacterStatus().model_dump(mode="json"), "history": []}
        today = rests.on_day(state, now_ms, self.boundary_of(state))
        resting = state.get("resting")
        cypher = {
            "pools": state.get("pools"),
            "pools_max": state.get("pools_max"),
            "track": state.get("track_name"),
            "special_steps": state.get("special_steps"),
            "rests_today": today.get("rests_today", 0),
            "rests_left": rests.RESTS_PER_DAY - int(today.get("rests_today", 0)),
            "next_rest": rests.next_rest(today),
            "resting": None
            if not resting
            else {k: resting[k] for k in ("number", "started_ms", "due_ms", "commitment")},
        }
        status = CharacterStatus(
            in_combat=state.get("in_combat"), ruleset_status={"cypher": cypher}
        )
        return {"status": status.model_dump(mode="json"), "history": state.get("history", [])}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        timer = timer_of(state)
        return [] if timer is None else [timer]


def _conforms() -> AftermathRuleset:
    return CypherAftermath()
