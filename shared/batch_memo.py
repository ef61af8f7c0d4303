"""What one delivered batch's handling knows of its aggregates, between its events.

A commit's events reach a consuming service as one batch (``events.batch``), handled event
by event, in order; most of them concern the same aggregate (a combat's ``turn.ended``,
``turn.started`` and ``action.declared`` in services/resolution). Within one batch the
state an event left (loaded, or just committed) is the state the next one starts from, so it
is kept here instead of being loaded again (issue 15: one load per aggregate per batch).

Nothing is lost by that: a commit still checks the state's version (another handler's commit
in between is a conflict, reloaded and retried) and the processed record (an event handled
already is a duplicate), and the memo lives only while its batch is handled.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shared.store import Loaded

_MEMO: ContextVar[dict[str, Loaded] | None] = ContextVar("batch_memo", default=None)


@contextmanager
def one_batch(size: int) -> Iterator[None]:
    """Handle the ``size`` envelopes of one delivery inside this block (a lone envelope
    needs no memo, and never sees another delivery's)."""
    token = _MEMO.set({} if size > 1 else None)
    try:
        yield
    finally:
        _MEMO.reset(token)


def batch_memo() -> dict[str, Loaded] | None:
    """The current batch's states by aggregate tag, or None outside a batch."""
    return _MEMO.get()
