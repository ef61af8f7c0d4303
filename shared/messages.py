"""The message envelope and the catalogue of message types.

Every message on the bus is an :class:`Envelope` (pydantic, frozen, ``extra="forbid"``)
serialised as JSON. Commands are imperative (``combat.start``), events are past tense
(``turn.started``). Inside the domains, events are the plain :class:`Event` dataclass; the
service runtime wraps them in envelopes when it commits them.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

SCHEMA_VERSION: Final = 1

SERVICES: Final = ("turns", "resolution", "states")


class Envelope(BaseModel):
    """One message on the bus (docs/DESIGN.md "One command, end to end")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    message_id: str
    type: str
    correlation_id: str
    causation_id: str | None = None
    combat_id: str | None = None
    room: str
    tenant: str
    occurred_at: datetime
    schema_version: int = SCHEMA_VERSION
    # False while the chain that a gateway request started goes on in another service
    # (see CHAIN_EVENTS); the gateway answers the request on the first final message.
    final: bool = True
    # The queue of the gateway instance waiting for this chain, carried along the chain.
    reply_to: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict)

    def to_json(self) -> bytes:
        return self.model_dump_json().encode()

    @classmethod
    def from_json(cls, raw: bytes | str) -> Envelope:
        return cls.model_validate_json(raw)


def envelope(
    type_: str,
    payload: dict[str, Any],
    *,
    message_id: str,
    cause: Envelope | None = None,
    correlation_id: str | None = None,
    combat_id: str | None = None,
    room: str | None = None,
    tenant: str | None = None,
    final: bool = True,
    reply_to: str | None = None,
    occurred_at: datetime | None = None,
) -> Envelope:
    """Every envelope the suite sends is built here.

    A message caused by another one (an event of a commit, a rejection, a query's answer)
    names its ``cause``: it inherits the cause's correlation id, combat, room, tenant and
    ``reply_to`` (so the waiting gateway hears the whole chain) and gets it as causation id;
    an argument given here wins over what it inherits. A message nothing caused (a gateway
    command, a fired timer) names its correlation id, room and tenant itself.
    """
    if cause is not None:
        correlation_id = correlation_id or cause.correlation_id
        combat_id = combat_id or cause.combat_id
        room = room or cause.room
        tenant = tenant or cause.tenant
        reply_to = reply_to or cause.reply_to
    if correlation_id is None or room is None or tenant is None:
        raise ValueError("an envelope without a cause names its correlation id, room and tenant")
    return Envelope(
        message_id=message_id,
        type=type_,
        correlation_id=correlation_id,
        causation_id=None if cause is None else cause.message_id,
        combat_id=combat_id,
        room=room,
        tenant=tenant,
        occurred_at=occurred_at or utcnow(),
        final=final,
        reply_to=reply_to,
        payload=payload,
    )


@dataclass(frozen=True)
class Event:
    """A fact produced by a domain function: its type and its JSON-ready payload."""

    type: str
    payload: dict[str, Any] = field(default_factory=dict)


def new_id(prefix: str) -> str:
    """A fresh identifier such as ``c_3f2a...`` (combat), ``a_...`` (action), ``m_...``."""
    return f"{prefix}_{uuid.uuid4().hex}"


def derived_id(prefix: str, *parts: str) -> str:
    """A deterministic identifier: the same parts always give the same id.

    Used for the messages a commit produces (so a retried commit cannot mint new ones) and
    for timer firings (so a timer fired twice is recognised as the same message).
    """
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]
    return f"{prefix}_{digest}"


def utcnow() -> datetime:
    return datetime.now(UTC)


# --- commands (imperative) -----------------------------------------------------------
CMD_COMBAT_START: Final = "combat.start"
CMD_COMBAT_ACT: Final = "combat.act"
CMD_TIMER_FIRED: Final = "timer.fired"
QUERY_STATES_CHECK: Final = "states.check"
STATES_CHECKED: Final = "states.checked"

