"""From a handler's decision to the commit that writes it: state, outbox, log, read model.

The outbox of one commit, in order: timer cancels, timer arms, then one message per
destination: the commit's public events to the events exchange, the events each service
consumes to that service's command exchange (routed by room), and last, when the commit
ends the request's chain, one reply to the waiting gateway carrying its public events (a
commit that hands the chain over to another service sends none). A destination that gets
one event gets it alone; several go as one ``events.batch`` (a JSON array, in order), which
the consumer handles event by event. Every message id is derived from the incoming message,
the subject and the event's index (a batch's from the destination), so a retried commit
cannot mint new messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from shared.domain import Decision
from shared.keys import Names
from shared.messages import (
    CHAIN_EVENTS,
    CMD_COMBAT_ACT,
    EVENTS_BATCH,
    INTERNAL_EVENTS,
    REPLY_BATCH,
    Envelope,
    derived_id,
    envelope,
    subscribers_of,
)
from shared.outbox_entry import ArmTimer, CancelTimer, OutboxEntry, Publish
from shared.runtime.firing import timer_payload
from shared.runtime.spec import ServiceSpec, State, Target
from shared.store import Commit


@dataclass(frozen=True)
class CommitBuilder:
    spec: ServiceSpec
    names: Names
    retention_seconds: int
    batches: bool = True  # False: one message per event and destination (REFEREE_EVENT_BATCHES)

    def build(
        self,
        env: Envelope,
        target: Target,
        version: int,
        decision: Decision[State],
        now: int,
        occurred: datetime,
        *,
        unless_queued: bool = False,
    ) -> Commit:
        """The commit of ``decision`` (whose state is not ``None``) on ``target``;
        ``unless_queued`` for a fired timer applied at once (shared/runtime/firing.py)."""
        assert decision.state is not None
        outbox: list[OutboxEntry] = [CancelTimer(t, target.agg.tag) for t in decision.cancel]
        outbox += [
            ArmTimer(
                t.timer_id,
                t.due_ms,
                timer_payload(
                    t,
                    tag=target.agg.tag,
                    subject=target.subject,
                    combat_id=env.combat_id,
                    room=env.room,
                    tenant=env.tenant,
                ),
            )
            for t in decision.arm
        ]
        # A batch ends the request's chain unless it hands over to another service.
        chain_ends = not any(e.type in CHAIN_EVENTS for e in decision.events)
        published, log_entries = self._events(env, target, decision, occurred, chain_ends)
        outbox += published
        if env.reply_to and log_entries and chain_ends:
            # The waiting gateway gets the commit's public events in one message, from the
            # commit that ends the chain only: it reads the earlier commits' events from the
            # combat's log (gateway/routes/actions.py), so a hit is one reply, not three.
            reply = self._batch(
                env,
                target,
                "",
                env.reply_to,
                log_entries,
                "reply",
                REPLY_BATCH,
                mandatory=False,
            )
            outbox.append(reply)
        return Commit(
            expected_version=version,
            state=decision.state,
            message_id=env.message_id,
            now_ms=now,
            outbox=outbox,
            log=log_entries,
            view=self.spec.view(decision.state, now),
            if_match=if_match_of(env),
            ttl_seconds=self.retention_seconds if self.spec.expires(decision.state) else 0,
            unless_queued=unless_queued,
        )

    def _events(
        self,
        env: Envelope,
        target: Target,
        decision: Decision[State],
        occurred: datetime,
        chain_ends: bool,
    ) -> tuple[list[OutboxEntry], list[str]]:
        """Each event to its destinations; the public ones are also the log entries."""
        # Only the last event of a batch that ends the chain carries the mark, so the gateway
        # has every event before it answers.
        last = len(decision.events) - 1
        # destination (exchange, routing key) -> [(envelope, body)], in first-use order
        routes: dict[tuple[str, str], list[tuple[Envelope, str]]] = {}
        log_entries: list[str] = []
        # A service is not sent what its part of the combat's ruleset leaves unused (the
        # aggregate's ruleset: a combat's in turns and resolution; states' character records
        # send services nothing they subscribe to).
        ruleset = str((decision.state or {}).get("ruleset") or "")
        for index, event in enumerate(decision.events):
            out = envelope(
                event.type,
                event.payload,
                message_id=derived_id(
                    "m", self.spec.name, env.message_id, target.subject, str(index)
                ),
                cause=env,
                combat_id=event.payload.get("combat_id"),
                final=chain_ends and index == last,
                occurred_at=occurred,
            )
            body = out.model_dump_json()
            if event.type not in INTERNAL_EVENTS:
                routes.setdefault((self.names.events(), ""), []).append((out, body))
                log_entries.append(body)
            for service in subscribers_of(event.type, ruleset):
                routes.setdefault((self.names.commands(service), env.room), []).append((out, body))
        outbox: list[OutboxEntry] = []
        for (exchange, routing_key), items in routes.items():
            if len(items) == 1 or not self.batches:
                # Alone on the events exchange, an event is routed by its type.
                for out, body in items:
                    outbox.append(Publish.of(exchange, routing_key or out.type, out, body))
                continue
            bodies = [body for _, body in items]
            key = routing_key or EVENTS_BATCH
            outbox.append(self._batch(env, target, exchange, key, bodies, exchange, EVENTS_BATCH))
        return outbox, log_entries

    def _batch(
        self,
        env: Envelope,
        target: Target,
        exchange: str,
        routing_key: str,
        bodies: list[str],
        destination: str,
        type_: str,
        *,
        mandatory: bool = True,
    ) -> Publish:
        """Several serialised envelopes as one message (a JSON array, in order), its id
        derived from the incoming message and the destination."""
        return Publish(
            exchange=exchange,
            routing_key=routing_key,
            body="[" + ",".join(bodies) + "]",
            message_id=derived_id("m", self.spec.name, env.message_id, target.subject, destination),
            correlation_id=env.correlation_id,
            type=type_,
            mandatory=mandatory,
        )


def if_match_of(env: Envelope) -> int | None:
    """The version an action's ``If-Match`` expects (docs/api.md), if it named one."""
    if env.type != CMD_COMBAT_ACT:
        return None
    expected = env.payload.get("if_match")
    return expected if isinstance(expected, int) and not isinstance(expected, bool) else None


def version_mismatch(expected: int | None, actual: int | None) -> dict[str, Any]:
    """The ``command.rejected`` payload of a stale ``If-Match`` (409 at the gateway)."""
    return {
        "code": "version_mismatch",
        "rule": None,
        "details": {"expected": expected, "actual": actual},
    }
