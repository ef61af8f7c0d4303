"""Fixtures of the chain tests: the three services' real handlers over in-memory fakes.

Every test gets a fresh :class:`~tests.support.chain.Chain` and, as ``referee``, the chain
seen as the API's host (:class:`~tests.support.table.ChainReferee`): the same
:class:`~tests.support.play.Community` the e2e tests drive in the chain, in simulated time.
"""

from __future__ import annotations

import pytest

from tests.support.chain import Chain
from tests.support.table import ChainReferee


@pytest.fixture
def chain() -> Chain:
    return Chain()


@pytest.fixture
def referee(chain: Chain) -> ChainReferee:
    return ChainReferee(chain)
