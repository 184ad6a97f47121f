"""Fixtures for hardware tests: an event collector and a check that no hardware thread outlives a
test (gpiozero's MockFactory fixture, `mock_factory`, is shared from tests/conftest.py)."""

from __future__ import annotations

import threading

import pytest

from .helpers import Collector


@pytest.fixture
def collector() -> Collector:
    return Collector()


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
