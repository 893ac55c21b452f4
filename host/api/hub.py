"""WebSocket push: every change the referee shows goes to every connected dashboard.

Referees notify from whatever thread changed them (camera loop, serial reader, a request);
the hub hands each message to the event loop thread-safely. A slow client never blocks the
table: its queue keeps only the newest messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import WebSocket

QUEUE = 8


class Hub:
    def __init__(self) -> None:
        self._clients: set[asyncio.Queue[dict[str, Any]]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def publish(self, kind: str, snapshot: dict[str, Any]) -> None:
        """Called from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        message = {"kind": kind, "sent": time.time(), "snapshot": snapshot}
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._fan_out, message)

    def _fan_out(self, message: dict[str, Any]) -> None:
        for queue in list(self._clients):
            if queue.full():
                queue.get_nowait()  # drop the oldest: only the newest state matters
            queue.put_nowait(message)

    async def serve(self, ws: WebSocket, first: dict[str, Any] | None) -> None:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE)
        self._clients.add(queue)
        try:
            if first is not None:
                await ws.send_json({"kind": "hello", "sent": time.time(), "snapshot": first})
            else:
                await ws.send_json({"kind": "hello", "sent": time.time(), "snapshot": None})
            receiver = asyncio.create_task(self._drain(ws))
            while not receiver.done():
                getter = asyncio.create_task(queue.get())
                done, _ = await asyncio.wait(
                    {getter, receiver}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    await ws.send_json(getter.result())
                else:
                    getter.cancel()
        finally:
            self._clients.discard(queue)

    @staticmethod
    async def _drain(ws: WebSocket) -> None:
        # The dashboard sends nothing we act on; reading notices the disconnect.
        with contextlib.suppress(Exception):
            while True:
                await ws.receive_text()
