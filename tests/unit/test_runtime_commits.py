"""The commit a decision becomes (shared/runtime/commits.py): the outbox in its order, one
message per destination, the ids derived from the incoming message, and ``final`` and the
reply to the gateway only on the batch that ends the chain."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared.domain import Decision, TimerRequest
from shared.keys import Keys, Names
from shared.messages import Envelope, Event, envelope, read_envelopes
from shared.outbox_entry import ArmTimer, CancelTimer, Publish
from shared.runtime import ServiceSpec, State, Target
from shared.runtime.commits import CommitBuilder

KEYS = Keys("ns")
TARGET = Target(KEYS.combat("turns", "c_1"), "c_1")
NOW = 1_767_261_600_000
OCCURRED = datetime.fromtimestamp(NOW / 1000, UTC)

SPEC = ServiceSpec(
    name="turns",
    handlers={},
    targets=lambda env: [TARGET],
    view=lambda state, now: {"seen": state["n"]},
    is_active=lambda state: True,
    armed_timers=lambda state: [],
    expires=lambda state: bool(state.get("ended")),
)
BUILDER = CommitBuilder(SPEC, Names("ns"), retention_seconds=600)


def command(**payload: object) -> Envelope:
    return envelope(
        "combat.act",
        dict(payload),
        message_id="m_in",
        correlation_id="r_1",
        combat_id="c_1",
        room="plaza",
        tenant="t_1",
        reply_to="ns.gateway.replies.g1",
        occurred_at=OCCURRED,
    )


def built(decision: Decision[State], **payload: object) -> tuple[list[object], list[Envelope]]:
    commit = BUILDER.build(command(**payload), TARGET, 3, decision, NOW, OCCURRED)
    events = [
        env
        for e in commit.outbox
        if isinstance(e, Publish) and e.exchange != ""  # every copy but the reply
        for env in read_envelopes(e.type, e.body)
    ]
    return list(commit.outbox), list({e.message_id: e for e in events}.values())


def test_cancels_then_arms_then_one_message_per_destination_then_the_reply() -> None:
    decision: Decision[State] = Decision(
        {"n": 1},
        [Event("turn.ended", {"actor": "ana"}), Event("action.declared", {"attacker": "ana"})],
        arm=[TimerRequest("c_1:t2", NOW + 1000, "turn")],
        cancel=["c_1:t1"],
    )
    outbox, _ = built(decision)
    assert outbox[0] == CancelTimer("c_1:t1", owner="combat:c_1")  # the combat's timer shard
    armed = outbox[1]
    assert isinstance(armed, ArmTimer) and armed.timer_id == "c_1:t2"
    assert armed.owner == "combat:c_1"
    assert (armed.payload["room"], armed.payload["tag"], armed.payload["subject"]) == (
        "plaza",
        "combat:c_1",
        "c_1",
    )
    publishes = [e for e in outbox[2:] if isinstance(e, Publish)]
    routes = [(e.exchange, e.routing_key, e.type) for e in publishes]
    assert routes == [
        ("ns.events", "events.batch", "events.batch"),
        ("ns.resolution.commands", "plaza", "events.batch"),
        ("ns.states.commands", "plaza", "action.declared"),  # one event goes alone
        ("", "ns.gateway.replies.g1", "reply.batch"),
    ]
    carried = [[env.type for env in read_envelopes(e.type, e.body)] for e in publishes]
    assert carried[:3] == [
        ["turn.ended", "action.declared"],
        ["turn.ended", "action.declared"],
        ["action.declared"],
    ]
    reply = outbox[-1]
    assert isinstance(reply, Publish) and not reply.mandatory
    assert len({e.message_id for e in publishes}) == len(publishes)


def test_without_batches_each_event_goes_alone_to_each_destination() -> None:
    """REFEREE_EVENT_BATCHES=false, for a rolling upgrade from a version without batches."""
    alone = CommitBuilder(SPEC, Names("ns"), retention_seconds=600, batches=False)
    decision: Decision[State] = Decision(
        {"n": 1}, [Event("turn.ended", {"actor": "ana"}), Event("action.declared", {})]
    )
    commit = alone.build(command(), TARGET, 3, decision, NOW, OCCURRED)
    routes = [(e.exchange, e.routing_key, e.type) for e in commit.outbox if isinstance(e, Publish)]
    assert routes == [
        ("ns.events", "turn.ended", "turn.ended"),
        ("ns.events", "action.declared", "action.declared"),
        ("ns.resolution.commands", "plaza", "turn.ended"),
        ("ns.resolution.commands", "plaza", "action.declared"),
        ("ns.states.commands", "plaza", "action.declared"),
        ("", "ns.gateway.replies.g1", "reply.batch"),
    ]


@pytest.mark.parametrize(
    ("types", "finals"),
    [
        (["turn.ended", "turn.started"], [False, True]),
        (["action.declared", "resolution.requested"], [False, False]),
        (["action.resolved"], [False]),
    ],
    ids=["ends-the-chain", "hands-over-to-resolution", "hands-back-to-turns"],
)
def test_only_the_last_event_of_a_batch_that_ends_the_chain_is_final(
    types: list[str], finals: list[bool]
) -> None:
    _, events = built(Decision({"n": 1}, [Event(t, {}) for t in types]))
    by_id = {e.message_id: e for e in events}
    assert [e.final for e in by_id.values()] == finals


def test_every_id_is_derived_so_a_retried_commit_mints_the_same_messages() -> None:
    decision: Decision[State] = Decision({"n": 1}, [Event("turn.started", {"actor": "ana"})])
    first, _ = built(decision)
    again, _ = built(decision)
    assert first == again
    _, events = built(decision)
    event = events[0]
    assert (event.causation_id, event.correlation_id, event.occurred_at) == (
        "m_in",
        "r_1",
        OCCURRED,
    )
    assert event.reply_to == "ns.gateway.replies.g1"


def test_if_match_view_and_retention_come_from_the_command_and_the_state() -> None:
    running = BUILDER.build(command(if_match=7), TARGET, 3, Decision({"n": 1}), NOW, OCCURRED)
    assert (running.if_match, running.view, running.ttl_seconds) == (7, {"seen": 1}, 0)
    ended = BUILDER.build(command(), TARGET, 3, Decision({"n": 2, "ended": True}), NOW, OCCURRED)
    assert (ended.if_match, ended.ttl_seconds, ended.expected_version) == (None, 600, 3)
    assert ended.outbox == [] and ended.log == []


@pytest.mark.parametrize(
    ("types", "replies"),
    [
        (["turn.ended", "turn.started"], 1),
        (["reaction.answered", "resolution.requested"], 0),
        (["action.resolved"], 0),
    ],
    ids=["ends-the-chain", "hands-over-to-resolution", "hands-back-to-turns"],
)
def test_only_the_commit_that_ends_the_chain_replies_to_the_gateway(
    types: list[str], replies: int
) -> None:
    """Issue 15: a hit is one reply, not one per commit; the gateway reads the earlier
    commits' events from the combat's log."""
    outbox, _ = built(Decision({"n": 1}, [Event(t, {}) for t in types]))
    sent = [e for e in outbox if isinstance(e, Publish) and e.exchange == ""]
    assert len(sent) == replies
