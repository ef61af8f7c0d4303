"""services/states for cypher (seed 001): pools, damage track and rests that outlive combats.

One record per character: his pools as his last combat left them, the special-damage steps,
the rests taken today and the rest running (its wall-clock timer, docs/rules.md 7.1 W14). Out of
combat the player rests with ``POST /v1/characters/{id}/commands`` ``{"type": "cypher.rest"}``
(docs/api.md); each roll has a fresh seed whose commitment is published when the
rest starts and whose seed comes with the roll, so anyone can recompute it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from services.states.domain.cypher import disease, rests
from services.states.domain.cypher.record import CypherRecord
from services.states.interface import AftermathRuleset, Context, State
from shared.dice.streams import new_seed
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, Event
from shared.payloads import CharacterStatus, Refusal, StatesCheck, StatesChecked
from shared.rulesets.cypher.conditions import Condition
from shared.rulesets.cypher.sheet import Pools

REST_STARTED = "rest.started"
REST_RECOVERED = "rest.recovered"
REST_INTERRUPTED = "rest.interrupted"


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


Command = RestCommand | EndRestCommand | disease.DiseaseCommand | disease.CureCommand
COMMANDS: TypeAdapter[Command] = TypeAdapter(Annotated[Command, Field(discriminator="type")])


def from_sheet(record: CypherRecord, sheet: dict[str, Any] | None) -> None:
    """A PC never seen in a combat: his pools as his sheet says (``current``, else full)."""
    if record.pools is not None or not sheet or sheet.get("kind", "pc") != "pc":
        return
    maxima = sheet.get("pools")
    if not maxima:
        return
    record.pools = Pools.model_validate(sheet.get("current") or maxima)
    record.pools_max = Pools.model_validate(maxima)
    record.tier = int(sheet.get("tier", 1))


def timer_of(record: CypherRecord) -> TimerRequest | None:
    """The running rest's wall-clock timer (W14); none for the day's first rest (seconds)."""
    resting = record.resting
    if resting is None or resting.due_ms <= resting.started_ms:
        return None
    timer_id = f"cypher:rest:{record.character}:{record.day}:{resting.number}"
    return TimerRequest(timer_id, resting.due_ms, "cypher_rest", {"kind": "cypher_rest"})


def kept_of(record: CypherRecord, now_ms: int, boundary: int) -> dict[str, int]:
    """What a combat starts from (001 RECUPERAR, B-10): the rests taken today, the pools and
    the special-damage steps."""
    today = record.model_copy()
    rests.on_day(today, now_ms, boundary)
    kept = {"rests_today": today.rests_today}
    if record.pools is not None:
        kept.update(record.pools.model_dump())
        kept["special_steps"] = record.special_steps
    return kept


def cypher_status(record: CypherRecord, now_ms: int, boundary: int) -> dict[str, Any]:
    """``ruleset_status.cypher`` of the read model."""
    today = record.model_copy()
    rests.on_day(today, now_ms, boundary)
    resting = record.resting
    dumped = record.to_dict()
    return {
        "pools": dumped["pools"],
        "pools_max": dumped["pools_max"],
        "track": dumped["track_name"],
        "special_steps": record.special_steps,
        "rests_today": today.rests_today,
        "rests_left": rests.RESTS_PER_DAY - today.rests_today,
        "next_rest": rests.next_rest(today),
        "resting": None
        if resting is None
        else resting.model_dump(include={"number", "started_ms", "due_ms", "commitment"}),
    }


class CypherAftermath:
    name: str = "cypher"

    def __init__(self, day_boundary_minutes: int = 0) -> None:
        self.default_boundary = day_boundary_minutes

    def boundary_of(
        self, record: CypherRecord | None, payload: dict[str, Any] | None = None
    ) -> int:
        """B-9: the community's day boundary (``cypher.day_boundary_minutes``), as the last
        message that carried the settings said; else the default (00:00 server time)."""
        cypher = ((payload or {}).get("settings") or {}).get("cypher") or {}
        if "day_boundary_minutes" in cypher:
            return int(cypher["day_boundary_minutes"])
        if record is None or record.day_boundary_minutes is None:
            return self.default_boundary
        return record.day_boundary_minutes

    def today(
        self, state: State | None, character: str, payload: dict[str, Any] | None, now_ms: int
    ) -> CypherRecord:
        """The record parsed (a blank one for a character never seen), on today's count."""
        record = CypherRecord.parse(state) if state else CypherRecord(character=character)
        record.day_boundary_minutes = self.boundary_of(record, payload)
        rests.on_day(record, now_ms, record.day_boundary_minutes)
        return record

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """combat.started and combat.ended of a cypher combat (001 RECUPERAR, B-10)."""
        if event_type == COMBAT_STARTED:
            return self.entered(state, character, payload, ctx)
        if event_type == COMBAT_ENDED:
            return self.left(state, character, payload, ctx)
        return Decision(None)

    def entered(
        self, state: State | None, character: str, payload: dict[str, Any], ctx: Context
    ) -> Decision[State]:
        """combat.started: he is in combat; a rest running is interrupted (no roll, W14)."""
        record = self.today(state, character, payload, ctx.now_ms)
        record.in_combat = payload.get("combat_id")
        sheet = payload.get("sheets", {}).get(character, {})
        record.tier = int(sheet.get("tier", 1))
        events: list[Event] = []
        cancel: list[str] = []
        if record.resting is not None:
            timer = timer_of(record)
            if timer is not None:
                cancel.append(timer.timer_id)
            number = record.resting.number
            record.rests_today = max(0, record.rests_today - 1)
            record.resting = None
            events.append(Event(REST_INTERRUPTED, {"character": character, "rest": number}))
            record.note(ctx.now_ms, "rest_interrupted", rest=number, combat_id=record.in_combat)
        return Decision(record.to_dict(), events, [], cancel)

    def left(
        self, state: State | None, character: str, payload: dict[str, Any], ctx: Context
    ) -> Decision[State]:
        """combat.ended: his pools and track as the combat left them; the rest he took in
        it counts for the day (B-10)."""
        record = self.today(state, character, payload, ctx.now_ms)
        record.in_combat = None
        raw = payload.get("conditions", {}).get(character)
        cond = Condition.parse(raw) if raw else None
        if cond is not None and cond.kind == "pc":
            record.pools, record.pools_max = cond.pools, cond.pools_max
            record.special_steps = cond.special_steps
            record.track, record.track_name = cond.track, cond.track_name
            record.rests_today += cond.rests_taken
        record.note(ctx.now_ms, "combat_ended", combat_id=payload.get("combat_id"))
        before = disease.timer_of(record)
        events = disease.due_rolls(record, ctx.now_ms, next_seed=new_seed())
        return self.rearmed(record, events, before)

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """``cypher.rest`` (the day's next rest, 001 RECUPERAR) or ``cypher.end_rest``."""
        try:
            command = COMMANDS.validate_python(payload.get("command", {}))
        except ValidationError as exc:
            raise RuleViolation(
                "invalid_request", "cypher RECUPERAR", errors=str(exc)[:500]
            ) from exc
        record = self.today(state, character, payload, ctx.now_ms)
        from_sheet(record, payload.get("sheet"))
        if isinstance(command, disease.DiseaseCommand | disease.CureCommand):
            return self.sickness(record, payload, command, ctx)
        if isinstance(command, EndRestCommand):
            return self.end_rest(record, character, payload, command, ctx)
        return self.rest(record, character, payload, command, ctx)

    def rest(
        self,
        record: CypherRecord,
        character: str,
        payload: dict[str, Any],
        command: RestCommand,
        ctx: Context,
    ) -> Decision[State]:
        """The day's next rest starts (B-9); its seed is committed now; the first one (a few
        seconds) rolls at once, the others when their timer fires (W14)."""
        resting = rests.start_rest(
            record,
            ctx.now_ms,
            str(payload.get("seed") or new_seed()),
            special_damage=command.special_damage,
            distribution=list(command.distribution),
        )
        started = {
            "character": character,
            "rest": resting.number,
            "due_ms": resting.due_ms,
            "commitment": resting.commitment,
            "rule": rests.RULE,
        }
        record.note(ctx.now_ms, "rest_started", rest=resting.number, due_ms=resting.due_ms)
        events = [Event(REST_STARTED, started)]
        timer = timer_of(record)
        if timer is None:
            return self.finish(record, character, ctx, events)
        return Decision(record.to_dict(), events, [timer])

    def sickness(
        self,
        record: CypherRecord,
        payload: dict[str, Any],
        command: disease.DiseaseCommand | disease.CureCommand,
        ctx: Context,
    ) -> Decision[State]:
        """``cypher.disease`` / ``cypher.cure``, moderator only (001 enfermedad)."""
        if not payload.get("moderator"):
            raise RuleViolation("forbidden", None, needs="moderator")
        before = disease.timer_of(record)
        if isinstance(command, disease.CureCommand):
            events = disease.cure(record, command)
        else:
            if record.pools is None:
                raise RuleViolation("invalid_request", disease.RULE, reason="a PC's disease")
            armor = int((payload.get("sheet") or {}).get("armor", 0))
            seed = str(payload.get("seed") or new_seed())
            events = disease.contract(record, command, armor, seed, ctx.now_ms)
        record.note(ctx.now_ms, command.type, disease=command.name)
        return self.rearmed(record, events, before)

    def rearmed(
        self, record: CypherRecord, events: list[Event], before: TimerRequest | None
    ) -> Decision[State]:
        """The state with the disease timer moved to the next day's roll."""
        after = disease.timer_of(record)
        arm = [after] if after is not None and after != before else []
        cancel = [before.timer_id] if before is not None and before != after else []
        return Decision(record.to_dict(), events, arm, cancel)

    def end_rest(
        self,
        record: CypherRecord,
        character: str,
        payload: dict[str, Any],
        command: EndRestCommand,
        ctx: Context,
    ) -> Decision[State]:
        """A moderator ends the running rest now: it rolls (moderators end a timed state
        sooner, never later)."""
        if not payload.get("moderator"):
            raise RuleViolation("forbidden", None, needs="moderator")
        if record.resting is None:
            raise RuleViolation("no_such_state", rests.RULE, state="rest")
        timer = timer_of(record)
        record.note(ctx.now_ms, "rest_ended_by_moderator", reason=command.reason)
        decision = self.finish(record, character, ctx, [])
        cancel = [timer.timer_id] if timer is not None else []
        return Decision(decision.state, decision.events, [], cancel)

    def finish(
        self, record: CypherRecord, character: str, ctx: Context, events: list[Event]
    ) -> Decision[State]:
        """The rest's roll (B-8): ``rest.recovered`` with its seed, so anyone can replay it."""
        resting = record.resting
        assert resting is not None
        shown, rolled = rests.finish_rest(record, record.tier)
        events.append(
            Event(
                REST_RECOVERED,
                {
                    "character": character,
                    "rest": resting.number,
                    **shown,
                    "roll": rolled.as_dict() if rolled else None,
                    "seed": resting.seed if rolled else None,
                    "commitment": resting.commitment,
                    "rule": f"{rests.RULE}, B-8",
                },
            )
        )
        record.note(ctx.now_ms, "rest_recovered", rest=resting.number, **shown)
        return Decision(record.to_dict(), events)

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        """W14: the running rest is over: its roll (a stale timer: nothing); or a disease's
        day has come: its rolls."""
        record = CypherRecord.parse(state) if state else None
        if record is None:
            return Decision(None)
        sick = disease.timer_of(record)
        if sick is not None and sick.timer_id == timer_id:
            events = disease.due_rolls(record, ctx.now_ms, next_seed=new_seed())
            return self.rearmed(record, events, sick)
        if record.resting is None:
            return Decision(None)
        timer = timer_of(record)
        if timer is None or timer.timer_id != timer_id:
            return Decision(None)
        return self.finish(record, character, ctx, [])

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
        combat at a time (docs/api.md ``already_in_combat``)."""
        carried: dict[str, dict[str, int]] = {}
        refusals: list[Refusal] = []
        for character, state in states.items():
            if not state:
                continue
            record = CypherRecord.parse(state)
            busy = record.in_combat
            if busy and busy != query.combat_id and busy not in ended_combats:
                refusals.append(Refusal(character=character, code="already_in_combat"))
            carried[character] = kept_of(record, now_ms, self.boundary_of(record))
        return StatesChecked(allowed=not refusals, refusals=refusals, weekly_uses=carried)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        if state is None:
            return {"status": CharacterStatus().model_dump(mode="json"), "history": []}
        record = CypherRecord.parse(state)
        cypher = cypher_status(record, now_ms, self.boundary_of(record))
        status = CharacterStatus(in_combat=record.in_combat, ruleset_status={"cypher": cypher})
        history = [line.model_dump(mode="json") for line in record.history]
        return {"status": status.model_dump(mode="json"), "history": history}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        record = CypherRecord.parse(state)
        return [t for t in (timer_of(record), disease.timer_of(record)) if t is not None]


def _conforms() -> AftermathRuleset:
    return CypherAftermath()