# Read-only queries a service answers straight to the asker, and their answer type.
QUERY_ANSWERS: Final[dict[str, str]] = {QUERY_STATES_CHECK: STATES_CHECKED}

# --- events (past tense) -------------------------------------------------------------
COMBAT_STARTED: Final = "combat.started"
COMBAT_PHASE_CHANGED: Final = "combat.phase_changed"
COMBAT_ENDED: Final = "combat.ended"
COMBAT_RESUMED: Final = "combat.resumed"
ROUND_STARTED: Final = "round.started"
ROUND_ENDED: Final = "round.ended"
TURN_STARTED: Final = "turn.started"
TURN_ENDED: Final = "turn.ended"
TURN_TIMED_OUT: Final = "turn.timed_out"
TURN_PAUSED: Final = "turn.paused"
TURN_RESUMED: Final = "turn.resumed"
ACTION_DECLARED: Final = "action.declared"
REACTION_REQUESTED: Final = "reaction.requested"
REACTION_ANSWERED: Final = "reaction.answered"
REACTION_TIMED_OUT: Final = "reaction.timed_out"
RESOLUTION_REQUESTED: Final = "resolution.requested"
ACTION_RESOLVED: Final = "action.resolved"
ACTION_COMPLETED: Final = "action.completed"
EFFECT_APPLIED: Final = "effect.applied"
EFFECT_EXPIRED: Final = "effect.expired"
COMBATANT_DOWN: Final = "combatant.down"
COMBATANT_JOINED: Final = "combatant.joined"
COMBATANT_FLED: Final = "combatant.fled"
AFTERMATH_APPLIED: Final = "aftermath.applied"
CONDITION_CARRIED: Final = "condition.carried"  # internal: umh 4.1.7, resolution -> states
ITEM_STOLEN: Final = "item.stolen"  # umh 4.2.5: turns -> states, frontends
COMBATANT_DISCONNECTED: Final = "combatant.disconnected"
COMBATANT_RECONNECTED: Final = "combatant.reconnected"
JOIN_REQUESTED: Final = "join.requested"
JOIN_VETOED: Final = "join.vetoed"

# --- services/states commands from the gateway (issue: the umh aftermath) ---
CMD_POST_COMBAT: Final = "aftermath.post_combat"
CMD_MODERATE: Final = "aftermath.moderate"
CMD_REQUIREMENT: Final = "aftermath.requirement"
# A ruleset's own command on a character out of combat (``<ruleset>.<name>`` in ``command``).
CMD_CHARACTER: Final = "character.command"
COMMAND_REJECTED: Final = "command.rejected"
DICE_ROLLED: Final = "dice.rolled"
DICE_SEEDED: Final = "combat.dice_seeded"  # internal: the secret seed, for the other services

# The message type of a reply that carries a commit's public events as a JSON array.
REPLY_BATCH: Final = "reply.batch"
# The message type of a commit's events to one destination (the events exchange, or one
# service's commands), as a JSON array in order: one message per destination per commit.
EVENTS_BATCH: Final = "events.batch"
BATCHES: Final = frozenset({REPLY_BATCH, EVENTS_BATCH})


# A batch parsed and validated in one pass (pydantic's parser, not json.loads then a model
# per item): every service and the gateway read one per commit they hear from.
_BATCH: Final[TypeAdapter[list[Envelope]]] = TypeAdapter(list[Envelope])


def read_envelopes(type_: str | None, body: bytes | str) -> list[Envelope]:
    """The envelopes of one message: a batch (a JSON array, in order) or a single one.

    Raises ``ValueError`` (pydantic's ``ValidationError`` is one) on a malformed message.
    """
    if type_ in BATCHES:
        return _BATCH.validate_json(body)
    return [Envelope.from_json(body)]


# Events that hand a gateway request over to another service: a batch that contains one
# of them is not final, the service that consumes it finishes the chain.
CHAIN_EVENTS: Final = frozenset({RESOLUTION_REQUESTED, ACTION_RESOLVED})

