"""The one shared list of rulesets. Adding a ruleset: its folder ``shared/rulesets/<name>/``
with a ``definition.py``, and one entry in :data:`_BUILT_IN` (plus one in each service's
``registry.py``); or, for a ruleset that lives elsewhere (a test's toy), :func:`register`.

The action union (:mod:`shared.actions`), the sheet union (:mod:`shared.sheets`), the error
catalogue (:mod:`shared.errors`), the community settings (:mod:`shared.settings`) and
:data:`RulesetName` are composed from the list when they are first read, and the list is
fixed from then on: :func:`register` must run before anything composed from it is imported.
Nothing here may import :mod:`shared.errors` (it imports us).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from shared.rulesets.cypher.definition import CYPHER
from shared.rulesets.interface import SharedRuleset
from shared.rulesets.l5r.definition import L5R
from shared.rulesets.umh.definition import UMH

_BUILT_IN: tuple[SharedRuleset, ...] = (UMH, CYPHER, L5R)

_registered: list[SharedRuleset] = list(_BUILT_IN)
_composed = False


def register(ruleset: SharedRuleset) -> None:
    """Add a ruleset to the list, before anything is composed from it.

    Raises ``RuntimeError`` once the unions have been composed (``shared.actions`` and the
    other composed modules were imported: start a fresh interpreter), and ``ValueError`` for
    a name already registered.
    """
    if _composed:
        raise RuntimeError(
            f"{ruleset.name}: register rulesets before importing what is composed from them "
            "(shared.actions, shared.sheets, shared.errors, shared.settings, the gateway)"
        )
    if any(known.name == ruleset.name for known in _registered):
        raise ValueError(f"a ruleset named {ruleset.name!r} is already registered")
    _registered.append(ruleset)


def rulesets() -> tuple[SharedRuleset, ...]:
    """The registered rulesets; the list is fixed from the first call on."""
    global _composed
    _composed = True
    return tuple(_registered)


if TYPE_CHECKING:
    RULESETS: tuple[SharedRuleset, ...]
    NAMES: tuple[str, ...]
    RulesetName = str
else:

    def __getattr__(name: str) -> Any:
        """``RULESETS``, ``NAMES`` and ``RulesetName`` (the name of a registered ruleset, a
        ``Literal`` of ``NAMES``: a request naming another is refused by validation and the
        OpenAPI schema lists them as an enum), composed when first read."""
        if name == "RULESETS":
            return rulesets()
        if name == "NAMES":
            return tuple(ruleset.name for ruleset in rulesets())
        if name == "RulesetName":
            return Literal[tuple(ruleset.name for ruleset in rulesets())]
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
