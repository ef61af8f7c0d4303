"""umh 8.1.1.3 (seed 000, line 281): "Únicamente es posible realizar una habilidad defensiva
como reacción a una habilidad, salvo que la misma se pueda reaccionar varias veces". Against
an offensive skill with ``reactable_times: n`` a target's window takes up to n blocks or
evasions, applied in the order given (each on what the one before let through); ``null``
or the deadline closes it; an answer past the n-th is ``already_reacted``. With n = 1 (the
default) a second answer still finds no window. Driven through the chain (the real turns and
resolution handlers)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of
from tests.support.sheets import JSON, defensive, offensive, supplementary, umh_sheet_with
from tests.support.steps import register_sheet, resolved_of
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}
ESQUIVA: JSON = {
    "name": "Esquiva",
    "tier": 1,
    "pa": 1,
    "type": "defensive",
    "defense_kind": "evasion",
    "natures": ["fisica"],
}
PRESAGIO: JSON = {**ESQUIVA, "name": "Presagio", "defense_kind": "anticipation", "damage": 10}


def barrage(times: int) -> JSON:
    """Ráfaga: 300 sonic damage, reactable ``times`` times: bruno's REF 2 evades only the
    rounded-up half of it (umh 7.1.3.1, A-29)."""
    skill = offensive("Ráfaga", damage=300)
    return {**skill, "natures": ["sonora"], "reactable_times": times}


def block(name: str, value: int) -> JSON:
    """A block that covers all angles: the sonic damage meets all of it (umh 7.1.3.1)."""
    return {**defensive(name, defense=value), "all_angles": True}


async def barrage_on_bruno(referee: ChainReferee, times: int) -> tuple[ChainCommunity, str, str]:
    """ana's Ráfaga on bruno (two blocks, 100 and 50, an evasion, an anticipation)."""
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=7, skills=[barrage(times)])
    skills = [block("Bloqueo", 100), block("Escudo", 50), ESQUIVA, PRESAGIO]
    sheet = umh_sheet_with("Bruno", skills=skills, stats={"vel": 5, "ref": 2})
    await register_sheet(community, "bruno", sheet)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Ráfaga", ["bruno"])
    return community, cid, str(used["action_id"])


def react(action_id: str, skill: str | None, **extra: Any) -> JSON:
    return {"type": "react", "actor": "bruno", "action_id": action_id, "skill": skill, **extra}


def answered(answer: JSON) -> list[JSON]:
    return [e["data"] for e in answer["events"] if e["type"] == "reaction.answered"]


@pytest.mark.parametrize(
    ("times", "answers", "damage", "left"),
    [
        # 300 - 100 (Bloqueo) - 50 (Escudo)
        pytest.param(2, ["Bloqueo", "Escudo"], 150, [1, 0], id="umh-8.1.1.3-two-blocks"),
        # order given: ceil(300 / 2) (the evasion) - 100 = 50; ceil((300 - 100) / 2) = 100
        pytest.param(2, ["Esquiva", "Bloqueo"], 50, [1, 0], id="umh-8.1.1.3-evasion-then-block"),
        pytest.param(2, ["Bloqueo", "Esquiva"], 100, [1, 0], id="umh-8.1.1.3-block-then-evasion"),
        # one answer, then null: the window closes with what was given
        pytest.param(2, ["Bloqueo", None], 200, [1, 0], id="umh-8.1.1.3-block-then-null"),
        pytest.param(3, ["Bloqueo", "Escudo", None], 150, [2, 1, 0], id="umh-8.1.1.3-n3-null"),
    ],
)
async def test_8_1_1_3_a_skill_reactable_several_times_takes_several_defenses(
    referee: ChainReferee, times: int, answers: list[str | None], damage: int, left: list[int]
) -> None:
    """Each answer is told (``answer``, ``answers_left``), pays its PA and counts its use;
    the hit resolves once the window closes, every defense applied in the order given."""
    community, cid, action_id = await barrage_on_bruno(referee, times)
    told: list[JSON] = []
    for answer in answers:
        told += answered(await community.act_ok(cid, react(action_id, answer)))
    assert [t["answers_left"] for t in told] == left
    assert [t["answer"] for t in told] == list(range(1, len(answers) + 1))
    assert [t["skill"] for t in told] == answers
    resolved = await resolved_of(community, cid, action_id)
    (row,) = resolved["results"]
    assert row["damage"] == damage
    given = [a for a in answers if a is not None]
    reaction = row["reaction"]
    assert [reaction["skill"], *(m["skill"] for m in reaction.get("more", []))] == given
    steps = [s["step"] for s in row["steps"]]
    assert ("further_defenses" in steps) == (len(given) > 1)
    combat = await community.combat(cid)
    bruno = combat["participants"]["bruno"]
    assert bruno["vit"] == 1000 - damage
    assert bruno["uses_this_round"] == dict.fromkeys(given, 1)


