"""A turn timer's lane (shared/runtime/firing.py): applied as soon as it falls due when nothing
is queued for its combat, and never before an action the gateway accepted earlier.

The turn timer (umh 2.4.2: a turn runs out after ``turn_seconds``) is fired by services/turns'
own poller, as in a process; the chain delivers nothing while the poller runs.
"""

from __future__ import annotations

from typing import Any

from shared.messages import CMD_COMBAT_ACT, CMD_TIMER_FIRED, Envelope
from tests.support.chain import Chain
from tests.support.play import Community
from tests.support.sheets import offensive
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 2, "defense_seconds": 3}


async def _ana_on_turn(referee: ChainReferee) -> tuple[Community[Any], str]:
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=6, skills=(offensive("Puño"),))
    await community.register("bruno", vel=5, skills=(offensive("Puño"),))
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    return community, cid


def _logged(chain: Chain, cid: str) -> list[Envelope]:
    log = chain.data.logs[chain.keys.combat("turns", cid).log]
    return [Envelope.model_validate_json(raw) for raw in log]


def _queued_types(chain: Chain) -> list[str]:
    """The types of the messages waiting in services/turns' queue, in order."""
    return [delivery.type or "" for delivery in chain.bus.queues["turns"]]


async def _fire_turns_timers_due(chain: Chain) -> None:
    due = chain.timers["turns"].next_due()
    assert due is not None
    chain.clock.advance_to(due)
    assert await chain.pollers["turns"].run_once() >= 1


async def test_umh_2_4_2_a_turn_timer_with_nothing_queued_is_applied_at_once(
    chain: Chain, referee: ChainReferee
) -> None:
    _, cid = await _ana_on_turn(referee)
    await _fire_turns_timers_due(chain)

    # Applied by the poller's process: no timer.fired waits in the room's partition.
    assert _queued_types(chain) == []
    (timed_out,) = [e for e in _logged(chain, cid) if e.type == "turn.timed_out"]
    assert timed_out.payload["actor"] == "ana"


async def test_umh_2_4_2_a_turn_timer_due_while_an_action_is_queued_waits_behind_it(
    chain: Chain, referee: ChainReferee
) -> None:
    community, cid = await _ana_on_turn(referee)
    # ana passes before her turn runs out; the action waits in services/turns' queue.
    chain.holding = True
    await community.act(cid, {"type": "pass_turn", "actor": "ana"})
    chain.holding = False
    await _fire_turns_timers_due(chain)

    # The timer went through the partition, behind the action, and nothing was applied yet.
    assert _queued_types(chain) == [CMD_COMBAT_ACT, CMD_TIMER_FIRED]
    assert not [e for e in _logged(chain, cid) if e.type == "turn.timed_out"]
    await chain.settle()

    # ana's pass was judged first: her turn ended by her own hand, and it never ran out.
    types = [e.type for e in _logged(chain, cid)]
    assert "turn.ended" in types
    assert "turn.timed_out" not in types
    # Each message, once handled, left the combat's queued set (the action by its commit,
    # the timer that found its turn gone without one).
    assert not chain.data.queued[chain.keys.combat("turns", cid).queued]
