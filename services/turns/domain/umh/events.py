"""Event types that only frontends consume (docs/api.md "Events"), beside the ones
in ``shared/messages.py`` that other services consume too. Past tense, snake_case parts."""

from __future__ import annotations

from typing import Final

COMBATANT_MOVED: Final = "combatant.moved"
"""umh 2.3.2.1: a move on the grid and the speed it cost."""
COMBATANT_STOOD_UP: Final = "combatant.stood_up"
"""umh 11.5.2: *Levantarse* ended a knockdown."""
SKILL_DISPUTED: Final = "skill.disputed"
"""umh 1.1.5: a moderator put a skill in doubt (refused) or ruled it usable again."""
COMBATANT_READY: Final = "combatant.ready"
"""umh 1.3.1 / A-99: ready to end the preparation round."""
ITEM_EQUIPPED: Final = "item.equipped"
"""umh 1.3.2: an item equipped in the preparation round."""
JOIN_VETO_CAST: Final = "join.veto_cast"
"""umh 1.2.4.1: one member of the side voted against an IRRUMPIR."""
PACT_OFFERED: Final = "pact.offered"
"""umh 4.1.1.3: one participant offers the agreed retreat."""
SLOTS_RAISED: Final = "side.slots_raised"
"""umh 1.2.3: a side's one slot-raising skill."""
INTERFERENCE_STARTED: Final = "interference.started"
INTERFERENCE_ENDED: Final = "interference.ended"
"""umh 2.5: an interference turn inside the current general turn."""
PA_REFUNDED: Final = "pa.refunded"
"""umh 3.2: PA given back for an anticipated skill."""
POSITION_CHANGED: Final = "combatant.position_changed"
"""umh 10.1: a levitate / fly skill, an evasion or a push changed where someone is."""
TURN_ORDER_CHANGED: Final = "turn_order.changed"
"""umh 2.2.2: a late joiner was placed at the end of the current round."""
