"""systemd's notify protocol, with the standard library only: READY, WATCHDOG, STOPPING, STATUS.

Under `Type=notify` systemd passes `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket)
and, with `WatchdogSec=`, `$WATCHDOG_USEC` (and `$WATCHDOG_PID`). `Notifier.heartbeat()` is what
the UI calls from its loop (`Services.heartbeat`): the first call says READY=1 (the window is up
and drawing), later ones send WATCHDOG=1 at most every quarter of the watchdog period, so a
frozen UI loop stops the pings and systemd restarts the service. Outside systemd it does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends sd_notify datagrams; every method is a no-op without `$NOTIFY_SOCKET`."""

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        self.clock = clock
        self.interval = watchdog_interval(env)
        self.ready_sent = False
        self._last_ping = float("-inf")
        self._sock: socket.socket | None = None
        self._warned = False

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        """Send one datagram (e.g. "READY=1"); False (logged once) if it could not be sent."""
        if not self.address:
            return False
        target = self.address
        if target.startswith("@"):
            target = "\0" + target[1:]
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode("utf-8"), target)
        except OSError as exc:
            if not self._warned:
                log.warning("systemd notify to %s failed: %s", self.address, exc)
                self._warned = True
            return False
        return True

    def ready(self, status: str = "") -> None:
        self.ready_sent = True
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def heartbeat(self) -> None:
        """Called from the UI loop: READY=1 the first time, then WATCHDOG=1 when due."""
        if not self.address:
            return
        if not self.ready_sent:
            self.ready("table ready")
        if self.interval is None:
            return
        now = self.clock()
        if now - self._last_ping >= self.interval:
            self._last_ping = now
            self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def watchdog_interval(environ: Mapping[str, str]) -> float | None:
    """Seconds between pings (a quarter of `WatchdogSec`), or None without a watchdog for us."""
    raw = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID", "")
    if not raw:
        return None
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(raw)
    except ValueError:
        return None
    return usec / 4_000_000 if usec > 0 else None
