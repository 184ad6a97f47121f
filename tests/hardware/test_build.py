"""The builders the composition root calls: `build_sources` and `build_outputs`."""

from __future__ import annotations

import logging

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

import hardware
from hardware import (
    BackendError,
    GpioSettings,
    InputSettings,
    MockSource,
    NullOutputs,
    OutputSettings,
    SerialSettings,
    build_outputs,
    build_sources,
    forward_to,
)
from hardware.gpio import GpioSource
from hardware.serial_keypad import SerialSource

from .helpers import eventually


def test_nothing_configured_gives_no_source_and_null_outputs():
    assert build_sources(InputSettings(), GpioSettings(), SerialSettings(), mock=False) == []
    outputs = build_outputs(OutputSettings())
    assert isinstance(outputs, NullOutputs)
    outputs.set_led("turn", True)
    outputs.beep()
    outputs.close()


def test_desktop_mock_source_wired_to_post_input():
    posted: list[str] = []
    [source] = build_sources(InputSettings(), GpioSettings(), SerialSettings(), mock=True,
                             when_event=forward_to(posted.append))
    assert isinstance(source, MockSource)
    source.start()
    source.tap("OK")
    source.hold("MENU", 1.0)
    source.hold("RIGHT", 0.7)
    source.close()
    assert posted == ["OK", "MENU", "MENU:long", "RIGHT", "RIGHT", "RIGHT"]


def test_mock_run_with_gpio_uses_the_mock_pin_factory(mock_factory):
    sources = build_sources(InputSettings(), GpioSettings(enabled=True, pin_factory="lgpio"),
                            SerialSettings(), mock=True)
    assert [type(s) for s in sources] == [MockSource, GpioSource]
    assert sources[1].pin_factory is mock_factory
    for s in sources:
        s.close()


def test_gpio_pins_reach_the_ui_as_names(mock_factory):
    posted: list[str] = []
    [source] = build_sources(InputSettings(), GpioSettings(enabled=True, bounce_ms=0),
                             SerialSettings(), mock=False, when_event=forward_to(posted.append))
    source.start()
    source.pin("BACK").drive_low()
    source.pin("BACK").drive_high()
    assert eventually(lambda: posted == ["BACK"])
    source.close()


def test_env_mock_pin_factory_and_no_serial_device_give_no_errors(monkeypatch, caplog, tmp_path):
    """GPIOZERO_PIN_FACTORY=mock, GPIO and serial enabled, the serial device absent: builds,
    starts and closes with no exception and nothing logged at ERROR."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    previous = Device.pin_factory
    Device.pin_factory = None  # let gpiozero pick the factory from the environment
    try:
        serial_settings = SerialSettings(enabled=True, port=str(tmp_path / "ttyACM0"),
                                         reopen_seconds=0.05)
        with caplog.at_level(logging.DEBUG):
            sources = build_sources(InputSettings(), GpioSettings(enabled=True), serial_settings,
                                    mock=False)
            outputs = build_outputs(OutputSettings(led_turn=23, buzzer=12))
            for source in sources:
                source.start()
            serial_source = sources[1]
            assert isinstance(serial_source, SerialSource)
            assert eventually(lambda: "not available" in caplog.text)
            outputs.set_led("turn", True)
            for source in sources:
                source.close()
            outputs.close()
        assert isinstance(Device.pin_factory, MockFactory)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
            Device.pin_factory.close()
        Device.pin_factory = previous


def test_a_failing_backend_closes_what_was_built(mock_factory):
    with pytest.raises(BackendError, match="GPIO2"):
        build_sources(InputSettings(), GpioSettings(enabled=True, pull_up=False, pins={"OK": 2}),
                      SerialSettings(), mock=True)


def test_importing_hardware_loads_no_backend():
    import subprocess
    import sys

    code = ("import sys, hardware; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'serial')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=hardware.__path__[0] + "/..")
    assert out.stdout.strip() == "[]"
