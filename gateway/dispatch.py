"""Turning a validated request into a command, and its outcome into an answer."""

from __future__ import annotations

import time
from typing import Any

from gateway.commands import Outcome
from gateway.context import Gateway
from gateway.errors import ApiError
from gateway.metrics import COMMAND_SECONDS
from shared.messages import COMMAND_OWNER, Envelope, derived_id, new_id, utcnow


def ids_for(tenant: str, idempotency_key: str | None, kind: str, prefix: str) -> str:
    """A fresh id, or one derived from the Idempotency-Key (the same key, the same id)."""
    if idempotency_key is None:
        return new_id(prefix)
    return derived_id(prefix, tenant, kind, idempotency_key)


async def send(
    gw: Gateway,
    *,
    type_: str,
    tenant: str,
    room: str,
    combat_id: str,
    correlation_id: str,
    message_id: str,
    payload: dict[str, Any],
) -> Outcome:
    env = Envelope(
        message_id=message_id,
        type=type_,
        correlation_id=correlation_id,
        combat_id=combat_id,
        room=room,
        tenant=tenant,
        occurred_at=utcnow(),
        payload=payload,
    )
    started = time.perf_counter()
    outcome = await gw.client.send(
        COMMAND_OWNER[type_], env, wait_seconds=gw.settings.referee_request_timeout
    )
    status = "rejected" if outcome.rejected else ("completed" if outcome.complete else "pending")
    COMMAND_SECONDS.labels(type_, status).observe(time.perf_counter() - started)
    return outcome


def raise_if_rejected(outcome: Outcome) -> None:
    if outcome.rejected is None:
        return
    p = outcome.rejected.payload
    raise ApiError(str(p.get("code")), rule=p.get("rule"), details=p.get("details") or {})
