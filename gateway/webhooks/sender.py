"""One attempt of one delivery: the body signed with Standard Webhooks and POSTed.

Headers (https://www.standardwebhooks.com): ``webhook-id`` (the delivery id, the same on
every attempt, so a receiver drops repeats), ``webhook-timestamp`` (this attempt, in seconds)
and ``webhook-signature`` (``v1,<base64 HMAC-SHA256>`` of ``id.timestamp.body`` with the
webhook's secret), signed by the ``standardwebhooks`` package. A 2xx answer is a delivery;
anything else (another status, a timeout, a refused connection or address) is a failure.
Redirects are not followed. Only the first KiB of an answer is read.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime

import httpcore
from standardwebhooks.webhooks import Webhook

from gateway.webhooks.targets import GuardedBackend

USER_AGENT = "combat-referee-webhooks/1"
READ_LIMIT = 1024


@dataclass(frozen=True)
class Outcome:
    status_code: int | None
    error: str | None
    duration_ms: int

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def signed_headers(secret: str, delivery_id: str, body: str, at: datetime) -> dict[str, str]:
    signature = Webhook(secret).sign(delivery_id, at, body)
    return {
        "webhook-id": delivery_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
    }


class Sender:
    def __init__(self, *, timeout_seconds: float, allow_private: bool, connections: int) -> None:
        self._timeout = timeout_seconds
        self._pool = httpcore.AsyncConnectionPool(
            network_backend=GuardedBackend(allow_private=allow_private),
            max_connections=connections,
            keepalive_expiry=30.0,
        )

    async def close(self) -> None:
        await self._pool.aclose()

    async def send(self, url: str, secret: str, delivery_id: str, body: str) -> Outcome:
        headers = {
            **signed_headers(secret, delivery_id, body, datetime.now(UTC)),
            "content-type": "application/json",
            "user-agent": USER_AGENT,
        }
        started = time.perf_counter()
        timeouts = dict.fromkeys(("connect", "read", "write", "pool"), self._timeout)
        try:
            async with asyncio.timeout(self._timeout):
                async with self._pool.stream(
                    "POST",
                    url,
                    headers=list(headers.items()),
                    content=body.encode(),
                    extensions={"timeout": timeouts},
                ) as response:
                    await _read_some(response)
                    status: int | None = response.status
                    error = None if 200 <= response.status < 300 else f"HTTP {response.status}"
        except TimeoutError:
            status, error = None, f"timed out after {self._timeout:g} s"
        except httpcore.TimeoutException as exc:
            status, error = None, f"timed out: {exc}"
        except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol) as exc:
            status, error = None, f"{type(exc).__name__}: {exc}"
        elapsed = int((time.perf_counter() - started) * 1000)
        return Outcome(status, error, elapsed)


async def _read_some(response: httpcore.Response) -> bytes:
    read = b""
    async for chunk in response.aiter_stream():
        read += chunk
        if len(read) >= READ_LIMIT:
            break
    return read[:READ_LIMIT]
