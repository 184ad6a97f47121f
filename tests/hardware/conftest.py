"""Fixtures for hardware tests: gpiozero's MockFactory installed and reset, an event collector,
and a check that no hardware thread outlives a test."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from .helpers import Collector


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


def new_threads(before: set[threading.Thread]) -> list[str]:
    return [t.name for t in threading.enumerate() if t not in before and t.is_alive()]


@pytest.fixture(autouse=True)
def no_thread_left():
    """Every test must leave no thread running that it started (ours, pyserial's, gpiozero's)."""
    before = set(threading.enumerate())
    yield
    tick = threading.Event()
    for _ in range(100):
        if not new_threads(before):
            break
        tick.wait(0.02)
    assert new_threads(before) == []
