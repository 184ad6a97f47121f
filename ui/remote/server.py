"""The phone server: the page over HTTP and the protocol over a WebSocket, on one port.

Library: `websockets` (asyncio). One small pure-Python package with no dependencies serves
both halves: its `process_request` hook answers the page's files (the page, its card sheets and
its words: a fixed table read at start, never a path joined to a folder), its
WebSocket layer enforces the frame size limit and keeps connections alive with pings (a phone
that sleeps is noticed), and its client is what the tests connect with. The event loop runs on
one background thread (`start`/`stop`); the game is only ever touched on the owner thread,
reached through `post` (see `ui.remote.host`).

Who may connect at all is `ui.remote.admission`'s: connections that showed the table token
(at the upgrade, or in their first message) and strangers have separate pools, so a stranger
never takes a token holder's slot; a stranger is closed at its first refused message, or when
`hello_timeout` has passed since its opening.

Everything a phone sends is checked here before the owner thread sees it: the table token, the
seat secret issued at join, the message's size and form (`ui.remote.protocol`), and a rate
limit per connection; the action's legality is the engine's, on the owner thread. A refused
message gets an `error` and a log line (the first `LOG_PER_CONNECTION` per connection), never
a crash or a change in the game.
"""

from __future__ import annotations

import asyncio
import http
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ui.remote import admission, art, protocol
from ui.remote.admission import (
    CODE_TRIES,
    HELLO_TIMEOUT,
    MAX_PROVEN,
    MAX_UNPROVEN,
    MAX_UNPROVEN_PER_ADDRESS,
    TableCode,
)
from ui.remote.host import PHONE, Host, Outcome
from ui.remote.protocol import Act, Check, Code, Hello, Join, Lang, ProtocolError, name_key
from ui.remote.strings import page_strings, words
from ui.remote.views import deck

log = logging.getLogger("parlor.remote")

STATIC = Path(__file__).with_name("static")
#: URL path -> (file in static/, content type). Nothing else is served.
FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
#: URL path -> game: the card sheets (`ui.remote.art`), cached by the phone (their URLs carry
#: a digest). Every path served is a key of `FILES` or of this: no path reaches the file system.
CARD_FILES = {art.url_path(game): game for game in art.GAMES}
WS_PATH = "/ws"
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "connect-src 'self' ws: wss:; img-src 'self' data:; "
                                "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
}
LOG_PER_CONNECTION = 5  # refused messages logged per connection (then one line saying so)
#: Strangers' refusals logged per minute, all strangers together (then one line saying so): each
#: is closed at its first, so an attacker reconnecting in a loop would otherwise fill the journal.
LOG_STRANGERS_PER_MINUTE = 10
MAX_ERRORS = 50  # refused messages before the connection is closed (1008, policy violation)
FLOOD_CLOSE = 200  # messages dropped by the rate limit in a row before closing
MAX_PENDING = 4  # actions of one phone waiting for the owner thread
MAX_OUTBOX = 64  # messages waiting to be written to one phone before it is dropped as too slow


@dataclass
class RateLimit:
    """A token bucket: `burst` messages at once, refilled at `per_second`."""

    burst: float = 12.0
    per_second: float = 6.0


@dataclass(eq=False)
class Connection:
    """One phone's WebSocket and what it has proved."""

    ws: ServerConnection
    peer: str
    tokens: float
    stamp: float
    address: str = "?"
    proven: bool = False  # it has shown the table token (at the upgrade or in a message)
    deadline: float = 0.0  # event-loop time by which a stranger must show the token
    seat: int | None = None
    lang: str = "en"
    errors: int = 0
    logged: int = 0
    dropped: int = 0
    pending: int = 0
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


