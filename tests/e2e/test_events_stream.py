"""docs/api.md "Events": the SSE stream, and resuming it with ``Last-Event-ID``."""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee, read_sse, stream_position
from tests.support.play import Sse, of_type
from tests.support.sheets import JSON

pytestmark = [pytest.mark.e2e]


def is_turn(sse: Sse, actor: str, round_: int) -> bool:
    return (
        sse.event == "turn.started"
        and sse.data["data"]["actor"] == actor
        and sse.data["data"]["round"] == round_
    )


async def test_reconnecting_with_last_event_id_delivers_exactly_the_missed_events(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    params = {"combat": cid}

    # First connection: everything up to ana's first turn, then the client goes away.
    seen = await read_sse(
        community.client,
        params=params,
        last_event_id="0-0",
        until=lambda got: is_turn(got[-1], "ana", 1),
        within=10,
    )
    assert seen[0].event == "combat.started"
    for sse in seen:
        assert sse.event == sse.data["type"]
        assert sse.data["combat_id"] == cid

    # Meanwhile: a skill (turns, then resolution, then turns again) and two passes.
    await community.use_skill(cid, "ana", "Concentración")
    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "bruno")
    log = await community.wait_events(
        cid,
        lambda evs: any(
            e["data"].get("actor") == "ana" and e["data"].get("round") == 2
            for e in of_type(evs, "turn.started")
        ),
        what="ana's turn in round 2",
    )
    ids = [e["id"] for e in log]
    missed: list[JSON] = log[ids.index(seen[-1].data["id"]) + 1 :]
    assert [e["type"] for e in missed] == [
        "action.declared",
        "action.resolved",  # committed by services/resolution
        "action.completed",
        "turn.ended",
        "turn.started",
        "turn.ended",
        "round.ended",
        "round.started",
        "turn.started",
    ]

    # Second connection from the last id received: exactly the missed events, in order.
    resumed = await read_sse(
        community.client,
        params=params,
        last_event_id=seen[-1].id,
        until=lambda got: len(got) >= len(missed),
        within=10,
    )
    assert [sse.data["id"] for sse in resumed] == [e["id"] for e in missed]
    assert [sse.event for sse in resumed] == [e["type"] for e in missed]
    assert [sse.data for sse in resumed] == [
        {k: v for k, v in e.items() if k != "log_id"} for e in missed
    ]
    assert not {sse.data["id"] for sse in resumed} & {sse.data["id"] for sse in seen}
    positions = [stream_position(sse.id) for sse in [*seen, *resumed]]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)

    # The same resume through the ``since`` query parameter gives the same events.
    again = await read_sse(
        community.client,
        params={**params, "since": seen[-1].id},
        until=lambda got: len(got) >= len(missed),
        within=10,
    )
    assert [sse.id for sse in again] == [sse.id for sse in resumed]
