"""The one shared list of rulesets. Adding a ruleset: its folder ``shared/rulesets/<name>/``
with a ``definition.py``, and one entry here (plus one in each service's ``registry.py``).

The action union (:mod:`shared.actions`), the sheet union (:mod:`shared.sheets`), the error
catalogue (:mod:`shared.errors`) and the community settings (:mod:`shared.settings`) are
composed from :data:`RULESETS`. Nothing here may import :mod:`shared.errors` (it imports us).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from shared.rulesets.cypher.definition import CYPHER
from shared.rulesets.interface import SharedRuleset
from shared.rulesets.l5r.definition import L5R
from shared.rulesets.umh.definition import UMH

RULESETS: tuple[SharedRuleset, ...] = (UMH, CYPHER, L5R)

NAMES: tuple[str, ...] = tuple(ruleset.name for ruleset in RULESETS)

if TYPE_CHECKING:
    RulesetName = str
else:
    # The name of a registered ruleset: a ``Literal`` of :data:`NAMES`, so that a request
    # naming another is refused by validation and the OpenAPI schema lists them as an enum.
    RulesetName = Literal[NAMES]
