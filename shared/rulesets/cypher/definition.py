"""cypher as the platform sees it: see :class:`shared.rulesets.interface.SharedRuleset`."""

from __future__ import annotations

from typing import get_args

from shared.rulesets.cypher.actions import CYPHER_MODERATOR_ONLY, CypherActions
from shared.rulesets.cypher.errors import CODES
from shared.rulesets.cypher.narration import CYPHER_NARRATION
from shared.rulesets.cypher.settings import CypherSettings
from shared.rulesets.cypher.sheet import CypherSheet
from shared.rulesets.interface import SharedRuleset

CYPHER = SharedRuleset(
    name="cypher",
    sheet=CypherSheet,
    actions=get_args(CypherActions),
    moderator_only=CYPHER_MODERATOR_ONLY,
    errors=CODES,
    settings=CypherSettings,
    narration=CYPHER_NARRATION,
)
