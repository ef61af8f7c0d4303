"""The versioned commit: state, processed-message record and outbox, atomically.

One Lua script per commit (docs/DESIGN.md step 3): it checks the state version the handler
loaded, refuses a message already processed, checks an optional ``If-Match`` against the
aggregate's shared version counter, then writes the new state, records the message id,
bumps the version counter, appends the outbox entries and the audit log entries and writes
the read model. Every key carries the aggregate's hash tag, so the script touches one slot.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from pydantic_core import from_json, to_json
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from shared.keys import Aggregate
from shared.outbox import LOCK_MS, OutboxClaim
from shared.outbox_entry import OutboxEntry, dump_entry
from shared.redis_streams import entries, text
from shared.scripts import Script, run_pipeline

PROCESSED_RETENTION_MS: Final = 7 * 24 * 3600 * 1000

# The processed-message record of an aggregate is one string of fixed-size records, oldest
# first: the first DIGEST_BYTES of the message id's BLAKE2b digest, then the second it was
# processed (4 bytes, big-endian). 16 bytes a message, where a sorted set of message ids took
# about 130 once past 128 members. A 96-bit digest makes two ids of one aggregate alike
# with a probability of about n² / 2⁹⁷: never, for the thousands a combat processes.
DIGEST_BYTES: Final = 12
RECORD_BYTES: Final = DIGEST_BYTES + 4

# Whether a record string holds a digest, at a record's start (a plain search could match
# across two records). Lua strings are binary-safe; ``string.find`` with ``plain`` is memchr.
_SEEN_IN = """
local function seen_in(records, digest)
  if not records then return false end
  local from = 1
  while true do
    local at = string.find(records, digest, from, true)
    if not at then return false end
    if (at - 1) % RECORD_BYTES == 0 then return true end
    from = at + 1
  end
end
""".replace("RECORD_BYTES", str(RECORD_BYTES))

# Whether a message was processed: in the record (KEYS[1]), or in the sorted set of message
# ids that versions before the record kept (KEYS[2]), still read until it expires. A message
# processed already is no longer queued for the aggregate (KEYS[3], ``Aggregate.queued``).
_PROCESSED = Script(
    _SEEN_IN
    + """
if seen_in(redis.call('GET', KEYS[1]), ARGV[1]) or redis.call('ZSCORE', KEYS[2], ARGV[2]) then
  redis.call('ZREM', KEYS[3], ARGV[2])
  return 1
end
return 0
"""
)

# How long a message stays in its aggregate's set of queued messages at most: one that
# never reaches the service (its sender died between adding and publishing, or it was
# dead-lettered) keeps the aggregate's timers on the partition's path no longer than this.
QUEUED_TTL_MS: Final = 3_600_000

# Compression level of the stored states: zlib's fastest already takes a combat's state from
# about 10 KB of JSON to 2 KB (most of it is sheets and skills with every field spelled out).
STATE_COMPRESSION: Final = 1

# An aggregate's log keeps at most about this many entries (a combat logs a few thousand; a
# character's log is bounded; the trim is approximate, ``MAXLEN ~``).
LOG_MAX_ENTRIES: Final = 100_000

_COMMIT = (
    (
        _SEEN_IN
        + """
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
local records = redis.call('GET', KEYS[2])
local digest = string.sub(ARGV[8], 1, DIGEST_BYTES)
if seen_in(records, digest) or redis.call('ZSCORE', KEYS[8], ARGV[3]) then
  redis.call('ZREM', KEYS[9], ARGV[3])
  return {'duplicate', current, tonumber(redis.call('GET', KEYS[4]) or '0')}
end
-- A fired timer applied at once (ARGV[12]: now) commits only when no message is queued for
-- the aggregate (KEYS[9], entries older than QUEUED_TTL_MS dropped); else it joins them.
if ARGV[12] ~= '' then
  local at = tonumber(ARGV[12])
  redis.call('ZREMRANGEBYSCORE', KEYS[9], '-inf', at - QUEUED_TTL_MS)
  if redis.call('ZCARD', KEYS[9]) > 0 then
    redis.call('ZADD', KEYS[9], at, ARGV[3])
    redis.call('PEXPIRE', KEYS[9], QUEUED_TTL_MS)
    return {'queued', current, 0}
  end
end
if current ~= tonumber(ARGV[1]) then
  return {'conflict', current, 0}
end
-- Handled (committed, or refused by its If-Match): no longer queued for the aggregate.
redis.call('ZREM', KEYS[9], ARGV[3])
if ARGV[5] ~= '' then
  local seen = tonumber(redis.call('GET', KEYS[4]) or '0')
  if seen ~= tonumber(ARGV[5]) then
    return {'precondition', current, seen}
  end
