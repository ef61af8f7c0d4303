"""The lone fighter in the chain (umh 1.2.6, 1.2.6.5 examples, A-13, A-15): one own turn after
each opponent, and 2 PA recovered at the start of his later own turns of a round.

The lone fighter spends 4 PA in his first own turn ("Concentración"), so that the bucket of
his later turns shows: min(2, 10 - 6) = 2 (A-15), on top of the 6 he kept.
"""

from __future__ import annotations

from tests.support.play import turns_of_round
from tests.support.steps import act_as, join
from tests.support.table import ChainCommunity, ChainReferee

# A long preparation round that everyone ends early by being ready (umh 1.3.1, A-99), so
# that the joins surely happen inside it.
TIMERS = {"preparation_seconds": 60, "turn_seconds": 30, "defense_seconds": 30}


async def all_ready(community: ChainCommunity, cid: str, *characters: str) -> None:
    for character in characters:
        await act_as(community, cid, "ready", character)


async def lone_round(
    community: ChainCommunity, cid: str, lone: str, round_: int
) -> list[tuple[str, int, int]]:
    """Play round ``round_``: the lone fighter spends 4 PA in his first own turn, everyone
    passes; (actor, pa_bonus announced, PA shown) for each own turn."""
    seen: list[tuple[str, int, int]] = []
    combat = await community.wait_combat(
        cid, lambda c: c["round"] == round_ and c["phase"] == "fighting", what=f"round {round_}"
    )
    while combat["round"] == round_:
        actor = combat["turn"]["actor"]
        events = await community.events_of(cid)
        started = turns_of_round(events, round_)[-1]["data"]
        assert started["actor"] == actor
        seen.append((actor, started["pa_bonus"], combat["participants"][actor]["pa"]))
        if actor == lone and len([s for s in seen if s[0] == lone]) == 1:
            await community.use_skill(cid, lone, "Concentración")
        passed = await community.pass_turn(cid, actor)
        combat = passed["combat"]
    return seen


async def test_two_vs_one_the_larger_side_starts(referee: ChainReferee) -> None:
    """T000-01: O1 -> S (no recovery) -> O2 -> S (+2 PA)."""
    community = await referee.new_community(timers=TIMERS)
    for character, vel in (("ana", 7), ("bruno", 3), ("carla", 6)):
        await community.register(character, vel=vel)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await join(community, cid, "carla", side="attackers", via="llamada_de_auxilio")
    await all_ready(community, cid, "ana", "bruno", "carla")
    combat = await community.wait_turn(cid, "ana", 1)
    assert combat["turn_order"] == ["ana", "bruno", "carla", "bruno"]  # round 1 (umh 2.2.1)
    seen = await lone_round(community, cid, "bruno", 1)
    assert seen == [("ana", 0, 10), ("bruno", 0, 10), ("carla", 0, 10), ("bruno", 2, 8)]
    round_two = await community.wait_turn(cid, "ana", 2)
    assert round_two["turn_order"] == ["ana", "bruno", "carla", "bruno"]
    assert round_two["participants"]["bruno"]["pa"] == 10  # the unused bucket was lost


async def test_three_vs_one_the_lone_fighter_starts(referee: ChainReferee) -> None:
    """T000-04: S (normal) -> O1 -> S (+2) -> O2 -> S (+2) -> O3, from round 2 on (2.2.5)."""
    community = await referee.new_community(timers=TIMERS)
    for character, vel in (("ana", 9), ("bruno", 5), ("carla", 4), ("dani", 3)):
        await community.register(character, vel=vel)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    for joiner in ("carla", "dani"):
        await join(community, cid, joiner, via="llamada_de_auxilio")
    await all_ready(community, cid, "ana", "bruno", "carla", "dani")
    combat = await community.wait_turn(cid, "ana", 1)
    assert combat["turn_order"] == ["ana", "bruno", "ana", "carla", "ana", "dani"]
    seen = await lone_round(community, cid, "ana", 1)
    assert seen == [
        ("ana", 0, 10),
        ("bruno", 0, 10),
        ("ana", 2, 8),
        ("carla", 0, 10),
        ("ana", 2, 8),
        ("dani", 0, 10),
    ]
    events = await community.events_of(cid)
    ended = [e["data"] for e in events if e["type"] == "turn.ended" and e["data"]["round"] == 1]
    assert [e["actor"] for e in ended] == ["ana", "bruno", "ana", "carla", "ana", "dani"]
    await community.wait_turn(cid, "ana", 2)
