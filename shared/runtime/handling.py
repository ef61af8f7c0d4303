"""Message handling: for each aggregate a message concerns, load, decide, commit, flush.

Per aggregate (docs/DESIGN.md "One command, end to end"): skip it if the message was
already processed there, load the state (within one delivered batch, the state the batch's
previous event left: shared/batch_memo.py), run the pure handler, and commit state + processed
record + outbox (+ audit log + read model) in one script; on a version conflict reload and
retry; then carry out what the commit wrote (from memory when the commit claimed its
entries, else by flushing the outbox; nothing when it wrote none). A rule violation commits
nothing and answers ``command.rejected``. The bus adapter acks the message only after all that.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from shared.batch_memo import batch_memo
from shared.errors import RuleViolation
from shared.logging import bind_message, get_logger, unbind_message
from shared.messages import Envelope
from shared.metrics import CONFLICTS, HANDLE_SECONDS, MESSAGES
from shared.outbox import OutboxClaim
from shared.outbox_entry import OutboxEntry
from shared.runtime.commits import CommitBuilder, if_match_of, version_mismatch
from shared.runtime.outgoing import Outgoing
from shared.runtime.ports import Clock, Relay, Store
from shared.runtime.queries import QueryAnswering
from shared.runtime.spec import Handler, ServiceSpec, Target
from shared.store import CommitStatus, Loaded

log = get_logger(__name__)

MAX_ATTEMPTS = 10


class MessageHandling:
    def __init__(
        self,
        spec: ServiceSpec,
        *,
        store: Store,
        relay: Relay,
        commits: CommitBuilder,
        queries: QueryAnswering,
        outgoing: Outgoing,
        clock: Clock,
    ) -> None:
        self._spec = spec
        self._store = store
        self._relay = relay
        self._commits = commits
        self._queries = queries
        self._outgoing = outgoing
        self._clock = clock
        self.processed = 0

    async def handle(self, env: Envelope) -> None:
        if env.type in self._spec.queries:
            await self._queries.answer(env, self._spec.queries[env.type])
            return
        await self._handle(env, None)

    async def apply_fired(self, env: Envelope, preloaded: Mapping[str, Loaded | None]) -> bool:
        """A fired timer applied at once (shared/runtime/firing.py), with its aggregates'
        states loaded before it fell due (by tag; ``None``: processed there already). False
        when messages are queued for one of its aggregates: it joined them, and must go
        through the partition."""
        return await self._handle(env, preloaded)

    async def _handle(self, env: Envelope, preloaded: Mapping[str, Loaded | None] | None) -> bool:
        handler = self._spec.handlers.get(env.type)
        if handler is None:
            log.warning("message_type_ignored", type=env.type)
            return True
        bind_message(env)
        started = time.perf_counter()
        try:
            for target in self._spec.targets(env):
                outcome = await self._handle_target(env, target, handler, preloaded)
                MESSAGES.labels(self._spec.name, env.type, outcome).inc()
                if outcome == "queued":
                    return False
            self.processed += 1
            return True
        finally:
            HANDLE_SECONDS.labels(self._spec.name, env.type).observe(time.perf_counter() - started)
            unbind_message()

    async def _handle_target(
        self,
        env: Envelope,
        target: Target,
        handler: Handler,
        preloaded: Mapping[str, Loaded | None] | None,
    ) -> str:
        """Handle one aggregate; the outcome for the metrics."""
        outcome = await self._decide_and_commit(env, target, handler, preloaded)
        if outcome in ("rejected", "unchanged") and self._spec.timer_lane:
            # No commit removed the message from those queued for the aggregate.
            await self._store.settle(target.agg, env.message_id)
        return outcome

    async def _decide_and_commit(
        self,
        env: Envelope,
        target: Target,
        handler: Handler,
        preloaded: Mapping[str, Loaded | None] | None,
    ) -> str:
        agg = target.agg
        first = preloaded is not None and agg.tag in preloaded
        # Within one delivered batch, the state the previous event left (shared/batch_memo.py).
        memo = batch_memo()
        for _ in range(MAX_ATTEMPTS):
            if first:
                assert preloaded is not None
                loaded, first = preloaded[agg.tag], False
            elif memo is not None and agg.tag in memo:
                loaded = memo.pop(agg.tag)
            else:
                loaded = await self._store.load_unless_processed(agg, env.message_id)
            if loaded is None:
                log.info("message_already_processed", subject=target.subject)
                return "duplicate"
            if_match = if_match_of(env)
            if if_match is not None and loaded.aggregate_version != if_match:
                # docs/DESIGN.md step 3: the precondition before the rules, so that the loser
                # of a race gets 409, not the rule code the winner's change now triggers.
                await self._outgoing.reject(
                    env, version_mismatch(if_match, loaded.aggregate_version)
                )
                return "rejected"
            now = self._clock.now_ms()
            try:
                decision = handler(env, loaded.data, target, now)
            except RuleViolation as violation:
                log.info("command_rejected", code=violation.code, rule=violation.rule)
                await self._outgoing.reject(env, violation.as_payload())
                return "rejected"
            if decision.state is None:
                if memo is not None:
                    memo[agg.tag] = loaded
                return "unchanged"
            occurred = self._clock.utcnow()
            commit = self._commits.build(
                env, target, loaded.version, decision, now, occurred, unless_queued=bool(preloaded)
            )
            active = self._spec.is_active(decision.state)
            result = await self._store.commit(agg, commit, active=active)
            if result.status is CommitStatus.QUEUED:
                return "queued"
            if result.status is CommitStatus.CONFLICT:
                log.info("commit_conflict_retried", subject=target.subject)
                CONFLICTS.labels(self._spec.name).inc()
                continue
            if result.status is CommitStatus.DUPLICATE:
                return "duplicate"
            if result.status is CommitStatus.PRECONDITION:
                payload = version_mismatch(commit.if_match, result.aggregate_version)
                await self._outgoing.reject(env, payload)
                return "rejected"
            if memo is not None:
                memo[agg.tag] = Loaded(
                    result.state_version, decision.state, result.aggregate_version
                )
            if result.claim is not None:
                await self._carry(target, result.claim, commit.outbox)
            elif commit.outbox:
                await self._flush(target)
            return "committed"
        raise RuntimeError(f"gave up after {MAX_ATTEMPTS} version conflicts on {agg.tag}")

    async def _carry(self, target: Target, claim: OutboxClaim, batch: list[OutboxEntry]) -> None:
        try:
            await self._relay.carry_claimed(claim, batch)
        except Exception:
            # Committed is committed: the sweeper carries the entries out later.
            log.warning("outbox_flush_deferred", subject=target.subject, exc_info=True)

    async def _flush(self, target: Target) -> None:
        try:
            await self._relay.flush(target.agg.outbox)
        except Exception:
            # Committed is committed: the sweeper carries the entries out later.
            log.warning("outbox_flush_deferred", subject=target.subject, exc_info=True)
