"""Integration fixtures: a real Bus and Redis in a namespace of the test's own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from shared.bus import Bus
from tests.support.infra import delete_namespace_broker

PARTITIONS = 4


@pytest.fixture
async def bus(rabbitmq_url: str, namespace: str) -> AsyncIterator[Bus]:
    bus = Bus(
        rabbitmq_url,
        namespace=namespace,
        partitions=PARTITIONS,
        delivery_limit=3,
        publish_timeout=5.0,
    )
    await bus.connect()
    await bus.declare_topology()
    try:
        yield bus
    finally:
        await bus.close()
        await delete_namespace_broker(
            rabbitmq_url,
            namespace,
            rooms={"turns": ["busy-room"]},
            extra_queues=[f"{namespace}.probe"],
        )
