"""One combat played by random players, from its start to its end, checked at every step.

The loop reads the combat, checks its invariants, and either sends one to four moves at
once (legal and illegal, chosen by the ruleset's player with the combat's own seeded
generator) or waits for the combat to move by itself (its timers). It fails (a finding) on
a combat that stops moving before its end: its turn does not progress (see
:func:`progress_key`) for well past its longest timer. A combat past its cap of rounds or
time is annulled by the moderator and must then end; then what services/states keeps is
checked.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from tests.randomplay.client import JSON, Api, Reply
from tests.randomplay.common import LASTING, LASTING_SECONDS
from tests.randomplay.findings import Findings
from tests.randomplay.logcheck import brief, check_log
from tests.randomplay.moves import Move, RulesetPlayer, Table, pick, preconditions

POLL_SECONDS = 0.15


@dataclass(frozen=True)
class Limits:
    """How long a combat may run before the moderator annuls it, and when it counts as
    stalled (``stall_margin`` seconds past its longest timer)."""

    max_rounds: int = 6
    max_seconds: float = 40.0
    stall_margin: float = 10.0
    end_within: float = 15.0


def longest_timer(settings: JSON) -> float:
    timers = settings.get("timers", {})
    return float(max((v for v in timers.values() if isinstance(v, int | float)), default=5))


class Game:
    """One combat: its table, its player, the last view and when it last moved."""

    def __init__(
        self, api: Api, player: RulesetPlayer, table: Table, settings: JSON, limits: Limits
    ) -> None:
        self.api, self.player, self.table, self.limits = api, player, table, limits
        self.findings: Findings = api.findings
        self.where = table.where
        self.stall_after = longest_timer(settings) + limits.stall_margin
        self.combat_id = ""
        self.view: JSON = {}
        self.version = -1
        self.progress = ""
        self.lasting: dict[str, float] = {}
        self.reported: set[str] = set()
        self.moved_at = time.monotonic()
        self.annulled_at: float | None = None

    # --- reading ------------------------------------------------------------------------------
    async def read(self) -> JSON | None:
        if self.table.rng.random() < 0.03:  # what players see must never fail either
            await self.api.combat(self.table.key, f"{self.combat_id}?view=player", self.where)
        reply = await self.api.combat(self.table.key, self.combat_id, self.where)
        if reply.status != 200:
            return None
        view: JSON = reply.body
        self.observe(view)
        return view

    def observe(self, view: JSON) -> None:
        """A newer view: its progress and its invariants (each problem reported once)."""
        version = int(view.get("version", 0))
        if version < self.version:
            return  # an older answer that arrived late
        self.version = version
        progress = progress_key(view)
        if progress != self.progress:
            self.progress, self.moved_at = progress, time.monotonic()
        self.view = view
        now = time.monotonic()
        seen = self.lasting
        self.lasting = {}
        for problem in self.player.violations(self.table, view):
            if problem.startswith(LASTING):
                self.lasting[problem] = first = seen.get(problem, now)
                if now - first < LASTING_SECONDS:
                    continue
            if problem not in self.reported:
                self.reported.add(problem)
                self.findings.add("impossible-state", self.where, problem, self.compact(view))

    def compact(self, view: JSON) -> JSON:
        keep = ("phase", "round", "version", "turn", "pending_reactions", "result")
        return {k: view.get(k) for k in keep} | {"participants": view.get("participants")}

    async def stalled(self) -> bool:
        """The turn has not moved for ``stall_after`` seconds (see :func:`progress_key`)."""
        if time.monotonic() - self.moved_at < self.stall_after:
            return False
        events = await self.api.log(self.table.key, self.combat_id, self.where)
        self.findings.add(
            "stalled",
            self.where,
            f"no progress for {self.stall_after:.0f} s; last events "
            f"{[brief(e) for e in events[-10:]]}",
            self.compact(self.view),
        )
        return True

    # --- acting -------------------------------------------------------------------------------
    async def send(self, move: Move) -> Reply | None:
        table = self.table
        forbidden = self.player.forbidden(self.view, move) if move.kind == "act" else None
        key = table.frontend_key if move.frontend else table.key
        if move.kind == "idle":
            await self.idle()
            return None
        if move.kind == "start":
            await self.second_start(move)
            return None
        if move.kind == "command":
            assert move.character is not None
            reply = await self.api.command(key, move.character, move.body, self.where)
        elif move.kind == "raw":
            reply = await self.api.act(key, self.combat_id, None, self.where, raw=move.raw)
        else:
            move, headers = preconditions(table.rng, move, self.version)
            reply = await self.api.act(key, self.combat_id, move.body, self.where, headers=headers)
            if "Idempotency-Key" in headers:
                await self.replayed(move, key, headers, reply)
        reply = await self.settled(reply, key)
        self.findings.count(
            f"{self.table.ruleset} {move.label()} {reply.status} {reply.code or ''}"
        )
        self.findings.trace(self.where, f"{move.describe()[:200]} -> {reply.status} {reply.code}")
        if reply.ok and move.illegal:
            self.findings.add(
                "accepted-illegal", self.where, f"answered {reply.status}", move.describe()
            )
        if reply.ok and forbidden is not None:
            self.findings.add("fallen-acted", self.where, forbidden, move.describe())
        if reply.ok and isinstance(reply.body, dict) and isinstance(reply.body.get("combat"), dict):
            self.observe(reply.body["combat"])
        return reply

    async def second_start(self, move: Move) -> None:
        """A fighter of this combat is challenged into another one: refused while this one
        runs (``already_in_combat``); one that slipped through is annulled again."""
        reply = await self.api.start(self.table.key, move.body, self.where)
        self.findings.count(f"{self.table.ruleset} second start {reply.status} {reply.code or ''}")
        self.findings.trace(self.where, f"start {move.body} -> {reply.status} {reply.code}")
        if reply.status != 201:
            return
        now = await self.read()
        if now is not None and now.get("phase") != "ended":
            self.findings.add(
                "accepted-illegal", self.where, "a fighter started a second combat", move.body
            )
        other = str(reply.body["id"])
        body = {"type": "annul", "actor": move.body["attacker"], "reason": "random play"}
        await self.api.act(self.table.key, other, body, self.where)

    async def replayed(self, move: Move, key: str, headers: dict[str, str], first: Reply) -> None:
        """The same request with the same ``Idempotency-Key`` gets the first answer again."""
        again = await self.api.act(key, self.combat_id, move.body, self.where, headers=headers)
        same = again.status == first.status and (
            not first.ok or again.body.get("action_id") == first.body.get("action_id")
        )
        if {first.status, again.status} & {202, 409}:
            same = True  # the first one may still be in flight (request_in_progress)
        if not same or (again.ok and again.headers.get("idempotent-replayed") != "true"):
            what = f"first {first.status} {first.code}, replay {again.status} {again.code}"
            self.findings.add("idempotency", self.where, what, move.describe())

    async def settled(self, reply: Reply, key: str) -> Reply:
        """A 202 followed to its outcome (``Location``); rejected answers come back as 422."""
        location = reply.headers.get("location")
        if reply.status != 202 or not location:
            return reply
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            status = await self.api.action_status(key, location, self.where)
            state = status.body.get("status") if isinstance(status.body, dict) else None
            if state == "completed":
                return Reply(200, status.body)
            if state == "rejected":
                return Reply(422, {"error": status.body.get("error")})
            if status.status != 200 and status.status != 404:
                return status
            await asyncio.sleep(POLL_SECONDS)
        return Reply(202, reply.body)

    async def idle(self) -> None:
        """Wait for the combat to move by itself (a timer), up to a random while."""
        until = time.monotonic() + self.table.rng.uniform(0.3, self.stall_after - 5)
        start = self.version
        while time.monotonic() < until and self.version == start:
            await asyncio.sleep(POLL_SECONDS)
            if await self.read() is None:
                return

    async def annul(self, reason: str) -> None:
        """The moderator annuls the combat (retried on the next loop if refused)."""
        actor = next(iter(self.view.get("participants", {}) or self.table.roster))
        body = {"type": "annul", "actor": actor, "reason": reason}
        reply = await self.api.act(self.table.key, self.combat_id, body, self.where)
        reply = await self.settled(reply, self.table.key)
        self.findings.trace(self.where, f"annul ({reason}) -> {reply.status} {reply.code}")
        if reply.ok or reply.code == "combat_ended":
            self.annulled_at = time.monotonic()
        else:
            self.findings.count(f"{self.table.ruleset} annul refused {reply.status} {reply.code}")

    # --- the loop -------------------------------------------------------------------------------
    async def play(self, deadline: float) -> None:
        table = self.table
        start_body = await self.player.setup(table)
        started = await self.api.start(table.key, start_body, self.where)
        self.findings.trace(self.where, f"start {start_body} -> {started.status} {started.code}")
        if started.status != 201:
            self.findings.count(f"{table.ruleset} start refused {started.code}")
            return
        self.combat_id = str(started.body["id"])
        self.where = table.where = f"{table.where} {self.combat_id}"
        self.observe(started.body)
        began = time.monotonic()
        while True:
            view = await self.read()
            if view is not None and view.get("phase") == "ended":
                break
            now = time.monotonic()
            if now - began > self.limits.max_seconds + self.limits.end_within + self.stall_after:
                self.findings.add("not-ended", self.where, "never ended", self.compact(self.view))
                return
            if view is None:
                await asyncio.sleep(POLL_SECONDS)
                continue
            capped = (
                int(view.get("round") or 0) > self.limits.max_rounds
                or now - began > self.limits.max_seconds
                or now > deadline
            )
            if await self.stalled():
                capped, self.moved_at = True, time.monotonic()
            if self.annulled_at is None and capped:
                await self.annul("random play: cap reached")
            elif self.annulled_at is not None and now - self.annulled_at > self.limits.end_within:
                self.findings.add("not-ended", self.where, "annulled but not ended", None)
                return
            else:
                await self.step(view)
        self.findings.count(f"{table.ruleset} ended {view.get('result', {}).get('reason')}")
        events = await self.api.log(table.key, self.combat_id, self.where)
        for problem in check_log(events):
            self.findings.add("log", self.where, problem, None)
        await self.aftermath(view)

    async def aftermath(self, view: JSON) -> None:
        """Once it ended, services/states lets every fighter go (``in_combat`` null) and keeps
        what the ruleset carries over to the next combat (cypher pools, l5r Void)."""
        waiting = dict.fromkeys(view.get("participants", {}), "not read")
        deadline = time.monotonic() + self.limits.end_within
        while waiting and time.monotonic() < deadline:
            for character in list(waiting):
                reply = await self.api.status(self.table.key, character, self.where)
                if reply.status != 200:
                    waiting[character] = f"status answered {reply.status}"
                    continue
                busy = reply.body.get("in_combat")
                problem = self.player.carried_over(view, character, reply.body)
                if busy is None and problem is None:
                    del waiting[character]
                else:
                    waiting[character] = problem or f"still in_combat {busy}"
            if waiting:
                await asyncio.sleep(0.3)
        for character, problem in waiting.items():
            self.findings.add("aftermath", self.where, f"{character}: {problem}", None)

    async def step(self, view: JSON) -> None:
        """One to three moves at once, or a wait for the combat to move by itself."""
        rng = self.table.rng
        moves = self.player.moves(self.table, view)
        if not moves:
            await self.idle()
            return
        count = 1 if rng.random() < 0.7 else rng.choice((2, 3, 4))
        chosen = [pick(rng, moves) for _ in range(count)]
        if any(m.kind == "idle" for m in chosen):
            chosen = [next(m for m in chosen if m.kind == "idle")]
        await asyncio.gather(*(self.send(m) for m in chosen))


def progress_key(view: JSON) -> str:
    """What must change within a turn or defense timer while a combat is not over: its
    phase, round and turn (actor, index, deadline: a paused clock has none), the open defense
    windows, the interference turn, the joins waiting for vetoes, the action being resolved.
    Actions that succeed without moving the combat on (pacts offered, disconnections) do not
    count: a combat paused for good while players still act is stalled."""
    turn = view.get("turn") or {}
    windows = sorted(
        (str(w.get("action_id")), str(w.get("reactor")), str(w.get("hit")))
        for w in view.get("pending_reactions") or []
    )
    joins = sorted(str(j.get("joiner")) for j in view.get("pending_joins") or [])
    return json.dumps(
        [
            view.get("phase"),
            view.get("round"),
            turn.get("index"),
            turn.get("actor"),
            turn.get("deadline"),
            turn.get("pending_action"),
            windows,
            view.get("interference"),
            joins,
            view.get("pending_attack"),
        ],
        default=str,
    )
