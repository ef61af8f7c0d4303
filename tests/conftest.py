"""Fixtures for every test layer: real infrastructure URLs and per-test namespaces."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from shared.redis_client import redis_client
from tests.support.infra import delete_namespace_keys, new_namespace, resolve_url


@pytest.fixture(scope="session")
def rabbitmq_url() -> str:
    return resolve_url("rabbitmq")


@pytest.fixture(scope="session")
def redis_url() -> str:
    return resolve_url("redis")


@pytest.fixture
def namespace() -> str:
    """A namespace of its own for one test: exchanges, queues and keys."""
    return new_namespace()


@pytest.fixture
async def redis(redis_url: str, namespace: str) -> AsyncIterator[Redis]:
    client = redis_client(redis_url)
    try:
        yield client
    finally:
        await delete_namespace_keys(client, namespace)
        await client.aclose()
