"""Someone on the LAN without the table's token, trying to keep the phones out.

`Attacker` keeps `count` WebSocket connections open against the table from several source
addresses (127.0.0.2, 127.0.0.3, … round robin), none showing the token at the upgrade, each
trickling a refused message every `every` seconds; whenever the server closes one or refuses
an upgrade, it opens another. It runs real clients (websockets' asyncio client) on its own
event loop in a background thread, and counts what the server answered.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ui.remote import protocol

#: A well-formed message the server refuses from a connection without a seat ("order").
REFUSED = json.dumps({"v": 1, "type": "act", "action": "pass"})


class Attacker:
    """Use as a context manager: the connections are opened on enter and closed on exit."""

    def __init__(self, port: int, count: int, sources: int = 8, every: float = 2.0,
                 pause: float = 0.05) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.count = count
        self.sources = [f"127.0.0.{2 + i}" for i in range(sources)]
        self.every = every
        self.pause = pause
        self.opened = 0  # upgrades the server accepted
        self.busy = 0  # upgrades it answered 503
        self.closed = 0  # connections it closed
        self.open_now = 0
        self.sent = 0  # refused messages sent
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, name="attacker", daemon=True)
        self.ready = threading.Event()

    def __enter__(self) -> Attacker:
        self.thread.start()
        assert self.ready.wait(10.0)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.loop is not None and self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(10.0)

    def wait(self, condition: Any, timeout: float = 10.0) -> None:
        """Wait until `condition()` holds (polled); AssertionError after `timeout`."""
        end = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < end, "the attack did not get there in time"
            time.sleep(0.02)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.stopping = asyncio.Event()
        self.ready.set()
        tasks = [asyncio.ensure_future(self._slot(i)) for i in range(self.count)]
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _slot(self, index: int) -> None:
        source = self.sources[index % len(self.sources)]
        while True:
            try:
                async with connect(self.url, open_timeout=10, close_timeout=0.5,
                                   subprotocols=protocol.subprotocols(None),
                                   local_addr=(source, 0)) as ws:
                    self.opened += 1
                    self.open_now += 1
                    try:
                        await self._trickle(ws)
                    finally:
                        self.open_now -= 1
            except InvalidStatus as exc:
                assert exc.response.status_code == 503, exc
                self.busy += 1
            except (ConnectionClosed, OSError, TimeoutError):
                pass
            await asyncio.sleep(self.pause)

    async def _trickle(self, ws: Any) -> None:
        """Send a refused message every `every` seconds (reading the answers) until closed."""
        reader = asyncio.ensure_future(self._drain(ws))
        try:
            while not reader.done():
                done, _ = await asyncio.wait([reader], timeout=self.every)
                if done:
                    break
                await ws.send(REFUSED)
                self.sent += 1
        except ConnectionClosed:
            pass
        finally:
            reader.cancel()
        self.closed += 1

    @staticmethod
    async def _drain(ws: Any) -> None:
        try:
            async for _ in ws:
                pass
        except ConnectionClosed:
            pass
