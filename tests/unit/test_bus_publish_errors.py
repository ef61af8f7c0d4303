"""A publish the broker never confirmed is ``BusUnavailableError`` (the gateway's 503 with
``Retry-After``), whatever aiormq raised for it: a channel closed under a pending confirm
raises a bare ``ChannelClosed(None, None)`` (found by the chaos suite's broker restarts), and a
connection cut while the frame drains rejects it with the bare class ``Exception`` (found by the
soak run's connection cuts: it was a 500)."""

from __future__ import annotations

from typing import Any

import aiormq.exceptions
import pytest

from shared.bus import Bus, BusUnavailableError


class FailingExchange:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def publish(self, *args: Any, **kwargs: Any) -> None:
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        aiormq.exceptions.ChannelClosed(None, None),
        aiormq.exceptions.ChannelInvalidStateError("closed"),
        aiormq.exceptions.ConnectionClosed(320, "shutdown"),
        aiormq.exceptions.DeliveryError(None, None),  # type: ignore[arg-type]
        TimeoutError(),
        Exception(),
    ],
    ids=lambda e: type(e).__name__,
)
async def test_a_publish_not_confirmed_is_bus_unavailable(error: BaseException) -> None:
    bus = Bus("amqp://unused", namespace="t", partitions=1, delivery_limit=5, publish_timeout=1)
    bus._exchanges["x"] = FailingExchange(error)  # type: ignore[assignment]
    bus._publisher = object()  # type: ignore[assignment]
    with pytest.raises(BusUnavailableError):
        await bus.publish_raw("x", "room", b"{}", message_id="m_1")


async def test_any_other_error_of_a_publish_is_not_hidden() -> None:
    bus = Bus("amqp://unused", namespace="t", partitions=1, delivery_limit=5, publish_timeout=1)
    bus._exchanges["x"] = FailingExchange(ValueError("a bug"))  # type: ignore[assignment]
    bus._publisher = object()  # type: ignore[assignment]
    with pytest.raises(ValueError, match="a bug"):
        await bus.publish_raw("x", "room", b"{}", message_id="m_1")
