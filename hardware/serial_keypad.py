"""The serial keypad backend: a microcontroller keypad speaking the line protocol (protocol.py).

A reader thread (pyserial's `ReaderThread` with a stricter loop, `GuardedReaderThread`) reads the
port and feeds a `LineReader` subclass (`TERMINATOR = b"\\n"`). A supervisor thread opens the
port, waits while it is connected, and when the device goes away (unplugged USB, closed pty)
releases any held keys, logs one line and reopens it with backoff — starting at
`reopen_seconds / 8`, doubling up to `reopen_seconds` — without ever blocking the UI.

There is one disconnect path: whatever fails on the reader thread — `read`, `in_waiting` (an
`OSError` or `termios.error` when the device vanishes mid-transfer, which pyserial's own loop
does not catch), setting the timeout, or the protocol — ends in `connection_lost`, so the
supervisor always hears of it. Bad lines, unknown words and noise are logged (rate-limited) and
ignored.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import serial
from serial.threaded import LineReader, ReaderThread

from .errors import ProtocolError
from .events import EVENTS
from .keys import Timing
from .protocol import Hello, KeyLine, LineSplitter, parse_line
from .ratelog import RateLimitedLog
from .settings import InputSettings, SerialSettings
from .source import Clock, EventCallback, InputSource

log = logging.getLogger(__name__)

Opener = Callable[..., Any]  # like serial.serial_for_url(url, baudrate=...)


class GuardedReaderThread(ReaderThread):
    """`ReaderThread` whose loop turns any exception into `connection_lost(exc)`, exactly once.

    pyserial's loop only catches `SerialException` around `read`; an error from `in_waiting`
    (evaluated in the same expression) or from `is_open`/`timeout` killed the thread silently,
    leaving held keys pressed and the port never reopened.
    """

    def run(self) -> None:
        error: BaseException | None = None
        self.protocol = self.protocol_factory()
        try:
            if not hasattr(self.serial, "cancel_read"):
                self.serial.timeout = 1
            self.protocol.connection_made(self)
            self._connection_made.set()
            while self.alive and self.serial.is_open:
                data = self.serial.read(self.serial.in_waiting or 1)
                if data:
                    self.protocol.data_received(data)
        except Exception as exc:  # any fault of the port (or of our protocol): one path out
            error = exc
        finally:
            self.alive = False
            self._connection_made.set()
            try:
                self.protocol.connection_lost(error)
            finally:
                self.protocol = None


class KeypadLineReader(LineReader):
    """The pyserial protocol object: bytes -> bounded lines -> the source's `_line`."""

    TERMINATOR = b"\n"

    def __init__(self, source: SerialSource) -> None:
        super().__init__()
        self.source = source
        self.splitter = LineSplitter(self.TERMINATOR)

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.source._made()

    def data_received(self, data: bytes) -> None:
        for item in self.splitter.feed(data):
            if isinstance(item, ProtocolError):
                self.source._bad_line(item)
            else:
                self.handle_packet(item)

    def handle_packet(self, packet: bytes) -> None:
        # Parsed as bytes (not LineReader's utf-8 decode): noise must be rejected, not replaced.
        self.source._line(packet)

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(None)  # LineReader re-raises exc; we report it instead
        self.source._lost(exc)