end
local nextv = current + 1
redis.call('HSET', KEYS[1], 'v', nextv, 'data', ARGV[2])
-- The record, less its records older than the retention (ARGV[4], Unix seconds), plus this one.
records = records or ''
local cutoff = tonumber(ARGV[4])
local from = 1
while from <= #records do
  local b1, b2, b3, b4 = string.byte(records, from + DIGEST_BYTES, from + DIGEST_BYTES + 3)
  if ((b1 * 256 + b2) * 256 + b3) * 256 + b4 >= cutoff then break end
  from = from + RECORD_BYTES
end
redis.call('SET', KEYS[2], string.sub(records, from) .. ARGV[8], 'KEEPTTL')
local aggv = redis.call('INCR', KEYS[4])
local n = tonumber(ARGV[9])
local was_empty = redis.call('XLEN', KEYS[3]) == 0
local claim = {}
for i = 1, n do
  claim[i] = redis.call('XADD', KEYS[3], '*', 'e', ARGV[12 + i])
end
for i = 13 + n, #ARGV do
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', 'LOG_MAX_ENTRIES', '*', 'v', aggv, 'e', ARGV[i])
end
if ARGV[6] ~= '' then
  redis.call('SET', KEYS[6], ARGV[6])
end
local ttl = tonumber(ARGV[7])
if ttl > 0 then
  for i = 1, 6 do
    redis.call('EXPIRE', KEYS[i], ttl)
  end
  redis.call('EXPIRE', KEYS[8], ttl)
end
-- The committer carries out its own entries from memory when nothing older waits and no
-- flusher holds the outbox: it takes the outbox's lock here, in the same round trip.
if n > 0 and was_empty and ARGV[10] ~= '' then
  if redis.call('SET', KEYS[7], ARGV[10], 'NX', 'PX', ARGV[11]) then
    return {'ok', nextv, aggv, unpack(claim)}
  end
