"""Fixtures for hardware tests: gpiozero's MockFactory installed and reset, an event collector
with condition-based waits, and a check that no hardware thread outlives a test."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

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


@pytest.fixture
def collector() -> Collector:
    return Collector()


@pytest.fixture
def mock_factory():
    """Install gpiozero's MockFactory as the default pin factory; reset and remove it after."""
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous


def hardware_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("parlor-hw-")]


@pytest.fixture(autouse=True)
def no_thread_left():
    """Every test must leave no parlor hardware thread running."""
    yield
    deadline = threading.Event()
    for _ in range(50):
        if not hardware_threads():
            break
        deadline.wait(0.05)
    assert hardware_threads() == []
