"""A phone table for tests: session + host + server on 127.0.0.1 + an owner thread playing AI.

The owner thread stands where the kiosk's Kivy thread will: it drains the server's posted jobs
and lets the bots play the seats the host says AI plays. Tests read the game through `call`
(run on the owner thread and wait). `Phone` is a real WebSocket client (websockets' sync
client) with a bounded wait on every receive: `Table.phone()` shows the table token at the
upgrade as the page does, `Table.stranger()` is a connection that does not (an attacker, or a
client that shows the token only in its first message).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from websockets.sync.client import ClientConnection, connect

from engine.session import Session
from ui.remote import protocol
from ui.remote.headless import HeadlessTable, OwnerLoop
from ui.remote.host import Host, HostEvent, SeatPlan
from ui.remote.server import PhoneServer, RateLimit

TIMEOUT = 10.0  # seconds any single wait may take


class Table:
    """A running phone table; use as a context manager (everything stops on exit)."""

    def __init__(self, game: str, seats: Sequence[SeatPlan], seed: int = 1, grace: float = 30.0,
                 rate: RateLimit | None = None, bots: bool = True, **options: Any) -> None:
        self.session = Session.new(game, seed)
        self.events: list[HostEvent] = []
        self.host = Host(self.session, seats, on_event=self.events.append)
        self.owner = OwnerLoop()
        self.bots = HeadlessTable(self.host, seed) if bots else None
        self.server = PhoneServer(self.host, self.owner.post, bind="127.0.0.1", port=0,
                                  grace=grace, rate=rate, ping_interval=None, **options)
        self.stop_owner = threading.Event()
        self.thread = threading.Thread(target=self._own, name="test-owner", daemon=True)

    def __enter__(self) -> Table:
        self.port = self.server.start()
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.stop()
        self.stop_owner.set()
        self.thread.join(TIMEOUT)

    def _own(self) -> None:
        while not self.stop_owner.is_set():
            self.owner.drain(0.01)
            if self.bots is not None:
                self.bots.step()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` on the owner thread and return its result."""
        done = threading.Event()
        box: list[Any] = []

        def job() -> None:
            box.append(fn())
            done.set()

        self.owner.post(job)
        assert done.wait(TIMEOUT), "the owner thread did not answer"
        return box[0]

    def phone(self) -> Phone:
        """A phone with the QR link: it offers the token at the upgrade, as the page does."""
        return Phone(self.port, token=self.token)

    def stranger(self, source: str = "127.0.0.1") -> Phone:
        """A connection from `source` (a 127.x.y.z address) that shows no token at the upgrade."""
        return Phone(self.port, source=source)

    @property
    def token(self) -> str:
        return self.server.token


class Phone:
    """A WebSocket client to the table (127.0.0.1, from `source`); every receive waits at most
    TIMEOUT. With `token` it offers the table token at the upgrade (`protocol.subprotocols`)."""

    def __init__(self, port: int, token: str | None = None, source: str = "127.0.0.1") -> None:
        opener = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=TIMEOUT, close_timeout=2,
                         max_size=2**22, subprotocols=protocol.subprotocols(token),
                         source_address=(source, 0))
        self.ws: ClientConnection = opener.__enter__()  # closed by `close`
        self.received: list[dict[str, Any]] = []

    def __enter__(self) -> Phone:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.ws.close()

    def send(self, **fields: Any) -> None:
        self.ws.send(json.dumps({"v": 1, **fields}))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(msg)
        return msg

    def until(self, match: Callable[[dict[str, Any]], bool], limit: int = 400,
              timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first message (of at most `limit`) for which `match` holds."""
        for _ in range(limit):
            msg = self.recv(timeout)
            if match(msg):
                return msg
        raise AssertionError(f"no matching message in {limit}")

    def until_type(self, kind: str, **fields: Any) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == kind
                          and all(m.get(k) == v for k, v in fields.items()))

    def join(self, token: str, seat: int, name: str = "Ann", lang: str = "en",
             secret: str | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"type": "join", "token": token, "seat": seat, "name": name,
                                  "lang": lang}
        if secret is not None:
            fields["secret"] = secret
        self.send(**fields)
        return self.until(lambda m: m["type"] in ("joined", "error"))

    def my_turn(self) -> dict[str, Any]:
        """The next state message in which this phone's seat is to act."""
        return self.until(lambda m: m["type"] == "state" and m["decision"] is not None)


def phones_then_ai(game_players: int, phones: int, names: Sequence[str] = ()) -> list[SeatPlan]:
    """Seats 0..phones-1 played by phones, the rest by AI."""
    return [SeatPlan("phone", names[s] if s < len(names) else "") if s < phones
            else SeatPlan("ai") for s in range(game_players)]