end
return {'ok', nextv, aggv}
"""
    )
    .replace("RECORD_BYTES", str(RECORD_BYTES))
    .replace("DIGEST_BYTES", str(DIGEST_BYTES))
    .replace("QUEUED_TTL_MS", str(QUEUED_TTL_MS))
)


class CommitStatus(StrEnum):
    OK = "ok"
    CONFLICT = "conflict"  # another replica committed first: reload and retry
    DUPLICATE = "duplicate"  # this message was already processed: ack and skip
    PRECONDITION = "precondition"  # If-Match differs from the aggregate version
    QUEUED = "queued"  # a timer applied at once found messages queued: it joined them


@dataclass(frozen=True)
class CommitResult:
    status: CommitStatus
    state_version: int
    aggregate_version: int
    # The commit's own outbox entries, locked for the committer to carry out from memory
    # (None: nothing written, older entries wait, or another flusher holds the outbox).
    claim: OutboxClaim | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Loaded:
    version: int
    data: dict[str, Any] | None
    # The aggregate's shared version counter (what ``If-Match`` names), when it was read.
    aggregate_version: int | None = None


@dataclass(frozen=True)
class Commit:
    """What one handled message writes."""

    expected_version: int
    state: dict[str, Any]
    message_id: str
    now_ms: int
    outbox: list[OutboxEntry]
    log: list[str]
    view: dict[str, Any] | None = None
    if_match: int | None = None
    ttl_seconds: int = 0
    # A fired timer applied at once: commit only when no message is queued for the
    # aggregate, else queue the timer's message among them (``CommitStatus.QUEUED``).
    unless_queued: bool = False


class AggregateStore:
    """Loads and commits aggregates of one service (one round trip each)."""

    def __init__(self, redis: Redis, *, dirty_key: str, active_key: str | None = None) -> None:
        self._redis = redis
        self._dirty_key = dirty_key
        self._active_key = active_key
        self._commit = Script(_COMMIT.replace("LOG_MAX_ENTRIES", str(LOG_MAX_ENTRIES)))

    async def load(self, agg: Aggregate) -> Loaded:
        version, data = await self._redis.hmget(agg.state, ["v", "data"])
        return _loaded(version, data)

    async def load_unless_processed(self, agg: Aggregate, message_id: str) -> Loaded | None:
        """The state, or None when ``message_id`` was already processed on this aggregate.

        Also reads the aggregate's shared version, so that an ``If-Match`` is checked before
        the rules run.
        """

        def build(pipe: Pipeline) -> None:
            keys = [agg.seen, agg.processed, agg.queued]
            _PROCESSED.queue(pipe, keys, [digest_of(message_id), message_id])
            pipe.hmget(agg.state, ["v", "data"])
            pipe.get(agg.version)

        seen, (version, data), shared = await run_pipeline(self._redis, build, [_PROCESSED])
        if seen:
            return None
        loaded = _loaded(version, data)
        return Loaded(loaded.version, loaded.data, int(shared or 0))

    async def is_processed(self, agg: Aggregate, message_id: str) -> bool:
        return await self.load_unless_processed(agg, message_id) is None

    async def commit(
        self, agg: Aggregate, commit: Commit, *, active: bool | None = None
    ) -> CommitResult:
        """Commit, in one round trip with the outbox's dirty mark and the active-set update.

        When the outbox held nothing before and no flusher holds its lock, the script takes
        the lock and the result's ``claim`` names the entries it wrote: the caller carries
        them out from memory (:meth:`shared.outbox.OutboxRelay.carry_claimed`).

        The dirty mark goes *before* the script: if this process dies right after the commit,
        the sweeper still finds the entries (a stale mark is harmless). The active set is only
        a hint for the reconciler, which drops aggregates that are no longer active.
        """
        keys = [agg.state, agg.seen, agg.outbox, agg.version, agg.log, agg.view, agg.lock]
        keys.append(agg.processed)  # the former record, read until it expires
        keys.append(agg.queued)
        token = secrets.token_hex(8)
        args: list[str | int | bytes] = [
            commit.expected_version,
            encode_state(commit.state),
            commit.message_id,
            (commit.now_ms - PROCESSED_RETENTION_MS) // 1000,
            "" if commit.if_match is None else commit.if_match,
            "" if commit.view is None else to_json(commit.view),
            commit.ttl_seconds,
            digest_of(commit.message_id) + (commit.now_ms // 1000).to_bytes(4, "big"),
            len(commit.outbox),
            token,
            LOCK_MS,
            commit.now_ms if commit.unless_queued else "",
            *(dump_entry(e) for e in commit.outbox),
            *commit.log,
        ]

        def build(pipe: Pipeline) -> None:
            if commit.outbox:
                pipe.zadd(self._dirty_key, {agg.outbox: int(time.time() * 1000)})
            self._commit.queue(pipe, keys, args)
            if self._active_key is not None and active is not None:
                if active:
                    pipe.sadd(self._active_key, agg.tag)
                else:
                    pipe.srem(self._active_key, agg.tag)

        results = await run_pipeline(self._redis, build, [self._commit])
        raw = results[1 if commit.outbox else 0]
        status = raw[0].decode() if isinstance(raw[0], bytes) else str(raw[0])
        claim = None
        if len(raw) > 3:
            claim = OutboxClaim(agg.outbox, token, tuple(text(i) for i in raw[3:]))
        return CommitResult(CommitStatus(status), int(raw[1]), int(raw[2]), claim)

    async def settle(self, agg: Aggregate, message_id: str) -> None:
        """A message handled without a commit (refused, or nothing to change) is no longer
        queued for the aggregate (a commit removes it in its script)."""
        await self._redis.zrem(agg.queued, message_id)

    async def version(self, agg: Aggregate) -> int:
        raw = await self._redis.get(agg.version)
        return int(raw) if raw else 0

    async def read_view(self, agg: Aggregate) -> dict[str, Any] | None:
        """The read model the aggregate's service last published (``None`` if none)."""
        raw = await self._redis.get(agg.view)
        return None if raw is None else dict(from_json(raw))

    async def last_logged(self, agg: Aggregate, count: int) -> list[tuple[str, str]]:
        """The newest ``count`` entries of the aggregate's log, newest first: (entry id
        ``<ms>-<seq>``, the logged envelope's JSON)."""
        found = entries(await self._redis.xrevrange(agg.log, count=count))
        return [(entry_id, text(fields["e"])) for entry_id, fields in found if "e" in fields]

    async def active_tags(self) -> AsyncIterator[str]:
        """The tags of the aggregates marked active (a hint: some may have ended since)."""
        if self._active_key is None:
            return
        async for raw in self._redis.sscan_iter(self._active_key, count=200):
            yield text(raw)

    async def forget_active(self, tag: str) -> None:
        if self._active_key is not None:
            await self._redis.srem(self._active_key, tag)


def digest_of(message_id: str) -> bytes:
    """What the processed-message record keeps of a message id."""
    return hashlib.blake2b(message_id.encode(), digest_size=DIGEST_BYTES).digest()


def encode_state(state: dict[str, Any]) -> bytes:
    """A state as the commit stores it: its compact JSON, zlib-compressed."""
    return zlib.compress(to_json(state), STATE_COMPRESSION)


def decode_state(raw: bytes | str) -> dict[str, Any]:
    """A stored state: compressed (:func:`encode_state`), or the plain JSON that commits
    stored before states were compressed (a JSON object starts with ``{``; a zlib stream
    never does)."""
    data = raw.encode() if isinstance(raw, str) else raw
    if data[:1] != b"{":
        data = zlib.decompress(data)
    return dict(from_json(data))


def _loaded(version: Any, data: Any) -> Loaded:
    if version is None:
        return Loaded(0, None)
    return Loaded(int(version), decode_state(data) if data else None)
