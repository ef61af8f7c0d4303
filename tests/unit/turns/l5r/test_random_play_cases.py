"""Cases the random player found in l5r (seed 004), each reduced to its smallest form and
driven through services/turns as a combat runs it."""

from __future__ import annotations

from services.turns.domain.l5r.attack import set_wounds
from shared.dict_state import Out
from tests.unit.turns.l5r.session import Combat


def test_curso_de_combate_is_not_chosen_by_a_fighter_out_of_the_fight() -> None:
    """004 Curso de combate: only a participant still in the fight rolls it; a dead samurai's
    ``l5r.tide`` is refused (``character_down``) and records nothing."""
    c = Combat(defenders=["bruno", "carla"])
    c.ready_all()
    set_wounds(c.state, Out(), "bruno", 1000, None)
    assert c.p("bruno")["status"] == "dead" and c.state["phase"] == "fighting"
    refused = c.refused({"type": "l5r.tide", "actor": "bruno", "against": "ana"})
    assert (refused.code, refused.rule) == ("character_down", "l5r Curso de combate")
    assert c.p("bruno")["tide_against"] is None
    c.act({"type": "l5r.tide", "actor": "carla", "against": "ana"})
    assert c.p("carla")["tide_against"] == "ana"
