"""The action bodies of ``POST /v1/combats/{id}/actions`` (docs/api.md "Endpoints").

The gateway validates a body against :data:`Action`, the union of the platform's actions
(:mod:`shared.actions_base`) and every registered ruleset's; services/turns receives it
unchanged in a ``combat.act`` command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Union

from pydantic import Field

from shared.actions_base import PLATFORM_ACTIONS, PLATFORM_MODERATOR_ONLY, _Action
from shared.rulesets.registry import RULESETS

if TYPE_CHECKING:
    Action = _Action
else:
    Action = Annotated[
        Union[  # noqa: UP007 - built at runtime from the registry
            PLATFORM_ACTIONS + tuple(body for ruleset in RULESETS for body in ruleset.actions)
        ],
        Field(discriminator="type"),
    ]

MODERATOR_ONLY_ACTIONS: frozenset[str] = PLATFORM_MODERATOR_ONLY.union(
    *(ruleset.moderator_only for ruleset in RULESETS)
)
