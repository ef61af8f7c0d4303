"""A stored state is compressed JSON; a plain-JSON state an older version stored still loads."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.store import decode_state, encode_state

STATE: dict[str, Any] = {"phase": "fighting", "participants": {"ana": {"pa": 3, "ñ": [1.5, None]}}}


@pytest.mark.parametrize(
    "stored",
    [
        encode_state(STATE),
        json.dumps(STATE).encode(),  # what a commit stored before states were compressed
        json.dumps(STATE),  # the same, read by a client that decodes answers
    ],
    ids=["compressed", "plain JSON bytes", "plain JSON text"],
)
def test_a_stored_state_reads_back_the_same(stored: bytes | str) -> None:
    assert decode_state(stored) == STATE


def test_a_combat_state_is_stored_smaller_than_its_json() -> None:
    sheet = {f"field_{i}": None for i in range(40)}
    state = {"participants": {name: {"sheet": dict(sheet)} for name in ("ana", "bruno")}}
    assert len(encode_state(state)) < len(json.dumps(state)) / 3
