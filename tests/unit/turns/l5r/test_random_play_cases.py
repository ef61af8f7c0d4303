"""Cases the random player found in l5r (seed 004), each reduced to its smallest form and
driven through services/turns as a combat runs it."""

from __future__ import annotations

from tests.unit.turns.l5r.session import Combat


def test_curso_de_combate_is_not_chosen_by_a_fighter_out_of_the_fight() -> None:
    """004 Curso de combate: only a participant still in the fight rolls it; a dead samurai's
    ``l5r.tide`` is refused (``character_down``) and records nothing."""
    c = Combat(defenders=["bruno", "carla"])
    c.ready_all()
    c.p("bruno").update(wounds=1000, rank="dead", status="dead")  # past Out (C-7)
    assert c.p("bruno")["status"] == "dead" and c.state["phase"] == "fighting"
    refused = c.refused({"type": "l5r.tide", "actor": "bruno", "against": "ana"})
    assert (refused.code, refused.rule) == ("character_down", "l5r Curso de combate")
    assert c.p("bruno")["tide_against"] is None
    c.act({"type": "l5r.tide", "actor": "carla", "against": "ana"})
    assert c.p("carla")["tide_against"] == "ana"
