"""Ids for a request's command, and a rejection turned into the API's error.

The command itself goes through the one send-and-wait, ``gw.client.send``
(:class:`gateway.commands.CommandClient`).
"""

from __future__ import annotations

from gateway.commands import Outcome
from gateway.errors import ApiError
from shared.messages import derived_id, new_id


def ids_for(tenant: str, idempotency_key: str | None, kind: str, prefix: str) -> str:
    """A fresh id, or one derived from the Idempotency-Key (the same key, the same id)."""
    if idempotency_key is None:
        return new_id(prefix)
    return derived_id(prefix, tenant, kind, idempotency_key)


def raise_if_rejected(outcome: Outcome) -> None:
    if outcome.rejected is None:
        return
    p = outcome.rejected.payload
    raise ApiError(str(p.get("code")), rule=p.get("rule"), details=p.get("details") or {})
