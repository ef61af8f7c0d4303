"""What the stall tests of every ruleset share (issue 18): the reconciler's question as the
service spec asks it, and a moderator's ``resume`` as the gateway sends it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from services.turns.handlers import spec
from shared.errors import RuleViolation
from shared.keys import Keys
from shared.messages import derived_id
from shared.payloads import ActOnCombat

FOREVER = 10**9
"""A log quiet for days: time alone never makes a combat stalled."""

HOOK = spec(Keys("t")).stalled


def stalled(state: dict[str, Any], quiet_ms: int) -> str | None:
    """The service spec's hook, as the reconciler calls it."""
    assert HOOK is not None
    return HOOK(state, quiet_ms)


def resume_cmd(*, quiet_ms: int = FOREVER, moderator: bool = True) -> ActOnCombat:
    """A moderator's ``resume`` as the gateway sends it (his key, the log's quiet time)."""
    return ActOnCombat.model_validate(
        {
            "action_id": derived_id("a", "resume", str(quiet_ms), str(moderator)),
            "action": {"type": "resume", "actor": "moderadora", "reason": "se quedó parado"},
            "moderator": moderator,
            "moderator_key": "k_mod",
            "quiet_ms": quiet_ms,
        }
    )


def assert_refused(
    act: Callable[[dict[str, Any], ActOnCombat], object],
    state: dict[str, Any],
    cmd: ActOnCombat,
    code: str,
) -> None:
    """``act(state, cmd)`` raises ``code`` and leaves the state exactly as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as refused:
        act(state, cmd)
    assert refused.value.code == code
    assert state == before