class SerialSource(InputSource):
    """Key events from a serial keypad (`KEY OK DOWN` / `KEY OK UP` lines)."""

    label = "serial"

    def __init__(
        self,
        settings: SerialSettings,
        input: InputSettings | None = None,
        *,
        opener: Opener = serial.serial_for_url,
        clock: Clock = time.monotonic,
        when_event: EventCallback | None = None,
        log_interval: float = 30.0,
    ) -> None:
        super().__init__(
            timing=Timing.from_settings(input or InputSettings()),
            names=EVENTS,
            clock=clock,
            when_event=when_event,
        )
        self.settings = settings
        self._opener = opener
        self._ratelog = RateLimitedLog(log, interval=log_interval)
        self._wake = threading.Event()  # set on stop or when the connection is lost
        self._stop_requested = threading.Event()
        self._connected = threading.Event()
        self._supervisor: threading.Thread | None = None
        self._reader: ReaderThread | None = None
        self.hello: Hello | None = None
        self.connections = 0  # successful opens so far (a reopen counts again)
        self.disconnects = 0  # connections lost (each logged once)
        self._lost_error: BaseException | None = None

    # -- status --------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """Block up to `timeout` seconds until the port is open and read; True if it is."""
        return self._connected.wait(timeout)

    # -- life cycle hooks ----------------------------------------------------------------------
    def _open(self) -> None:
        self._stop_requested.clear()
        self._wake.clear()
        self._supervisor = threading.Thread(
            target=self._supervise, name="parlor-hw-serial-supervisor", daemon=True
        )
        self._supervisor.start()

    def _shut(self) -> None:
        self._stop_requested.set()
        self._wake.set()
        thread, self._supervisor = self._supervisor, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)
            if thread.is_alive():
                log.warning("serial keypad supervisor did not stop in time")

    # -- supervisor ------------------------------------------------------------------------------
    def _supervise(self) -> None:
        first = self.settings.reopen_seconds / 8
        delay = first
        port_name = self.settings.port
        while not self._stop_requested.is_set():
            try:
                port = self._opener(port_name, baudrate=self.settings.baud)
            except Exception as exc:  # SerialException, OSError, ValueError (bad URL), ...
                self._ratelog.warning(
                    "open", "serial keypad %s not available (%s); retrying", port_name, exc
                )
                self._stop_requested.wait(delay)
                delay = min(delay * 2, self.settings.reopen_seconds)
                continue
            if self._stop_requested.is_set():
                _quietly(port.close)
                break
            try:
                self._run_connection(port)
            except Exception as exc:  # never let the supervisor die: that would end reopening
                log.warning("serial keypad %s: %s; reopening", port_name, exc)
                _quietly(port.close)
                self._connected.clear()
                self._release_keys()
            delay = first
            if not self._stop_requested.is_set():
                self._stop_requested.wait(delay)

    def _run_connection(self, port: Any) -> None:
        reader = GuardedReaderThread(port, lambda: KeypadLineReader(self))
        reader.name = "parlor-hw-serial-reader"
        self._wake.clear()
        self._lost_error = None
        self.hello = None
        self._reader = reader
        # `_shut` sets the stop flag before the wake event, so checking the flag after clearing
        # the event cannot miss a stop request.
        if not self._stop_requested.is_set():
            reader.start()
            self._wake.wait()  # connection lost, or stop requested
        if reader.is_alive():
            _quietly(reader.close)
        else:
            _quietly(port.close)
        self._reader = None
        was_connected = self._connected.is_set()
        self._connected.clear()
        self._release_keys()
        if was_connected and not self._stop_requested.is_set():
            self.disconnects += 1
            why = f" ({self._lost_error})" if self._lost_error is not None else ""
            log.warning("serial keypad %s disconnected%s; reopening", self.settings.port, why)

    # -- called from the reader thread -----------------------------------------------------------
    def _made(self) -> None:
        self.connections += 1
        self._ratelog.reset("open")
        log.info("serial keypad %s connected", self.settings.port)
        self._connected.set()

    def _lost(self, exc: BaseException | None) -> None:
        self._lost_error = exc  # logged once, by the supervisor
        self._wake.set()

    def _line(self, raw: bytes) -> None:
        try:
            parsed = parse_line(raw, self.settings.names)
        except ProtocolError as exc:
            self._bad_line(exc)
            return
        if isinstance(parsed, KeyLine):
            self._edge(parsed.name, parsed.pressed)
        elif isinstance(parsed, Hello):
            self.hello = parsed
            log.info("serial keypad says hello: %s %s", parsed.device, parsed.version)

    def _bad_line(self, exc: ProtocolError) -> None:
        self._ratelog.warning("line", "serial keypad %s: ignored %s", self.settings.port, exc)


def _quietly(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception as exc:  # closing a vanished device may fail; it is gone either way
        log.debug("ignored while closing the serial port: %s", exc)
