"""An action's 200 lists the events of its whole chain (docs/api.md "Actions").

A hit's chain passes through three commits (turns takes the answer, resolution resolves the
hit, turns completes it) and only the last one replies to the gateway (issue 15): the answer
takes the events of the others from the combat's log. Whatever the path, the answer must
hold exactly the events the log keeps for that action, in the order they were committed.
"""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee

pytestmark = [pytest.mark.e2e]


def _chain(events: list[dict[str, object]], action_id: str) -> list[tuple[object, object]]:
    return [(e["id"], e["type"]) for e in events if e["correlation_id"] == action_id]


async def test_a_hit_is_answered_with_every_commit_of_its_chain_in_log_order(
    referee: Referee,
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 10}
    )
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    used = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    answered = await community.react(cid, "bruno", used["action_id"], "Bloqueo")

    types = [e["type"] for e in answered["events"]]
    assert types[0] == "reaction.answered"  # turns' commit of the answer comes first
    assert "action.resolved" in types  # then resolution's
    assert types.index("action.resolved") < len(types) - 1  # then turns' completion
    assert {e["correlation_id"] for e in answered["events"]} == {answered["action_id"]}
    logged = await community.events_of(cid)
    for answer in (used, answered):
        assert [(e["id"], e["type"]) for e in answer["events"]] == _chain(
            logged, answer["action_id"]
        )
