"""Heights held until the end of a turn (umh 10.2.3 - 10.2.5 / A-39, A-11).

Someone in alzada or voladora who uses a skill on someone at a lower height, with a reach
that does not cover the gap, closes in: until the turn ends he counts at the target's
height plus the reach (T000-10: alzada, reach 1, on the ground -> suelo; T000-11: voladora,
reach 3, on the ground -> 3, alzada). A skill on an ally counts the same (10.2.3). A later
skill on someone else is worked out again from the position he holds outside the turn
(10.2.4, T000-12: back in alzada against a target in alzada). Resolution receives the
height held with every hit, so a knockdown or a fall starts from there (10.2.6, 11.5.3).
When the turn ends everyone is back where he was.
"""

from __future__ import annotations

from services.turns.domain.umh.events import POSITION_CHANGED
from services.turns.domain.umh.state import CombatState
from shared.outcome import Outcome
from shared.rulesets.umh.grid import approach_height, height_name, regrab_height

APPROACH_RULE = "umh 10.2.3"
BACK_RULE = "umh 10.2.4"


def _move(state: CombatState, out: Outcome, who: str, height: str, rule: str) -> None:
    if state.heights.get(who, "suelo") == height:
        return
    state.heights[who] = height
    out.emit(POSITION_CHANGED, {"character": who, "height": height, "rule": rule})


def approach(state: CombatState, out: Outcome, actor: str, reach: int, targets: list[str]) -> None:
    """umh 10.2.3 / 10.2.4: the height ``actor`` holds after using a skill of ``reach`` on
    ``targets`` (the lowest one he must reach), worked out from his own position."""
    home = state.home_heights.get(actor, state.heights.get(actor, "suelo"))
    others = [state.heights.get(t, "suelo") for t in targets if t != actor]
    if not others:
        return
    held = height_name(min(approach_height(home, there, reach) for there in others))
    if held == home:
        if state.home_heights.pop(actor, None) is not None:
            _move(state, out, actor, home, BACK_RULE)
        return
    state.home_heights[actor] = home
    _move(state, out, actor, held, APPROACH_RULE)


def regrab(state: CombatState, out: Outcome, actor: str) -> None:
    """umh 10.2.5 / A-11: re-equipping gear that fell to the ground puts him on the ground
    until the end of the turn in which he picks it up; 10.2.4 applies (a later skill on
    someone else works his height out again from his own)."""
    home = state.home_heights.get(actor, state.heights.get(actor, "suelo"))
    held = regrab_height(home, dropped_to_ground=True)
    if held == home:
        return
    state.home_heights[actor] = home
    _move(state, out, actor, held, "umh 10.2.5")


def settle(state: CombatState, character: str) -> None:
    """His position changed for good (a fly skill, an evasion, a fall): nothing to restore."""
    state.home_heights.pop(character, None)


def back_home(state: CombatState, out: Outcome) -> None:
    """umh 10.2.3: the turn is over; whoever closed in is back at his own height."""
    for who, home in sorted(state.home_heights.items()):
        _move(state, out, who, home, APPROACH_RULE)
    state.home_heights.clear()
