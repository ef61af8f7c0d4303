"""Path identifiers minted by the server: a malformed one is an unknown one (404, docs/api.md)."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Path

from gateway.errors import ApiError

COMBAT_ID = re.compile(r"c_[0-9a-f]{32}")
ACTION_ID = re.compile(r"a_[0-9a-f]{32}")
KEY_ID = re.compile(r"k_[0-9a-f]{20}")
COMMUNITY_ID = re.compile(r"cm_[0-9a-f]{20}")


def _known(pattern: re.Pattern[str], value: str) -> str:
    if not pattern.fullmatch(value):
        raise ApiError("not_found")
    return value


async def _combat(
    combat_id: Annotated[str, Path(max_length=200, examples=["c_" + "0" * 32])],
) -> str:
    return _known(COMBAT_ID, combat_id)


async def _action(
    action_id: Annotated[str, Path(max_length=200, examples=["a_" + "0" * 32])],
) -> str:
    return _known(ACTION_ID, action_id)


async def _key(key_id: Annotated[str, Path(max_length=200, examples=["k_" + "0" * 20])]) -> str:
    return _known(KEY_ID, key_id)


async def _community(
    community_id: Annotated[str, Path(max_length=200, examples=["cm_" + "0" * 20])],
) -> str:
    return _known(COMMUNITY_ID, community_id)


CombatId = Annotated[str, Depends(_combat)]
ActionId = Annotated[str, Depends(_action)]
KeyId = Annotated[str, Depends(_key)]
CommunityId = Annotated[str, Depends(_community)]
