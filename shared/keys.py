"""Every Redis key and RabbitMQ name of the suite, in one place.

All names start with the namespace (``REFEREE_NAMESPACE``), so several suites share one
broker and one Redis. Keys that a Lua script touches together share a Redis Cluster hash
tag: ``{combat:<id>}`` for a combat, ``{char:<tenant>:<id>}`` for a character's aftermath,
``{tenant:<id>}`` for a community's own records.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TimerKeys:
    """The keys of one timer shard (``shared/timers.py``): they share one hash tag, so every
    timer script touches one Redis Cluster slot."""

    due: str  # sorted set: timer id -> due time (or lease end while claimed)
    payload: str  # hash: timer id -> what its firing carries
    fired: str  # sorted set: the recently fired ids (the reconciler's guard)

    @property
    def all(self) -> list[str]:
        return [self.due, self.payload, self.fired]


@dataclass(frozen=True)
class Aggregate:
    """The keys of one consistency unit: its state, records and outbox share a slot."""

    ns: str
    service: str
    tag: str  # the hash tag body, e.g. "combat:c_123"

    @property
    def base(self) -> str:
        return f"{self.ns}:{{{self.tag}}}"

    @property
    def state(self) -> str:
        return f"{self.base}:state:{self.service}"

    @property
    def seen(self) -> str:
        """The processed-message record: digests and times, one string (shared/store.py)."""
        return f"{self.base}:seen:{self.service}"

    @property
    def processed(self) -> str:
        """The former processed-message record, a sorted set of message ids: still read (a
        message processed before an upgrade stays processed) until it expires."""
        return f"{self.base}:processed:{self.service}"

    @property
    def outbox(self) -> str:
        return f"{self.base}:outbox:{self.service}"

    @property
    def version(self) -> str:
        """A counter that every service's commit on this aggregate increments."""
        return f"{self.base}:version"

    @property
    def log(self) -> str:
        """The audit log stream shared by the services writing this aggregate."""
        return f"{self.base}:log"

    @property
    def view(self) -> str:
        return f"{self.base}:view:{self.service}"

    def view_of(self, service: str) -> str:
        return f"{self.base}:view:{service}"

    @property
    def lock(self) -> str:
        return f"{self.outbox}:lock"

    @property
    def queued(self) -> str:
        """The messages queued for this aggregate in its service's partition that a fired
        timer must not overtake: a sorted set of message ids by when they were queued
        (Unix ms). The gateway adds an action before it sends it, a timer sent through the
        partition adds itself, and the service removes a message once it handled it
        (shared/runtime/firing.py)."""
        return f"{self.base}:queued:{self.service}"


