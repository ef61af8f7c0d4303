"""Fixtures of the chain tests: the three services' real handlers over in-memory fakes.

Every test gets a fresh :class:`~tests.support.chain.Chain` and, as ``referee``, the chain
seen as the API's host (:class:`~tests.support.table.ChainReferee`): the same
:class:`~tests.support.play.Community` the e2e tests drive in the chain, in simulated time.
Every event a chain published is narrated at the end of its test (docs/events.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.chain import Chain
from tests.support.narrated import narrate_all
from tests.support.table import ChainReferee


@pytest.fixture
def chain() -> Iterator[Chain]:
    """A fresh chain; at the end, every event it published must be told in both languages
    (tests/support/narrated.py)."""
    played = Chain()
    yield played
    narrate_all(played.bus.events)


@pytest.fixture
def referee(chain: Chain) -> ChainReferee:
    return ChainReferee(chain)
