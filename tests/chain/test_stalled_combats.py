"""A stalled combat in the chain (issue 18): the reconciler of services/turns reports it once
(``combat_stalled`` with the log's quiet time and its last events, the gauge), a moderator
resumes it through the gateway's route, and the combat goes on in simulated time.

The stall is made by the test, as in ``tests/e2e/test_stalled_combats.py``: with bruno's
defense window open (ana's clock paused), the window and its timer leave the stored state.
"""

from __future__ import annotations

import json

from prometheus_client import REGISTRY
from structlog.testing import capture_logs

from shared.outbox_entry import CancelTimer
from tests.support.chain import Chain
from tests.support.gateway_routes import CHAIN_MODERATOR_KEY
from tests.support.play import error_of, types_of
from tests.support.steps import RESUME, resume_refusals, strand
from tests.support.table import ChainReferee

HOUR_MS = 3_600_000


async def strand_in(chain: Chain, combat_id: str) -> list[str]:
    """:func:`strand` the combat's stored state, and cancel its timers in the timer set."""
    agg = chain.keys.combat("turns", combat_id)
    version, raw = chain.data.states[agg.state]
    state = json.loads(raw)
    timers = strand(state)
    chain.data.states[agg.state] = (version, json.dumps(state))
    await chain.timers["turns"].apply([CancelTimer(timer_id) for timer_id in timers])
    return timers


def gauge() -> float | None:
    return REGISTRY.get_sample_value("referee_stalled_combats", {"service": "turns"})


async def test_a_stalled_combat_is_reported_once_then_resumed_by_a_moderator(
    chain: Chain, referee: ChainReferee
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 30}
    )
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    await resume_refusals(community, cid)
    await chain.reconcile()
    assert gauge() == 0

    attack = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    assert len(await strand_in(chain, cid)) == 1
    await chain.run_for(HOUR_MS / 1000)  # nothing fires: nothing is armed
    with capture_logs() as logs:
        await chain.reconcile()
        await chain.reconcile()
    (stalled,) = [line for line in logs if line["event"] == "combat_stalled"]
    assert stalled["combat_id"] == cid and stalled["reason"] == "no_clock"
    assert stalled["quiet_ms"] == HOUR_MS
    assert {"reaction.requested", "turn.paused"} <= {e["type"] for e in stalled["last_events"]}
    assert stalled["state"]["phase"] == "fighting"
    assert gauge() == 1

    resumed = await community.act_ok(cid, RESUME)
    assert types_of(resumed["events"])[:2] == ["combat.resumed", "turn.resumed"]
    data = resumed["events"][0]["data"]
    assert data == {
        "by": "moderadora",
        "moderator_key": CHAIN_MODERATOR_KEY,
        "reason": RESUME["reason"],
        "stall": "no_clock",
        "abandoned_actions": [attack["action_id"]],
    }
    assert resumed["combat"]["turn"]["actor"] == "ana"
    assert resumed["combat"]["turn"]["deadline"] is not None
    assert resumed["combat"]["pending_reactions"] == []
    with capture_logs() as logs:
        await chain.reconcile()
    assert [line["event"] for line in logs] == ["combat_stall_cleared"]
    assert gauge() == 0

    # The combat goes on: ana's clock runs out in full, bruno's turn comes.
    await community.wait_turn(cid, "bruno", 1, within=31)
    error_of(await community.act(cid, RESUME), 422, "combat_not_stalled")
