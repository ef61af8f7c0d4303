"""Issue 16: traces are exported only when configured; with nothing set there is no exporter,
no instrumentation, not even the SDK's tracing loaded (the API's no-op tracer is all there
is)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import pytest
from opentelemetry.instrumentation.aio_pika import AioPikaInstrumentor
from opentelemetry.instrumentation.redis import RedisInstrumentor

from shared import tracing


@pytest.mark.parametrize(
    ("env", "on"),
    [
        pytest.param({}, False, id="nothing-set"),
        pytest.param({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318"}, True, id="endpoint"),
        pytest.param(
            {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://otel:4318/v1/traces"},
            True,
            id="traces-endpoint",
        ),
        pytest.param({"REFEREE_TRACING": "1"}, True, id="referee-tracing"),
        pytest.param({"REFEREE_TRACING": "0"}, False, id="referee-tracing-0"),
        pytest.param({"OTEL_EXPORTER_OTLP_ENDPOINT": " "}, False, id="blank-endpoint"),
        pytest.param({"OTEL_SERVICE_NAME": "x"}, False, id="only-a-name"),
        pytest.param(
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_SDK_DISABLED": "true"},
            False,
            id="sdk-disabled-wins",
        ),
        pytest.param(
            {"REFEREE_TRACING": "1", "OTEL_TRACES_EXPORTER": "none"}, False, id="exporter-none"
        ),
    ],
)
def test_tracing_is_on_only_when_the_environment_asks(env: dict[str, str], on: bool) -> None:
    assert tracing.wanted(env) is on


def test_with_nothing_set_start_installs_nothing() -> None:
    assert tracing.start("turns", env={}) is None
    assert tracing.active() is None
    assert not RedisInstrumentor().is_instrumented_by_opentelemetry
    assert not AioPikaInstrumentor().is_instrumented_by_opentelemetry


PROBE = """
import json, sys
from opentelemetry import trace
from gateway.app import create_app
from shared import tracing
from shared.settings import GatewaySettings

app = create_app(GatewaySettings(referee_admin_token="probe-token-0123456789abcdef"))
tracing.start("turns")  # what a service's entry point calls
print(json.dumps({
    "active": tracing.active() is not None,
    "provider": type(trace.get_tracer_provider()).__name__,
    "sdk_trace": any(m.startswith("opentelemetry.sdk.trace") for m in sys.modules),
    "exporter": any(m.startswith("opentelemetry.exporter") for m in sys.modules),
    "instrumented": any(m.startswith("opentelemetry.instrumentation") for m in sys.modules),
}))
"""


def test_the_gateway_and_a_service_start_without_exporter_when_nothing_is_set() -> None:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("OTEL_") and k != "REFEREE_TRACING"
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {
        "active": False,
        "provider": "ProxyTracerProvider",  # the API's default: its tracers are no-ops
        "sdk_trace": False,  # (redis-py loads the SDK's metrics package for its own use)
        "exporter": False,
        "instrumented": False,
    }


EXPORTING = """
from opentelemetry import trace
from shared import tracing

started = tracing.start("turns")
assert started is not None
with trace.get_tracer("probe").start_as_current_span("probe-span"):
    pass
started.close()  # exports what is left
"""


class Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP collector that keeps what it is sent."""

    received: ClassVar[list[tuple[str, bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_with_an_otlp_endpoint_set_spans_are_exported_to_it() -> None:
    server = HTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = f"http://127.0.0.1:{server.server_port}"
        done = subprocess.run(
            [sys.executable, "-c", EXPORTING], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
    finally:
        server.shutdown()
        server.server_close()
    paths = [path for path, _ in Collector.received]
    assert paths == ["/v1/traces"]
    body = Collector.received[0][1]
    assert b"referee-turns" in body and b"probe-span" in body