# Events that only services consume: not in the public stream nor in the combat log.
INTERNAL_EVENTS: Final = frozenset({RESOLUTION_REQUESTED, DICE_SEEDED, CONDITION_CARRIED})

# Which events each service consumes besides its own commands. The outbox relay delivers
# them to the service's command exchange with the room as routing key, so they are
# partitioned and ordered per room exactly like commands.
SUBSCRIPTIONS: Final[dict[str, frozenset[str]]] = {
    # turns mirrors the condition that decides who may act (downs, crowd control, states).
    "turns": frozenset({ACTION_RESOLVED, COMBATANT_DOWN, EFFECT_APPLIED, EFFECT_EXPIRED}),
    # resolution counts general actions (durations, damage over time) and ends of own turns
    # (regenerations, umh 2.3.6), and ends what a fighter who flees keeps up (umh 4.1.1.1,
    # 4.1.5).
    "resolution": frozenset(
        {
            COMBAT_STARTED,
            DICE_SEEDED,
            COMBATANT_JOINED,
            COMBATANT_FLED,
            RESOLUTION_REQUESTED,
            COMBAT_ENDED,
            ACTION_DECLARED,
            TURN_STARTED,
            TURN_ENDED,
        }
    ),
    # states keeps what outlives the combat: who fled, who received a state, weekly uses,
    # offensive actions that cancel an immunity (umh 4.2.1, 4.2.2), what a fighter carries
    # into his next combat (umh 4.1.7), items stolen in combat (umh 4.2.5).
    "states": frozenset(
        {
            COMBAT_STARTED,
            COMBATANT_JOINED,
            COMBAT_ENDED,
            COMBATANT_FLED,
            ACTION_DECLARED,
            EFFECT_APPLIED,
            CONDITION_CARRIED,
            ITEM_STOLEN,
        }
    ),
}


# What a service leaves unused, for combats of one ruleset, of the events it subscribes to:
# those are not sent to it (issue 15: each cost a delivery, a load and a parse that changed
# nothing). cypher and l5r resolve a hit from its request and keep no durations, ticks,
# regenerations or joiners in services/resolution; their records in services/states follow
# only a combat's start and end. tests/unit/test_unused_events.py holds each entry to it.
_RESOLVES_ONLY: Final = frozenset(
    {ACTION_DECLARED, TURN_STARTED, TURN_ENDED, COMBATANT_JOINED, COMBATANT_FLED}
)
_STARTS_AND_ENDS_ONLY: Final = frozenset(
    {
        ACTION_DECLARED,
        COMBATANT_JOINED,
        COMBATANT_FLED,
        EFFECT_APPLIED,
        CONDITION_CARRIED,
        ITEM_STOLEN,
    }
)
UNUSED: Final[dict[tuple[str, str], frozenset[str]]] = {
    ("resolution", "cypher"): _RESOLVES_ONLY,
    ("resolution", "l5r"): _RESOLVES_ONLY,
    ("states", "cypher"): _STARTS_AND_ENDS_ONLY,
    ("states", "l5r"): _STARTS_AND_ENDS_ONLY,
}


def subscribers_of(event_type: str, ruleset: str = "") -> list[str]:
    """The services that consume an event type, in a stable order; with ``ruleset`` (the
    combat's), only those that use it in a combat of that ruleset."""
    return [
        name
        for name in SERVICES
        if event_type in SUBSCRIPTIONS[name]
        and event_type not in UNUSED.get((name, ruleset), frozenset())
    ]


# Which service owns each gateway command.
COMMAND_OWNER: Final[dict[str, str]] = {
    CMD_COMBAT_START: "turns",
    CMD_COMBAT_ACT: "turns",
    QUERY_STATES_CHECK: "states",
    CMD_POST_COMBAT: "states",
    CMD_MODERATE: "states",
    CMD_REQUIREMENT: "states",
    CMD_CHARACTER: "states",
}
