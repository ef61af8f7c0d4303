"""A TCP proxy that can cut every connection or slow them down, between the services and a
server (the role of aiomisc's TCPProxy, without the dependency).

It runs its own event loop in a thread, so the load the chaos run generates in the main loop
does not delay the bytes it relays.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from tests.support.suite import free_port

CHUNK = 65536


class TcpProxy:
    def __init__(self, target_port: int, *, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.delay = 0.0
        self.cuts = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)

    def stop(self) -> None:
        self.cut()

        async def close() -> None:
            if self._server is not None:
                self._server.close()
                await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def cut(self) -> int:
        """Close every open connection, both ways, at once (clients must reconnect)."""

        async def close_all() -> int:
            writers = list(self._writers)
            for writer in writers:
                writer.transport.abort()
            self._writers.clear()
            return len(writers)

        closed = asyncio.run_coroutine_threadsafe(close_all(), self._loop).result(10)
        self.cuts += 1
        return closed

    def slow(self, seconds: float) -> None:
        """Hold every relayed chunk ``seconds`` before passing it on (0: full speed)."""
        self.delay = seconds

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )
        for w in (writer, up_writer):
            self._writers.discard(w)
            w.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    break
                if self.delay:
                    await asyncio.sleep(self.delay)
                writer.write(data)
                await writer.drain()
        writer.transport.abort()
