"""Shared test settings: Kivy must never read the user's ~/.kivy or parse pytest's arguments."""

import os
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_USE_DEFAULTCONFIG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="parlor-kivy-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture
def mock_factory() -> Iterator[Any]:
    """gpiozero's MockFactory installed as the default pin factory for one test; reset and
    removed after (every pin it handed out is released)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous
