"""Where the real RabbitMQ and Redis are, and how a test cleans up only what it created.

Order (docs/CONTRIBUTING.md): the URL from the environment; else a container where a Docker engine
runs; else the loopback servers after a quick probe; else the test fails with a clear
message. Every test works in a namespace of its own and deletes only that namespace.
"""

from __future__ import annotations

import os
import socket
import uuid
from urllib.parse import urlparse

from redis.asyncio import Redis

from shared.namespace import drop_broker, drop_keys

LOOPBACK_RABBITMQ = "amqp://guest:guest@127.0.0.1:5672/"
LOOPBACK_REDIS = "redis://127.0.0.1:6379/0"


def _answers(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 1
        ):
            return True
    except OSError:
        return False


def _container_url(kind: str) -> str | None:
    try:
        import docker

        docker.from_env().ping()
    except Exception:  # no engine here: fall through
        return None
    if kind == "rabbitmq":
        from testcontainers.community.rabbitmq import RabbitMqContainer

        rabbit = RabbitMqContainer("rabbitmq:3.10-management")
        rabbit.start()
        params = rabbit.get_connection_params()
        return f"amqp://guest:guest@{params.host}:{params.port}/"
    from testcontainers.community.redis import RedisContainer

    redis = RedisContainer("redis:7.0")
    redis.start()
    return f"redis://{redis.get_container_host_ip()}:{redis.get_exposed_port(6379)}/0"


def resolve_url(kind: str) -> str:
    env_name, loopback, port = (
        ("RABBITMQ_URL", LOOPBACK_RABBITMQ, 5672)
        if kind == "rabbitmq"
        else ("REDIS_URL", LOOPBACK_REDIS, 6379)
    )
    if os.environ.get(env_name):
        return os.environ[env_name]
    if _answers(loopback, port):
        return loopback
    url = _container_url(kind)
    if url:
        return url
    raise RuntimeError(
        f"no {kind} for the tests: set {env_name}, start the server on loopback "
        "(see README) or run where a Docker engine is available"
    )


def new_namespace(prefix: str = "t") -> str:
    return f"{prefix}{uuid.uuid4().hex[:12]}"


async def delete_namespace_keys(redis: Redis, ns: str) -> int:
    """Delete the Redis keys of one namespace (and nothing else)."""
    return await drop_keys(redis, ns)


async def delete_namespace_broker(
    url: str,
    ns: str,
    *,
    rooms: dict[str, list[str]] | None = None,
    extra_queues: list[str] | None = None,
) -> None:
    """Delete the queues and exchanges one namespace declared (and nothing else), as
    ``python -m shared.ops drop-namespace --force`` does: its partitions are found, not
    given."""
    await drop_broker(url, ns, rooms=rooms, extra_queues=extra_queues or (), force=True)
