"""Rate-limited logging: noisy hardware (a chattering serial line, an absent device) must not
flood the journal. The first message of a kind is logged; then at most one per `interval`, with
the number suppressed in between."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable


class RateLimitedLog:
    """`log.warning("bad-line", "...")` logs at most once per `interval` seconds per key."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        interval: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}

    def log(self, level: int, key: str, msg: str, *args: object) -> bool:
        """Log unless `key` was logged less than `interval` ago. True if it was logged."""
        now = self._clock()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self.interval:
                self._suppressed[key] = self._suppressed.get(key, 0) + 1
                return False
            self._last[key] = now
            skipped = self._suppressed.pop(key, 0)
        if skipped:
            msg += " (%d similar suppressed)"
            args = (*args, skipped)
        self.logger.log(level, msg, *args)
        return True

    def warning(self, key: str, msg: str, *args: object) -> bool:
        return self.log(logging.WARNING, key, msg, *args)

    def info(self, key: str, msg: str, *args: object) -> bool:
        return self.log(logging.INFO, key, msg, *args)

    def reset(self, key: str) -> None:
        """Forget `key` (e.g. the device came back: the next failure is news again)."""
        with self._lock:
            self._last.pop(key, None)
            self._suppressed.pop(key, None)
