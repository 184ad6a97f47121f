"""Helpers for hardware tests: an event collector with condition-based waits."""

from __future__ import annotations

import threading

from hardware.events import InputEvent

TIMEOUT = 5.0  # generous upper bound for thread hand-offs; waits return as soon as ready


class Collector:
    """A `when_event` callback that records events and lets a test wait for them."""

    def __init__(self) -> None:
        self.events: list[InputEvent] = []
        self.threads: set[str] = set()
        self._cond = threading.Condition()

    def __call__(self, event: InputEvent) -> None:
        with self._cond:
            self.events.append(event)
            self.threads.add(threading.current_thread().name)
            self._cond.notify_all()

    def wait_for(self, predicate, timeout: float = TIMEOUT) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.events), timeout)

    def wait_count(self, n: int, timeout: float = TIMEOUT) -> list[InputEvent]:
        assert self.wait_for(lambda ev: len(ev) >= n, timeout), f"got only {self.pairs()}"
        return list(self.events)

    def pairs(self) -> list[tuple[str, str]]:
        with self._cond:
            return [(e.name, e.kind) for e in self.events]


def eventually(predicate, timeout: float = TIMEOUT) -> bool:
    """Poll `predicate` every 10 ms until true or `timeout` (for state outside the collector)."""
    tick = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return True
        tick.wait(0.01)
    return predicate()
