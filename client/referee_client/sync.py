"""The synchronous client: :class:`~referee_client.aio.AsyncReferee`'s calls, blocking.

Each :class:`Referee` runs its asynchronous twin on an event loop of its own, in a thread
(anyio's blocking portal), so a bot or a script without ``asyncio`` gets the same retries,
polling and stream resume. Close it (``with Referee(...) as api:``) to stop that thread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, ParamSpec, TypeVar

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal

from referee_client.aio import AsyncReferee, Retries
from referee_client.types import (
    JSON,
    ActionAnswer,
    Combat,
    Community,
    LogPage,
    NewKey,
    Scope,
    StreamEvent,
    View,
)

P = ParamSpec("P")
R = TypeVar("R")


class Referee:
    """One key's view of the API, blocking (the arguments of :class:`AsyncReferee`)."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        language: str | None = None,
        timeout: float = 15.0,
        retries: Retries | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._portal_cm: AbstractContextManager[BlockingPortal] = start_blocking_portal()
        self._portal = self._portal_cm.__enter__()

        async def make() -> AsyncReferee:
            return AsyncReferee(
                base_url,
                api_key,
                language=language,
                timeout=timeout,
                retries=retries,
                transport=transport,
            )

        self.aio = self._portal.call(make)

    def __enter__(self) -> Referee:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._portal.call(self.aio.aclose)
        self._portal_cm.__exit__(None, None, None)

    def _call(self, method: Callable[P, Any], *args: Any, **kwargs: Any) -> Any:
        async def run() -> Any:
            return await method(*args, **kwargs)

        return self._portal.call(run)

    # Every call of AsyncReferee, blocking (see there for what each does).
    def create_community(self, name: str) -> Community:
        return self._call(self.aio.create_community, name)  # type: ignore[no-any-return]

    def create_key(self, scope: Scope) -> NewKey:
        return self._call(self.aio.create_key, scope)  # type: ignore[no-any-return]

    def revoke_key(self, key_id: str) -> None:
        self._call(self.aio.revoke_key, key_id)

    def get_settings(self) -> JSON:
        return self._call(self.aio.get_settings)  # type: ignore[no-any-return]

    def patch_settings(self, patch: JSON) -> JSON:
        return self._call(self.aio.patch_settings, patch)  # type: ignore[no-any-return]

    def put_character(self, character_id: str, sheet: JSON) -> JSON:
        return self._call(self.aio.put_character, character_id, sheet)  # type: ignore[no-any-return]

    def get_character(self, character_id: str) -> JSON:
        return self._call(self.aio.get_character, character_id)  # type: ignore[no-any-return]

    def character_status(self, character_id: str) -> JSON:
        return self._call(self.aio.character_status, character_id)  # type: ignore[no-any-return]

    def start_combat(self, body: JSON, *, idempotency_key: str | None = None) -> Combat:
        return self._call(  # type: ignore[no-any-return]
            self.aio.start_combat, body, idempotency_key=idempotency_key
        )

    def get_combat(self, combat_id: str, *, view: View | None = None) -> Combat:
        return self._call(self.aio.get_combat, combat_id, view=view)  # type: ignore[no-any-return]

    def act(
        self,
        combat_id: str,
        action: JSON,
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        retry_on_conflict: bool = False,
    ) -> ActionAnswer:
        return self._call(  # type: ignore[no-any-return]
            self.aio.act,
            combat_id,
            action,
            if_match=if_match,
            idempotency_key=idempotency_key,
            retry_on_conflict=retry_on_conflict,
        )

    def combat_log(
        self, combat_id: str, *, after: str | None = None, view: View | None = None
    ) -> LogPage:
        return self._call(  # type: ignore[no-any-return]
            self.aio.combat_log, combat_id, after=after, view=view
        )

    def whole_log(self, combat_id: str, *, view: View | None = None) -> list[JSON]:
        return self._call(self.aio.whole_log, combat_id, view=view)  # type: ignore[no-any-return]

    def page(self, path: str, *, cursor: str | None = None, **params: Any) -> JSON:
        return self._call(self.aio.page, path, cursor=cursor, **params)  # type: ignore[no-any-return]

    def every(self, path: str, field: str, **params: Any) -> Iterator[JSON]:
        return self._iterate(self.aio.every(path, field, **params))

    def events(
        self,
        *,
        room: str | None = None,
        combat: str | None = None,
        view: View | None = None,
        last_event_id: str | None = None,
        reconnect: bool = True,
    ) -> Iterator[StreamEvent]:
        """The event stream, blocking between events (see :meth:`AsyncReferee.events`)."""
        stream = self.aio.events(
            room=room, combat=combat, view=view, last_event_id=last_event_id, reconnect=reconnect
        )
        return self._iterate(stream)

    def _iterate(self, stream: AsyncIterator[R]) -> Iterator[R]:
        try:
            while True:
                try:
                    yield self._portal.call(stream.__anext__)
                except StopAsyncIteration:
                    return
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                self._portal.call(aclose)