class Keys:
    """Names derived from one namespace."""

    def __init__(self, ns: str) -> None:
        self.ns = ns

    # --- aggregates ---
    def combat(self, service: str, combat_id: str) -> Aggregate:
        return Aggregate(self.ns, service, f"combat:{combat_id}")

    def character(self, service: str, tenant: str, character_id: str) -> Aggregate:
        return Aggregate(self.ns, service, f"char:{tenant}:{character_id}")

    # --- service infrastructure ---
    def outbox_dirty(self, service: str) -> str:
        return f"{self.ns}:outbox-dirty:{service}"

    def timer_shards(self, service: str, shards: int) -> list[TimerKeys]:
        """A service's timer shards (``REFEREE_TIMER_SHARDS``), each with its own hash tag.
        Shard 0 keeps the name of the former one-set layout, ``{timers:<service>}``."""
        if shards < 1:
            raise ValueError(f"a service has at least one timer shard, not {shards}")
        return [
            self._timer_keys(f"timers:{service}" + (f":{i}" if i else "")) for i in range(shards)
        ]

    def _timer_keys(self, tag: str) -> TimerKeys:
        base = f"{self.ns}:{{{tag}}}"
        return TimerKeys(due=f"{base}:due", payload=f"{base}:payload", fired=f"{base}:fired")

    def active_combats(self, service: str) -> str:
        return f"{self.ns}:active:{service}"

    def heartbeat(self, service: str) -> str:
        return f"{self.ns}:heartbeat:{service}"

    def isolated_rooms(self, service: str) -> str:
        """Set: the rooms ``shared.ops isolate`` gave a queue of their own (drop-namespace)."""
        return f"{self.ns}:isolated-rooms:{service}"

    # --- gateway: tenants and keys ---
    def communities(self) -> str:
        return f"{self.ns}:communities"

    def api_keys(self) -> str:
        """Hash: sha256(api key) -> JSON {key_id, community_id, scope}."""
        return f"{self.ns}:api-keys"

    def community_keys(self, tenant: str) -> str:
        """Hash: key_id -> sha256(api key), the keys of one community."""
        return f"{self.ns}:{{tenant:{tenant}}}:keys"

    def rate_bucket(self, key_id: str) -> str:
        """The token bucket of one API key (gateway/ratelimit.py)."""
        return f"{self.ns}:ratelimit:{key_id}"

    def auth_failures(self, address: str) -> str:
        """The bucket of failed authentications of one client address (gateway/throttle.py)."""
        return f"{self.ns}:authfail:{address}"

    def settings(self, tenant: str) -> str:
        return f"{self.ns}:{{tenant:{tenant}}}:settings"

    def cors_origins(self, tenant: str) -> str:
        """Set: the browser origins the community allows (its settings' ``cors.origins``)."""
        return f"{self.ns}:{{tenant:{tenant}}}:cors"

    def cors_origin(self, origin: str) -> str:
        """Set: the communities that allow one browser origin (what a preflight asks)."""
        return f"{self.ns}:cors-origin:{origin}"

    def stream_token(self, token_hash: str) -> str:
        """A stream token's grant (gateway/stream_tokens.py), expiring with the token."""
        return f"{self.ns}:stream-token:{token_hash}"

    def webhooks(self, tenant: str) -> str:
        """Hash: webhook id -> its registration (gateway/webhooks/store.py)."""
        return f"{self.ns}:{{tenant:{tenant}}}:webhooks"

    def webhook_deliveries(self, tenant: str, webhook_id: str) -> str:
        """Sorted set: a webhook's delivery ids by creation time."""
        return f"{self.ns}:{{tenant:{tenant}}}:webhook:{webhook_id}:deliveries"

    def webhook_failed(self, tenant: str, webhook_id: str) -> str:
        """Sorted set: a webhook's failed delivery ids by the time they failed."""
        return f"{self.ns}:{{tenant:{tenant}}}:webhook:{webhook_id}:failed"

    def webhook_delivery(self, tenant: str, delivery_id: str) -> str:
        """A delivery's record: the event, its attempts, its status."""
        return f"{self.ns}:{{tenant:{tenant}}}:delivery:{delivery_id}"

    def webhook_schedule(self) -> TimerKeys:
        """The keys of the :class:`shared.timers.TimerStore` of the deliveries that are due
        (one schedule, one shard, for every community)."""
        return self._timer_keys("webhooks")

    def character_sheet(self, tenant: str, character_id: str) -> str:
        return f"{self.ns}:{{tenant:{tenant}}}:character:{character_id}"

    def idempotency(self, tenant: str, key_hash: str) -> str:
        return f"{self.ns}:{{tenant:{tenant}}}:idem:{key_hash}"

    def combats_index(self, tenant: str) -> str:
        """Sorted set of the community's combat ids by start time."""
        return f"{self.ns}:{{tenant:{tenant}}}:combats"

    def characters_index(self, tenant: str) -> str:
        """Sorted set (all scores 0, ordered by id): the community's character ids."""
        return f"{self.ns}:{{tenant:{tenant}}}:characters"

    def rooms_index(self, tenant: str) -> str:
        """Sorted set (all scores 0, ordered by name): the rooms a combat was started in."""
        return f"{self.ns}:{{tenant:{tenant}}}:rooms"

    def room_index(self, tenant: str, room: str) -> str:
        return f"{self.ns}:{{tenant:{tenant}}}:room:{room}"

    def events_stream(self, tenant: str) -> str:
        """The community's public event stream (SSE, ``Last-Event-ID``)."""
        return f"{self.ns}:{{tenant:{tenant}}}:events"

    def events_seen(self, tenant: str) -> str:
        return f"{self.ns}:{{tenant:{tenant}}}:events-seen"

    def combat_names(self, tenant: str, combat_id: str) -> str:
        """Who is who in a combat (character id -> sheet name, ``@ruleset``), for narration."""
        return f"{self.ns}:{{tenant:{tenant}}}:names:{combat_id}"

    def outcome(self, tenant: str, correlation_id: str) -> str:
        """A command's rejection, kept for polling after a 202."""
        return f"{self.ns}:{{tenant:{tenant}}}:outcome:{correlation_id}"

    def action_sent(self, tenant: str, action_id: str) -> str:
        """The combat an action id was sent to (an id nobody sent is unknown: 404)."""
        return f"{self.ns}:{{tenant:{tenant}}}:action:{action_id}"


class Names:
    """RabbitMQ exchange and queue names derived from one namespace."""

    def __init__(self, ns: str) -> None:
        self.ns = ns

    def commands(self, service: str) -> str:
        """The direct exchange a service's commands are published to (routing key: room)."""
        return f"{self.ns}.{service}.commands"

    def commands_hash(self, service: str) -> str:
        """Its alternate exchange: consistent hash over the partitions."""
        return f"{self.ns}.{service}.commands.hash"

    def partition(self, service: str, index: int) -> str:
        return f"{self.ns}.{service}.p{index:03d}"

    def room_queue(self, service: str, room: str) -> str:
        """The queue of an isolated room."""
        return f"{self.ns}.{service}.room.{room}"

    def events(self) -> str:
        """The topic exchange of public events (routing key: event type)."""
        return f"{self.ns}.events"

    def dead_letters(self) -> str:
        return f"{self.ns}.dlx"

    def dead_queue(self, service: str) -> str:
        return f"{self.ns}.{service}.dead"

    def gateway_recorder(self) -> str:
        return f"{self.ns}.gateway.recorder"

    def gateway_replies(self, instance: str) -> str:
        return f"{self.ns}.gateway.replies.{instance}"
