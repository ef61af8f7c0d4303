"""The fan-out's audience (gateway/fanout.py, docs/DESIGN.md "Scale and placement"): an
event is offered only to the viewers who may want it, so a viewer of a quiet combat is never
woken, nor dropped, by the events of the community's busy combats."""

from __future__ import annotations

import asyncio

import pytest

from gateway.fanout import Audience, Entry, Narrow, Viewer, offer_all


def _viewer(narrow: Narrow, size: int = 10) -> Viewer:
    return Viewer("t_1", "0-0", asyncio.Queue(size), narrow=narrow)


def _entry(n: int, room: str, combat_id: str | None) -> Entry:
    return Entry(f"{n}-0", "turn.started", room, combat_id)


NARROWS = [
    ("whole community", Narrow(), {("plaza", "c_1"), ("plaza", "c_2"), ("bosque", "c_3")}),
    ("one combat", Narrow(combat="c_1"), {("plaza", "c_1")}),
    ("one room", Narrow(room="plaza"), {("plaza", "c_1"), ("plaza", "c_2")}),
    ("a token's rooms", Narrow(rooms=frozenset({"bosque", "cueva"})), {("bosque", "c_3")}),
    (
        "a room of a token's rooms",
        Narrow(room="plaza", rooms=frozenset({"plaza"})),
        {("plaza", "c_1"), ("plaza", "c_2")},
    ),
    ("a room outside a token's rooms", Narrow(room="plaza", rooms=frozenset({"bosque"})), set()),
    ("a combat in another room", Narrow(room="bosque", combat="c_1"), set()),
]


@pytest.mark.parametrize(("what", "narrow", "wanted"), NARROWS, ids=[n[0] for n in NARROWS])
def test_a_viewer_gets_exactly_the_events_of_its_narrow_each_once(
    what: str, narrow: Narrow, wanted: set[tuple[str, str]]
) -> None:
    audience = Audience()
    viewer = _viewer(narrow)
    audience.add(viewer)
    audience.add(viewer)  # twice: still one place
    entries = [_entry(1, "plaza", "c_1"), _entry(2, "plaza", "c_2"), _entry(3, "bosque", "c_3")]
    offer_all(audience, entries)
    got = []
    while not viewer.queue.empty():
        entry = viewer.queue.get_nowait()
        assert entry is not None
        got.append((entry.room, entry.combat_id))
    assert len(got) == len(set(got))
    assert set(got) == wanted
    assert all(narrow.wants(_entry(0, room, combat)) for room, combat in got)


def test_a_quiet_combats_viewer_is_not_dropped_by_a_busy_one() -> None:
    audience = Audience()
    quiet = _viewer(Narrow(combat="c_quiet"), size=10)
    everything = _viewer(Narrow(), size=10)
    for viewer in (quiet, everything):
        audience.add(viewer)
    offer_all(audience, [_entry(n, "plaza", "c_busy") for n in range(1, 1001)])
    assert not quiet.dropped and quiet.queue.empty()
    assert everything.dropped  # nobody read its queue: it fell a whole queue behind


def test_viewers_leave_without_a_trace() -> None:
    audience = Audience()
    viewers = [
        _viewer(Narrow(combat="c_1")),
        _viewer(Narrow(rooms=frozenset({"plaza", "bosque"}))),
        _viewer(Narrow()),
    ]
    for viewer in viewers:
        audience.add(viewer)
    assert len(audience) == 3 and all(v in audience for v in viewers)
    for viewer in viewers:
        audience.discard(viewer)
        audience.discard(viewer)
    assert len(audience) == 0 and not any(v in audience for v in viewers)
    assert list(audience.of(_entry(1, "plaza", "c_1"))) == []
    assert not audience._by_room and not audience._by_combat


def test_an_ended_stream_gets_its_end_mark_after_what_is_queued_even_when_full() -> None:
    audience = Audience()
    viewers = [_viewer(Narrow(combat="c_1"), size=3), _viewer(Narrow(), size=3)]
    for viewer in viewers:
        audience.add(viewer)
    offer_all(audience, [_entry(1, "plaza", "c_1"), _entry(2, "plaza", "c_1")])
    assert set(audience.everyone()) == set(viewers)
    for viewer in audience.everyone():
        viewer.end()
        viewer.end()  # twice: one end mark
    offer_all(audience, [_entry(3, "plaza", "c_1")])  # after the end: not queued
    for viewer in viewers:
        got = [viewer.queue.get_nowait() for _ in range(viewer.queue.qsize())]
        assert [e.id if e else None for e in got] == ["1-0", "2-0", None]
    crowded = _viewer(Narrow(), size=2)
    crowded.offer(_entry(5, "plaza", "c_1"))
    crowded.offer(_entry(6, "plaza", "c_1"))
    crowded.end()  # full: the oldest entry makes room for the mark
    assert [crowded.queue.get_nowait() for _ in range(2)][-1] is None
