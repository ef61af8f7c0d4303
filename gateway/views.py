"""Read models: the combat of docs/api.md merged from the services' published views."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from shared.keys import Keys
from shared.messages import Envelope
from shared.redis_streams import entries
from shared.scripts import Script, run_pipeline
from shared.stalls import quiet_ms
from shared.store import QUEUED_TTL_MS


def public_event(env: Envelope) -> dict[str, Any]:
    """An event as frontends see it (SSE ``data``, action answers, the combat log)."""
    return {
        "id": env.message_id,
        "type": env.type,
        "combat_id": env.combat_id,
        "room": env.room,
        "occurred_at": env.occurred_at.isoformat().replace("+00:00", "Z"),
        "correlation_id": env.correlation_id,
        "causation_id": env.causation_id,
        "data": env.payload,
    }


def merge_combat(
    turns: dict[str, Any], resolution: dict[str, Any] | None, version: int
) -> dict[str, Any]:
    """The combat of docs/api.md "Fields": turns' view, resolution's condition, the version."""
    combat = {k: v for k, v in turns.items() if k != "tenant"}
    combat["version"] = version
    condition = (resolution or {}).get("participants", {})
    participants: dict[str, Any] = {}
    for cid, part in turns.get("participants", {}).items():
        cond = condition.get(cid, {})
        participants[cid] = {
            **part,
            "vit": cond.get("vit"),
            "vit_max": cond.get("vit_max"),
            "effects": cond.get("effects", []),
        }
    combat["participants"] = participants
    return combat


@dataclass(frozen=True)
class ActionMark:
    """What the gateway keeps of an action it is about to send: its sent record (the
    combat and when, kept ``ttl_s``: what polling the action reads) and its command's id,
    queued for the combat in services/turns from ``sent_ms`` (Unix ms)."""

    sent_key: str
    record: str
    ttl_s: int
    command_id: str
    sent_ms: int


# What never changes in a combat (community, room, ruleset), by its version key, for the
# combats this process read lately: an action then reads the version alone before it is sent.
_FIXED: OrderedDict[str, tuple[str, str, str]] = OrderedDict()
FIXED_KEPT = 20_000
# Log entries read per round trip while gathering one request's events.
CHAIN_PAGE = 100

# A combat's two views and its version, read at one instant (a script, not MULTI, so that it
# can share a pipeline with reads of other hash slots).
_READ_VIEW = Script(
    "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2]), redis.call('GET', KEYS[3])}"
)


def _remember(key: str, turns: dict[str, Any]) -> None:
    fixed = (str(turns.get("tenant")), str(turns.get("room")), str(turns.get("ruleset", "umh")))
    _FIXED[key] = fixed
    _FIXED.move_to_end(key)
    while len(_FIXED) > FIXED_KEPT:
        _FIXED.popitem(last=False)


class CombatReader:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def head(self, combat_id: str, tenant: str) -> dict[str, Any] | None:
        """The combat's ``id``, ``room``, ``ruleset`` and ``version`` (None as :meth:`view`):
        one small read (the version) once this process has read the combat's view."""
        key = self.keys.combat("turns", combat_id).version
        fixed = _FIXED.get(key)
        if fixed is None:
            combat = await self.view(combat_id, tenant)
            if combat is None:
                return None
            ruleset = str(combat.get("ruleset", "umh"))
            version = combat["version"]
            return {"id": combat_id, "room": combat["room"], "ruleset": ruleset, "version": version}
        owner, room, ruleset = fixed
        raw = await self.redis.get(key)
        if owner != tenant or raw is None:  # another community's, or expired
            return None
        return {"id": combat_id, "room": room, "ruleset": ruleset, "version": int(raw)}

    async def view(self, combat_id: str, tenant: str) -> dict[str, Any] | None:
        """The combat, or None when it does not exist or belongs to another community."""
        agg = self.keys.combat("turns", combat_id)
        keys = [agg.view_of("turns"), agg.view_of("resolution"), agg.version]
        ((turns_raw, res_raw, version),) = await run_pipeline(
            self.redis, lambda pipe: _READ_VIEW.queue(pipe, keys, []), [_READ_VIEW]
        )
        return self._merged(agg.version, tenant, turns_raw, res_raw, version)

    def _merged(
        self, version_key: str, tenant: str, turns_raw: Any, res_raw: Any, version: Any
    ) -> dict[str, Any] | None:
        if turns_raw is None:
            return None
        turns = from_json(turns_raw)
        _remember(version_key, turns)
        if turns.get("tenant") != tenant:
            return None
        resolution = from_json(res_raw) if res_raw else None
        return merge_combat(turns, resolution, int(version or 0))

    async def view_to_tell(
        self, combat_id: str, tenant: str
    ) -> tuple[dict[str, Any] | None, Any, dict[Any, Any]]:
        """The combat (as :meth:`view`), with what telling its events takes: the community's
        stored settings and the combat's names (gateway/narration.py), in one round trip."""
        agg = self.keys.combat("turns", combat_id)
        keys = [agg.view_of("turns"), agg.view_of("resolution"), agg.version]

        def build(pipe: Pipeline) -> None:
            _READ_VIEW.queue(pipe, keys, [])
            pipe.get(self.keys.settings(tenant))
            pipe.hgetall(self.keys.combat_names(tenant, combat_id))

        (turns_raw, res_raw, version), settings, names = await run_pipeline(
            self.redis, build, [_READ_VIEW]
        )
        return self._merged(agg.version, tenant, turns_raw, res_raw, version), settings, names

    async def head_and_mark(
        self, combat_id: str, tenant: str, mark: ActionMark
    ) -> tuple[dict[str, Any] | None, str]:
        """:meth:`head`, then keep an action's sent record, queue its command for the combat
        in services/turns (a turn timer that falls due meanwhile does not overtake it:
        shared/runtime/firing.py) and read where the combat's log stands (the id of its
        newest entry, ``0-0`` while it has none: every event of the action is logged after
        it). One round trip once this process has read the combat's view. A combat not found
        keeps no sent record and queues nothing."""
        agg = self.keys.combat("turns", combat_id)
        fixed = _FIXED.get(agg.version)
        known = fixed is not None and fixed[0] == tenant
        combat = None if known else await self.head(combat_id, tenant)
        if not known and combat is None:
            return None, "0-0"
        async with self.redis.pipeline(transaction=False) as pipe:
            if known:
                pipe.get(agg.version)
            pipe.set(mark.sent_key, mark.record, ex=mark.ttl_s)
            pipe.zadd(agg.queued, {mark.command_id: mark.sent_ms})
            pipe.pexpire(agg.queued, QUEUED_TTL_MS)
            pipe.xrevrange(agg.log, count=1)
            replies = await pipe.execute()
        if fixed is not None and known:
            if replies[0] is None:  # expired
                await self.unmark(combat_id, mark)
                return None, "0-0"
            _, room, ruleset = fixed
            combat = {"id": combat_id, "room": room, "ruleset": ruleset, "version": int(replies[0])}
        newest = entries(replies[-1])
        return combat, newest[0][0] if newest else "0-0"

    async def unmark(self, combat_id: str, mark: ActionMark) -> None:
        """Undo :meth:`head_and_mark` for an action refused or never published."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(mark.sent_key)
            pipe.zrem(self.keys.combat("turns", combat_id).queued, mark.command_id)
            await pipe.execute()

    async def chain_events(self, combat_id: str, correlation_id: str, after: str) -> list[Envelope]:
        """The events of one request's chain, in the order they were committed: the combat's
        log entries after ``after`` that carry its correlation id (the others are not parsed)."""
        key = self.keys.combat("turns", combat_id).log
        needle = f'"correlation_id":"{correlation_id}"'.encode()
        found: list[Envelope] = []
        start = f"({after}"
        while True:
            page = entries(await self.redis.xrange(key, start, "+", count=CHAIN_PAGE))
            for _, fields in page:
                raw = fields.get("e", b"")
                raw = raw if isinstance(raw, bytes) else str(raw).encode()
                if needle in raw:
                    env = Envelope.model_validate_json(raw)
                    if env.correlation_id == correlation_id:
                        found.append(env)
            if len(page) < CHAIN_PAGE:
                return found
            start = f"({page[-1][0]}"

    async def quiet_ms(self, combat_id: str, now_ms: int) -> int:
        """How long the combat's log has not grown (a stall's evidence, shared/stalls.py)."""
        key = self.keys.combat("turns", combat_id).log
        last = entries(await self.redis.xrevrange(key, count=1))
        return quiet_ms(last[0][0] if last else None, now_ms)

    async def log(
        self, combat_id: str, *, after: str | None, limit: int
    ) -> list[tuple[str, Envelope]]:
        key = self.keys.combat("turns", combat_id).log
        start = f"({after}" if after else "-"
        reply = await self.redis.xrange(key, start, "+", count=limit)
        return [(sid, Envelope.model_validate_json(f["e"])) for sid, f in entries(reply)]
