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
# No test writes to the real /sys: the backlight is looked for in an empty folder (the app run in
# a subprocess inherits it); backlight tests build fake sysfs trees in their tmp_path.
os.environ["PARLOR_BACKLIGHT_DIR"] = tempfile.mkdtemp(prefix="parlor-no-backlight-")

# Property-based tests (hypothesis): a bounded run in the suite, a long one behind `make fuzz`
# (HYPOTHESIS_PROFILE=fuzz). No example database: tests write only under their tmp folders.
try:
    from hypothesis import HealthCheck, settings

    _SLOW_OK = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                HealthCheck.data_too_large]
    settings.register_profile("suite", max_examples=40, deadline=None, database=None,
                              suppress_health_check=_SLOW_OK, print_blob=True)
    settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "3000")),
                              deadline=None, database=None, suppress_health_check=_SLOW_OK,
                              print_blob=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))
except ImportError:  # the test extras are not installed: the property tests are skipped
    pass


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
