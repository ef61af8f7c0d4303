"""One call in flight, the calls asked for meanwhile merged behind it (issue 15).

Under load a process has many handlings at the same step at once, each paying for a message
or a round trip of its own. A lane runs the first call alone, at once (no added wait when
the process is quiet); the calls asked for while it is in flight wait for it, then go
together, at most ``at_most`` of them, as one call, whose outcome is shared out to each
caller. Used by the merged publishes (``shared/coalesce.py``) and the merged Redis pipelines
(``shared/scripts.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

Taken = list[tuple[Item, "asyncio.Future[Result]"]]


class OneInFlight(Generic[Item, Result]):
    """``alone(item)`` runs a call by itself; ``together(taken)`` runs the merged calls as
    one and settles every caller's future (if it raises, the futures it left unsettled get
    its error); ``on_idle`` is called once nothing is in flight nor waits."""

    def __init__(
        self,
        alone: Callable[[Item], Awaitable[Result]],
        together: Callable[[Taken[Item, Result]], Awaitable[None]],
        *,
        at_most: int,
        on_idle: Callable[[], None] | None = None,
    ) -> None:
        self._alone = alone
        self._together = together
        self._at_most = at_most
        self._on_idle = on_idle
        self._busy = False
        self._waiting: Taken[Item, Result] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self, item: Item) -> Result:
        if self._busy:
            done: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
            self._waiting.append((item, done))
            return await done
        self._busy = True
        try:
            return await self._alone(item)
        finally:
            self._next()

    def _next(self) -> None:
        """The call in flight ended: run what waits behind it, or leave the lane idle."""
        if not self._waiting:
            self._busy = False
            if self._on_idle is not None:
                self._on_idle()
            return
        taken = self._waiting[: self._at_most]
        del self._waiting[: self._at_most]
        task = asyncio.create_task(self._run_together(taken))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_together(self, taken: Taken[Item, Result]) -> None:
        try:
            await self._together(taken)
        except asyncio.CancelledError:
            for _, done in taken:
                done.cancel()
            raise
        except BaseException as exc:
            for _, done in taken:
                if not done.done():  # its caller may have been cancelled meanwhile
                    done.set_exception(exc)
        finally:
            self._next()

    async def close(self) -> None:
        """Let the merged calls under way end."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