async def test_8_1_1_3_an_answer_past_the_nth_is_already_reacted(referee: ChainReferee) -> None:
    """n = 2: the second answer closes the window (``answers_left`` 0) and the hit resolves;
    a third is refused with ``already_reacted`` (umh 8.1.1.3)."""
    community, cid, action_id = await barrage_on_bruno(referee, 2)
    await community.act_ok(cid, react(action_id, "Bloqueo"))
    await community.act_ok(cid, react(action_id, "Escudo"))
    third = await community.act(cid, react(action_id, "Esquiva"))
    refused = error_of(third, 422, "already_reacted")
    assert refused["rule"] == "umh 8.1.1.3"
    resolved = await resolved_of(community, cid, action_id)
    assert resolved["results"][0]["damage"] == 150


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        pytest.param("Bloqueo", "Presagio", "invalid_request", id="umh-8.1.1.3-no-anticipation"),
        pytest.param("Bloqueo", "Bloqueo", "ability_already_used_this_round", id="umh-2.3.1.3"),
    ],
)
async def test_8_1_1_3_a_further_answer_is_a_block_or_an_evasion(
    referee: ChainReferee, first: str, second: str, code: str
) -> None:
    """A further answer is still under every rule: an anticipation settles the hit on its
    own (first answer only), the same block twice is a second use this round (2.3.1.3)."""
    community, cid, action_id = await barrage_on_bruno(referee, 2)
    await community.act_ok(cid, react(action_id, first))
    refused = await community.act(cid, react(action_id, second, use_number=1))
    assert error_of(refused, 422, code)["rule"] in ("umh 8.1.1.3", "umh 2.3.1.3")
    combat = await community.combat(cid)
    (pending,) = combat["pending_reactions"]
    assert (pending["reactor"], pending["answers_left"]) == ("bruno", 1)


async def test_8_1_1_3_reactable_once_keeps_one_answer(referee: ChainReferee) -> None:
    """n = 1 (the default): the first answer closes the window; a second one finds none."""
    community, cid, action_id = await barrage_on_bruno(referee, 1)
    first = answered(await community.act_ok(cid, react(action_id, "Bloqueo")))
    assert "answers_left" not in first[0]
    second = await community.act(cid, react(action_id, "Escudo"))
    assert error_of(second, 422, "no_pending_reaction")["rule"] == "umh 8.1.1.3"
    resolved = await resolved_of(community, cid, action_id)
    assert resolved["results"][0]["damage"] == 200


async def test_8_1_1_3_timeout_after_one_answer_keeps_it(referee: ChainReferee) -> None:
    """n = 2, one block and then nothing: the window's deadline closes it and the hit
    resolves with the block given (not as a hit taken without defense)."""
    community, cid, action_id = await barrage_on_bruno(referee, 2)
    await community.act_ok(cid, react(action_id, "Bloqueo"))
    closed = await community.wait_event(cid, "reaction.timed_out", within=70)
    assert closed["data"]["answers"] == 1
    resolved = await resolved_of(community, cid, action_id)
    (row,) = resolved["results"]
    assert row["damage"] == 200
    assert row["reaction"]["skill"] == "Bloqueo"
    assert row["reaction"]["timed_out"] is False


async def test_1_3_5_8_1_1_3_each_answer_to_the_opening_may_be_prepared(
    referee: ChainReferee,
) -> None:
    """The opening Ráfaga (reactable twice) answered with Bloqueo, then Escudo de fuego,
    which needs Canalizar: bruno may use Canalizar in the preparation round (umh 1.3.5)."""
    community = await referee.new_community(
        timers={"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
    )
    await community.register("ana", vel=7, skills=[barrage(2)])
    fire = {**block("Escudo de fuego", 50), "requires_preparation": "Canalizar"}
    skills = [block("Bloqueo", 100), fire, supplementary("Canalizar", pa=1)]
    await community.register("bruno", vel=5, skills=skills)
    opened = await community.start_attack("ana", ["bruno"], "Ráfaga")
    cid = opened["id"]
    (window,) = opened["pending_reactions"]
    assert window["answers_left"] == 2
    await community.act_ok(cid, react(window["action_id"], "Bloqueo"))
    await community.act_ok(cid, react(window["action_id"], "Escudo de fuego"))
    resolved = await resolved_of(community, cid, window["action_id"])
    assert resolved["results"][0]["damage"] == 150
    await community.wait_combat(cid, lambda c: c["phase"] == "preparation", what="preparation")
    body = {"type": "skill", "actor": "bruno", "skill": "Canalizar", "targets": []}
    await community.act_ok(cid, body)