class PhoneServer:
    """HTTP + WebSocket for the phone seats of one `Host`; `start()` on the owner thread."""

    def __init__(
        self,
        host: Host,
        post: Callable[[Callable[[], None]], None],
        bind: str = "0.0.0.0",
        port: int = 8765,
        grace: float = 60.0,
        token: str | None = None,
        seat_secrets: dict[int, str] | None = None,
        rate: RateLimit | None = None,
        max_connections: int = MAX_PROVEN,
        ping_interval: float | None = 20.0,
        max_unproven: int = MAX_UNPROVEN,
        max_unproven_per_address: int = MAX_UNPROVEN_PER_ADDRESS,
        hello_timeout: float = HELLO_TIMEOUT,
        code_tries: int = CODE_TRIES,
    ) -> None:
        self.host = host
        self.post = post
        self.bind = bind
        self.port = port
        self.grace = grace
        self.token = token or secrets.token_urlsafe(16)
        self.secrets: dict[int, str] = dict(seat_secrets or {})
        self.rate = rate or RateLimit()
        self.max_connections = max_connections  # token holders
        self.max_unproven = max_unproven  # strangers, in all
        self.max_unproven_per_address = max_unproven_per_address
        self.hello_timeout = hello_timeout
        self.code = TableCode(code_tries)  # new with each server: a restarted kiosk shows anew
        self.ping_interval = ping_interval
        # Read on the owner thread, before the loop starts: the seats never change in a match.
        self.table = host.table()
        self.phone_seats = set(host.phone_seats())
        self.holders: dict[int, Connection] = {}
        self.connections: set[Connection] = set()
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.files: dict[str, tuple[bytes, str, str]] = {
            path: ((STATIC / name).read_bytes(), kind, SECURITY_HEADERS["Cache-Control"])
            for path, (name, kind) in FILES.items()}
        self.files.update({path: (art.sheet_path(game).read_bytes(), "image/png",
                                  art.CACHE_CONTROL) for path, game in CARD_FILES.items()})
        # The page's words before it holds the token (the table code's form): nothing secret.
        self.files.update({f"/words/{lang}.json": (
            protocol.encode(page_strings(lang)).encode(), "application/json; charset=utf-8",
            "max-age=3600") for lang in protocol.LANGUAGES})
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server: Server | None = None
        self.thread: threading.Thread | None = None
        self.stopping: asyncio.Event | None = None
        self.counts = {"in": 0, "out": 0, "bytes_out": 0, "refused": 0}
        self.strangers_logged = (0.0, 0)  # (start of the minute, lines logged in it)

    # -- life cycle (owner thread) -------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> int:
        """Listen (in the background thread); returns the port. `OSError` if it cannot bind."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self.loop = loop
            try:
                loop.run_until_complete(self._serve(ready))
            except BaseException as exc:  # reported to start(), or logged if after it
                failure.append(exc)
                ready.set()
                if not isinstance(exc, OSError):
                    log.exception("phone server stopped")
            finally:
                loop.close()

        self.thread = threading.Thread(target=run, name="parlor-phones", daemon=True)
        self.thread.start()
        if not ready.wait(timeout):
            raise OSError("the phone server did not start in time")
        if failure:
            raise failure[0]
        self.host.attach(self.deliver)
        return self.port

    def stop(self, timeout: float = 5.0) -> None:
        """Close every connection and stop listening (on the owner thread)."""
        self.host.attach(None)
        loop, stopping = self.loop, self.stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:  # the loop has already closed
                pass
        if self.thread is not None:
            self.thread.join(timeout)

    def keys(self) -> dict[str, Any]:
        """The table token and seat secrets, to save with the game: a kiosk restarted after a
        power cut gives them back to `PhoneServer(token=..., seat_secrets=...)` and the phones
        return to their seats."""
        return {"token": self.token, "secrets": {str(s): k for s, k in self.secrets.items()}}

    @staticmethod
    def saved_keys(data: Any) -> dict[str, Any]:
        """The constructor's `token` and `seat_secrets` from what `keys()` gave (read back from
        the store: anything malformed is dropped, and the table gets new keys)."""
        if not isinstance(data, dict):
            return {}
        token, stored = data.get("token"), data.get("secrets")
        if not isinstance(token, str) or not protocol.KEY_PATTERN.fullmatch(token):
            return {}
        out: dict[int, str] = {}
        if isinstance(stored, dict):
            for seat, secret in stored.items():
                if (isinstance(seat, str) and seat.isdigit() and len(seat) <= 2
                        and isinstance(secret, str) and protocol.KEY_PATTERN.fullmatch(secret)):
                    out[int(seat)] = secret
        return {"token": token, "seat_secrets": out}

    def release(self, seat: int) -> None:
        """Forget the seat's secret (a player gave the seat up): the next phone may take it."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._release, seat)

    # -- thread-safe entry points --------------------------------------------------------------
    def deliver(self, seat: int, text: str) -> None:
        """A state message for `seat` (called by the host on the owner thread)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._deliver, seat, text)
            except RuntimeError:
                pass

    # -- the event loop's side -----------------------------------------------------------------
    async def _serve(self, ready: threading.Event) -> None:
        self.stopping = asyncio.Event()
        async with serve(self._handler, self.bind, self.port, process_request=self._http,
                         select_subprotocol=admission.choose_subprotocol,
                         max_size=protocol.MAX_FRAME, max_queue=16, compression=None,
                         ping_interval=self.ping_interval, ping_timeout=self.ping_interval,
                         server_header=None) as server:
            self.server = server
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            log.info("phone server listening on %s port %d", self.bind, self.port)
            await self.stopping.wait()
            for timer in self.timers.values():
                timer.cancel()
            server.close(close_connections=True)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer plain HTTP (the page's files, the card sheets, the page's words: each a key of
        `self.files`, read at start; a request's path is only ever looked up there, so no path
        reaches the file system); let `/ws` upgrade to a WebSocket."""
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            proven = admission.shows_token(request, self.token)
            if not self._has_room(proven, admission.source_address(connection)):
                return self._response(http.HTTPStatus.SERVICE_UNAVAILABLE, b"busy\n",
                                      "text/plain; charset=utf-8")
            return None
        found = self.files.get(path)
        if found is None:
            return self._response(http.HTTPStatus.NOT_FOUND, b"not found\n",
                                  "text/plain; charset=utf-8")
        body, kind, cache = found
        return self._response(http.HTTPStatus.OK, body, kind, cache)

    @staticmethod
    def _response(status: http.HTTPStatus, body: bytes, kind: str,
                  cache: str = SECURITY_HEADERS["Cache-Control"]) -> Response:
        headers = Headers({"Content-Type": kind, "Content-Length": str(len(body)),
                           **SECURITY_HEADERS, "Cache-Control": cache})
        return Response(status.value, status.phrase, headers, body)

    def _has_room(self, proven: bool, address: str) -> bool:
        """Whether a connection (`proven`: one that showed the token) from `address` may open,
        or a stranger from there become a token holder, next to the open connections."""
        return admission.has_room(
            ((c.proven, c.address) for c in self.connections), proven, address,
            max_proven=self.max_connections, max_unproven=self.max_unproven,
            per_address=self.max_unproven_per_address)

    async def _handler(self, ws: ServerConnection) -> None:
        address = admission.source_address(ws)
        proven = ws.request is not None and admission.shows_token(ws.request, self.token)
        # Checked again: upgrades answered together may have passed `_http`'s check together.
        if not self._has_room(proven, address):
            ws.close_timeout = 0.5
            await ws.close(1013, "busy")
            return
        conn = Connection(ws, _peer(ws), self.rate.burst, time.monotonic(), address, proven,
                          asyncio.get_running_loop().time() + self.hello_timeout)
        self.connections.add(conn)
        writer = asyncio.ensure_future(self._writer(conn))
        try:
            await self._receive(conn)
        except ConnectionClosed:
            pass
        finally:
            conn.outbox.put_nowait(None)
            try:
                await asyncio.wait_for(writer, 2.0)
            except (TimeoutError, ConnectionClosed):
                writer.cancel()
            self.connections.discard(conn)
            if conn.seat is not None and self.holders.get(conn.seat) is conn:
                self._lost(conn.seat)

    async def _receive(self, conn: Connection) -> None:
        ws, loop = conn.ws, asyncio.get_running_loop()
        while True:
            try:  # a stranger's deadline counts from its opening, whatever it sends meanwhile
                timeout = None if conn.proven else max(0.0, conn.deadline - loop.time())
                raw = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                await self._close(conn, 1008, "no hello")
                return
            self.counts["in"] += 1
            if not self._take_token(conn):
                conn.dropped += 1
                if conn.dropped == 1:
                    self._refuse(conn, ProtocolError("rate", "slow down"))
                if not conn.proven:  # a stranger: its first refusal
                    await self._close(conn, 1008, "rate")
                    return
                if conn.dropped >= FLOOD_CLOSE:
                    log.warning("phones: %s flooded the table: closing", conn.peer)
                    await self._close(conn, 1008, "flood")
                    return
                continue
            conn.dropped = 0
            try:
                msg = protocol.parse(raw)
                await self._dispatch(conn, msg)
            except ProtocolError as exc:
                self._refuse(conn, exc)
                if exc.code == "busy":
                    await self._close(conn, 1013, exc.code)
                    return
                if exc.code == "token" or not conn.proven or conn.errors >= MAX_ERRORS:
                    await self._close(conn, 1008, exc.code)  # a stranger: its first refusal
                    return

    def _take_token(self, conn: Connection) -> bool:
        now = time.monotonic()
        conn.tokens = min(self.rate.burst, conn.tokens + (now - conn.stamp) * self.rate.per_second)
        conn.stamp = now
        if conn.tokens < 1.0:
            return False
        conn.tokens -= 1.0
        return True

    async def _dispatch(self, conn: Connection, msg: protocol.Message) -> None:
        if isinstance(msg, Hello):
            self._prove(conn, msg.token)
            conn.lang = msg.lang or conn.lang
            self._send(conn, protocol.message("table", **self._table(),
                                              strings=page_strings(conn.lang)))
        elif isinstance(msg, Join):
            self._join(conn, msg)
        elif isinstance(msg, Act | Check):
            seat = conn.seat
            if seat is None:
                raise ProtocolError("order", "join a seat first", msg.ref)
            if conn.pending >= MAX_PENDING:
                raise ProtocolError("rate", "wait for the answers", msg.ref)
            conn.pending += 1
            ask = self.host.submit if isinstance(msg, Act) else self.host.check

            def job() -> None:
                try:
                    outcome = ask(seat, msg.action)
                except Exception:  # a bug must not reach the kiosk's Clock: log, answer, go on
                    log.exception("phones: seat %d: %r failed on the owner thread", seat,
                                  msg.action[:40])
                    outcome = Outcome("closed", detail="the table could not take that action")
                self._answer(conn, msg, outcome)

            self.post(job)
        elif isinstance(msg, Code):
            self._trade_code(conn, msg.code)
        elif isinstance(msg, Lang):
            if conn.seat is None:
                raise ProtocolError("order", "join a seat first")
            seat, conn.lang = conn.seat, msg.lang
            self._send(conn, protocol.message("strings", lang=msg.lang,
                                              strings=page_strings(msg.lang),
                                              deck=deck(self.table["game"], msg.lang)))
            self.post(lambda: self.host.set_lang(seat, msg.lang))

    def _prove(self, conn: Connection, token: str) -> None:
        """Check the message's table token; a stranger showing it becomes a token holder (if
        the token holders' pool has room: else `busy`, and the connection is closed)."""
        if not secrets.compare_digest(token.encode(), self.token.encode()):
            raise ProtocolError("token")
        if not conn.proven:
            if not self._has_room(True, conn.address):
                raise ProtocolError("busy", f"{self.max_connections} phones are connected")
            conn.proven = True

    def _trade_code(self, conn: Connection, guess: str) -> None:
        """The table code typed on a phone: the right one gets the table token (and makes a
        stranger a token holder, if that pool has room); a wrong one uses one of the code's
        tries (`admission.TableCode`) and, as any refusal, closes a stranger."""
        if self.code.locked:
            raise ProtocolError("locked")
        if not self.code.check(guess):
            if self.code.locked:
                log.warning("phones: too many wrong table codes: the code is locked (the QR "
                            "code still works)")
            raise ProtocolError("code")
        if not conn.proven:
            if not self._has_room(True, conn.address):
                raise ProtocolError("busy", f"{self.max_connections} phones are connected")
            conn.proven = True
        self._send(conn, protocol.message("token", token=self.token))

    def _table(self) -> dict[str, Any]:
        seats = [dict(s, free=(s["kind"] == PHONE and s["seat"] not in self.secrets))
                 for s in self.table["seats"]]
        return {"game": self.table["game"], "title": self.table["title"], "seats": seats}

    def _join(self, conn: Connection, msg: Join) -> None:
        self._prove(conn, msg.token)
        seat = msg.seat
        if seat not in self.phone_seats:
            raise ProtocolError("seat", f"seat {seat} is not a phone seat")
        if conn.seat is not None:
            raise ProtocolError("order", "this connection already holds a seat")
        issued = self.secrets.get(seat)
        if issued is not None:
            if msg.secret is None:
                raise ProtocolError("taken", f"seat {seat} has joined already")
            if not secrets.compare_digest(msg.secret.encode(), issued.encode()):
                raise ProtocolError("secret")
        if msg.name and any(name_key(s["name"]) == name_key(msg.name)
                            for s in self.table["seats"] if s["seat"] != seat):
            raise ProtocolError("name", f"another seat is called {msg.name}")
        secret = issued or secrets.token_urlsafe(18)
        self.secrets[seat] = secret
        old = self.holders.get(seat)
        if old is not None and old is not conn:  # the same phone again before its drop was seen
            old.seat = None
            asyncio.ensure_future(old.ws.close(1000, "replaced"))
        timer = self.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        conn.seat = seat
        conn.lang = msg.lang or conn.lang
        self.holders[seat] = conn
        if msg.name:
            self.table["seats"][seat]["name"] = msg.name
        self._send(conn, protocol.message(
            "joined", seat=seat, secret=secret, lang=conn.lang, game=self.table["game"],
            title=words(conn.lang).tr(self.table["title"]), strings=page_strings(conn.lang),
            deck=deck(self.table["game"], conn.lang), art=art.sheet(self.table["game"])))
        log.info("phones: %s joined seat %d", conn.peer, seat)
        name, lang = msg.name, msg.lang
        self.post(lambda: self.host.join(seat, name, lang))

    def _answer(self, conn: Connection, msg: Act | Check, outcome: Outcome) -> None:
        """Owner thread: hand the engine's verdict back to the loop."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._reply, conn, msg, outcome)
            except RuntimeError:
                pass

    def _reply(self, conn: Connection, msg: Act | Check, outcome: Outcome) -> None:
        conn.pending = max(0, conn.pending - 1)
        act = isinstance(msg, Act)
        if outcome.ok:
            if act:
                self._send(conn, protocol.message("accepted", ref=msg.ref, action=msg.action))
            else:
                self._send(conn, protocol.message("verdict", ref=msg.ref, action=msg.action,
                                                  ok=True))
            return
        extra: dict[str, Any] = {}
        if outcome.code == "illegal":
            extra = {"rule": outcome.rule, "reason": words(conn.lang).reason(outcome.rule)}
        if not act and outcome.code in ("illegal", "malformed"):
            self._send(conn, protocol.message("verdict", ref=msg.ref, action=msg.action,
                                              ok=False, **extra))
            return
        self._refuse(conn, ProtocolError(outcome.code, outcome.detail or outcome.rule, msg.ref),
                     **extra)

    def _refuse(self, conn: Connection, exc: ProtocolError, **extra: Any) -> None:
        conn.errors += 1
        self.counts["refused"] += 1
        if self._may_log(conn):
            log.warning("phones: %s seat %s: refused (%s): %s", conn.peer, conn.seat, exc.code,
                        exc.detail[:120])
        self._send(conn, protocol.error(exc.code, exc.detail, exc.ref, **extra))

    def _may_log(self, conn: Connection) -> bool:
        """Whether this refusal gets a log line: the first `LOG_PER_CONNECTION` of a token
        holder's connection; for strangers, `LOG_STRANGERS_PER_MINUTE` among them all."""
        if conn.proven:
            conn.logged += 1
            if conn.logged == LOG_PER_CONNECTION + 1:
                log.warning("phones: %s: further refusals are not logged", conn.peer)
            return conn.logged <= LOG_PER_CONNECTION
        start, lines = self.strangers_logged
        now = time.monotonic()
        if now - start >= 60.0:
            start, lines = now, 0
        self.strangers_logged = (start, lines + 1)
        if lines == LOG_STRANGERS_PER_MINUTE:
            log.warning("phones: more refusals of connections without the token: not logged "
                        "for the rest of the minute")
        return lines < LOG_STRANGERS_PER_MINUTE

    def _send(self, conn: Connection, msg: dict[str, Any] | str) -> None:
        """Queue a message for the connection's writer (messages go out in order)."""
        if conn.outbox.qsize() >= MAX_OUTBOX:
            log.warning("phones: %s does not read its messages: dropped", conn.peer)
            asyncio.ensure_future(conn.ws.close(1013, "too slow"))
            return
        text = msg if isinstance(msg, str) else protocol.encode(msg)
        self.counts["out"] += 1
        self.counts["bytes_out"] += len(text.encode("utf-8"))
        conn.outbox.put_nowait(text)

    @staticmethod
    async def _writer(conn: Connection) -> None:
        """Write the connection's messages in order until the None that ends it."""
        while (text := await conn.outbox.get()) is not None:
            try:
                await conn.ws.send(text)
            except ConnectionClosed:
                return

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        """Send what is queued (e.g. the error saying why), then close."""
        conn.outbox.put_nowait(None)
        for _ in range(200):
            if conn.outbox.empty():
                break
            await asyncio.sleep(0.01)
        # A hostile phone's unread messages hold back its close reply: do not wait for it long.
        conn.ws.close_timeout = 0.5
        await conn.ws.close(code, reason)

    def _deliver(self, seat: int, text: str) -> None:
        conn = self.holders.get(seat)
        if conn is not None:
            self._send(conn, text)

    def _lost(self, seat: int) -> None:
        """The seat's phone went away: AI plays for it if it is not back within `grace`."""
        del self.holders[seat]
        log.info("phones: seat %d disconnected (AI takes over in %.0f s)", seat, self.grace)
        self.post(lambda: self.host.leave(seat))
        loop = asyncio.get_running_loop()
        self.timers[seat] = loop.call_later(self.grace, self._grace_over, seat)

    def _grace_over(self, seat: int) -> None:
        self.timers.pop(seat, None)
        if seat not in self.holders:
            log.info("phones: seat %d still away: AI plays for it", seat)
            self.post(lambda: self.host.set_away(seat))

    def _release(self, seat: int) -> None:
        self.secrets.pop(seat, None)
        conn = self.holders.pop(seat, None)
        if conn is not None:
            conn.seat = None
            asyncio.ensure_future(conn.ws.close(1000, "seat released"))


def _peer(ws: ServerConnection) -> str:
    try:
        address = ws.remote_address
        return f"{address[0]}:{address[1]}"
    except (TypeError, IndexError, AttributeError, OSError):
        return "?"
