"""Read-only queries (``states.check``): load the aggregates named, answer, commit nothing."""

from __future__ import annotations

from shared.errors import RuleViolation
from shared.keys import Keys
from shared.messages import QUERY_ANSWERS, Envelope
from shared.metrics import MESSAGES
from shared.runtime.outgoing import Outgoing
from shared.runtime.ports import Clock, Store
from shared.runtime.spec import Query, QueryContext, ServiceSpec


class QueryAnswering:
    def __init__(
        self, spec: ServiceSpec, store: Store, keys: Keys, outgoing: Outgoing, clock: Clock
    ) -> None:
        self._spec = spec
        self._store = store
        self._outgoing = outgoing
        self._clock = clock
        self._context = QueryContext(keys, store.read_view)

    async def answer(self, env: Envelope, query: Query) -> None:
        """Answer the asker (a rule violation answers ``command.rejected``)."""
        targets = self._spec.targets(env)
        loaded = [await self._store.load(t.agg) for t in targets]
        states = {t.subject: item.data for t, item in zip(targets, loaded, strict=True)}
        try:
            payload = await query(env, states, self._context, self._clock.now_ms())
        except RuleViolation as violation:
            await self._outgoing.reject(env, violation.as_payload())
            return
        MESSAGES.labels(self._spec.name, env.type, "answered").inc()
        if env.reply_to:
            answer = self._outgoing.follow_up(env, QUERY_ANSWERS[env.type], payload, "answer")
            await self._outgoing.reply(env.reply_to, answer)
