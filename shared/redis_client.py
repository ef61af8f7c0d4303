"""The Redis client of every process: a plain one, or a cluster-aware one when the URL
names a Redis Cluster (``redis+cluster://host:port/0``, or ``rediss+cluster://`` with TLS).

With a cluster, keys that one script or transaction touches share a hash tag (shared/keys.py),
and a non-transactional pipeline is split by node by the client. The cluster client is used
through the same methods as the plain one, so the code keeps the :class:`Redis` type.
"""

from __future__ import annotations

from typing import cast

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def is_cluster(url: str) -> bool:
    return url.split("://", 1)[0] in CLUSTER_SCHEMES


def plain_url(url: str) -> str:
    """The URL with its cluster scheme replaced by the plain one (what redis-py parses)."""
    scheme, sep, rest = url.partition("://")
    return f"{CLUSTER_SCHEMES.get(scheme, scheme)}{sep}{rest}"


def redis_client(url: str, *, max_connections: int = 64) -> Redis:
    """A client for ``url``: a pool of at most ``max_connections`` (per node in a cluster)."""
    if is_cluster(url):
        cluster = RedisCluster.from_url(plain_url(url), max_connections=max_connections)
        return cast(Redis, cluster)
    pool = BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10)
    return Redis.from_pool(pool)  # the client owns its pool: aclose() closes its connections
