"""The base of every payload between services (:mod:`shared.payloads`,
:mod:`shared.states_payloads`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ServicePayload(BaseModel):
    """A message between services. Read tolerantly: a field that a newer service adds is
    ignored by an older one, so the services can be upgraded one at a time (a strict reader
    would fail every such message until its delivery limit and dead-letter it). The public
    API's bodies are the gateway's own strict models."""

    model_config = ConfigDict(extra="ignore", frozen=True)
