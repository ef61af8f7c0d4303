"""l5r as the platform sees it: see :class:`shared.rulesets.interface.SharedRuleset`."""

from __future__ import annotations

from typing import get_args

from shared.rulesets.interface import SharedRuleset
from shared.rulesets.l5r.actions import L5rActions
from shared.rulesets.l5r.errors import CODES
from shared.rulesets.l5r.narration import L5R_NARRATION
from shared.rulesets.l5r.settings import L5rSettings
from shared.rulesets.l5r.sheet import L5rSheet

L5R = SharedRuleset(
    name="l5r",
    sheet=L5rSheet,
    actions=get_args(L5rActions),
    moderator_only=frozenset({"l5r.grant_void", "l5r.veto_void"}),
    errors=CODES,
    settings=L5rSettings,
    narration=L5R_NARRATION,
)
