"""OpenTelemetry traces across HTTP, RabbitMQ and Redis, exported only when configured.

Off unless the environment asks for it (:func:`wanted`): ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` names a collector, or ``REFEREE_TRACING=1`` (then the
exporter's default, ``http://localhost:4318``). ``OTEL_SDK_DISABLED=true`` or
``OTEL_TRACES_EXPORTER=none`` keeps it off whatever else is set. These are read from the
process environment (as the exporter reads its own), never from ``.env``. Off, nothing of the SDK is
imported and nothing is instrumented: the API's no-op tracer is all there is.

On, :func:`start` installs a tracer provider (resource ``service.name``: ``OTEL_SERVICE_NAME``
or ``referee-<process>``) with a batching OTLP/HTTP exporter (the standard ``OTEL_EXPORTER_OTLP_*``
variables configure it: endpoint, headers, timeout, compression) and instruments redis-py
(every command and pipeline) and aio-pika: a publish injects the W3C ``traceparent`` into the
message's AMQP headers and a consumer continues the trace it names, so a command published
while the gateway serves a request is handled in a child span of that request, and the
service's Redis calls are children of it. The gateway also instruments its FastAPI app
(:func:`instrument_app`). Messages an outbox sweeper or a timer poller publishes start traces
of their own (no request is in progress then).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.logging import get_logger

if TYPE_CHECKING:
    from fastapi import FastAPI
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter

log = get_logger(__name__)

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def wanted(env: Mapping[str, str]) -> bool:
    """Whether the environment turns tracing on (see the module docstring)."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if env.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    if env.get("REFEREE_TRACING", "").strip().lower() in {"1", "true", "yes", "on"}:
        return True
    return any(env.get(name, "").strip() for name in ENDPOINT_VARIABLES)


@dataclass
class Tracing:
    """The process's tracing while it is on."""

    provider: TracerProvider

    def close(self) -> None:
        """Export what is left and undo the instrumentation (a process's exit, a test's end)."""
        global _active
        from opentelemetry.instrumentation.aio_pika import AioPikaInstrumentor
        from opentelemetry.instrumentation.redis import RedisInstrumentor

        RedisInstrumentor().uninstrument()
        AioPikaInstrumentor().uninstrument()
        self.provider.shutdown()
        if _active is self:
            _active = None


_active: Tracing | None = None


def active() -> Tracing | None:
    return _active


def start(
    process: str,
    *,
    env: Mapping[str, str] | None = None,
    exporter: SpanExporter | None = None,
) -> Tracing | None:
    """Turn tracing on for this process if the environment asks for it, or with ``exporter``
    (a test's in-memory one, exported at once); ``None`` when it stays off. Call it before the
    bus consumes, so the consumers are instrumented. A second call returns the first one."""
    if _active is not None:
        return _active
    env = os.environ if env is None else env
    if exporter is None and not wanted(env):
        return None
    return _start(process, env, exporter)


def _start(process: str, env: Mapping[str, str], exporter: SpanExporter | None) -> Tracing:
    global _active
    from opentelemetry import trace
    from opentelemetry.instrumentation.aio_pika import AioPikaInstrumentor
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    name = env.get("OTEL_SERVICE_NAME") or f"referee-{process}"
    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: name}))
    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        # The global provider too, for any library that traces through the API (set once).
        trace.set_tracer_provider(provider)
    else:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    RedisInstrumentor().instrument(tracer_provider=provider)
    AioPikaInstrumentor().instrument(tracer_provider=provider)
    _active = Tracing(provider)
    log.info(
        "tracing_on", service_name=name, exporter=type(exporter).__name__ if exporter else "otlp"
    )
    return _active


def instrument_app(app: FastAPI) -> None:
    """Trace every request of the gateway's app while tracing is on (else nothing)."""
    if _active is None:
        return
    from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor

    FastAPIInstrumentor.instrument_app(app, tracer_provider=_active.provider)
