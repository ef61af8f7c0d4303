"""The outbox entry: typed records in code, the compact stored form in Redis.

Entries written by a process of an earlier version may still wait in an outbox when the
new one starts (or be read by an older replica during a rolling upgrade): the stored form is
the one the suite always wrote, and reading it gives the same records.
"""

from __future__ import annotations

import json

import pytest

from shared.outbox_entry import (
    ArmTimer,
    CancelTimer,
    OutboxEntry,
    Publish,
    dump_entry,
    load_entry,
)

STORED_BY_EARLIER_VERSIONS: list[tuple[str, OutboxEntry]] = [
    (
        '{"k":"pub","x":"ns.events","r":"turn.started","b":"{}","id":"m_1","c":"r_1",'
        '"t":"turn.started","m":true}',
        Publish("ns.events", "turn.started", "{}", "m_1", "r_1", "turn.started", True),
    ),
    (
        '{"k":"pub","x":"","r":"ns.gateway.replies.x","b":"[]","id":"m_2","c":"r_1",'
        '"t":"reply.batch","m":false}',
        Publish("", "ns.gateway.replies.x", "[]", "m_2", "r_1", "reply.batch", False),
    ),
    (
        '{"k":"arm","id":"c1:turn:1","due":1000,"p":{"kind":"turn","room":"plaza"}}',
        ArmTimer("c1:turn:1", 1000, {"kind": "turn", "room": "plaza"}),
    ),
    ('{"k":"cancel","id":"c1:turn:1"}', CancelTimer("c1:turn:1")),
]


@pytest.mark.parametrize(
    ("stored", "entry"), STORED_BY_EARLIER_VERSIONS, ids=["publish", "reply", "arm", "cancel"]
)
def test_the_stored_form_is_the_one_earlier_versions_wrote(stored: str, entry: OutboxEntry) -> None:
    assert load_entry(stored) == entry
    assert json.loads(dump_entry(entry)) == json.loads(stored)


def test_a_publish_without_the_optional_keys_is_mandatory_and_untyped() -> None:
    entry = load_entry('{"k":"pub","x":"ns.events","r":"k","b":"{}","id":"m_1"}')
    assert entry == Publish("ns.events", "k", "{}", "m_1", None, None, True)


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown outbox entry kind"):
        load_entry('{"k":"teleport","id":"x"}')


def test_a_cancel_names_its_timers_owner_which_picks_the_timer_shard() -> None:
    entry = CancelTimer("c1:turn:1", owner="combat:c1")
    assert dump_entry(entry) == '{"k":"cancel","id":"c1:turn:1","g":"combat:c1"}'
    assert load_entry(dump_entry(entry)) == entry
    assert ArmTimer("c1:turn:1", 1000, {"tag": "combat:c1"}).owner == "combat:c1"
