"""umh (seed 000) as the platform sees it: see :class:`shared.rulesets.interface.SharedRuleset`."""

from __future__ import annotations

from shared.rulesets.interface import SharedRuleset
from shared.rulesets.umh.actions import UMH_ACTIONS
from shared.rulesets.umh.errors import CODES
from shared.rulesets.umh.narration import UMH_NARRATION
from shared.rulesets.umh.settings import UmhSettings
from shared.rulesets.umh.sheet import UmhSheet

UMH = SharedRuleset(
    name="umh",
    sheet=UmhSheet,
    actions=UMH_ACTIONS,
    moderator_only=frozenset({"dispute"}),
    errors=CODES,
    settings=UmhSettings,
    narration=UMH_NARRATION,
)
