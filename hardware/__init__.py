"""Physical controls: input sources that emit semantic events, and optional outputs.

The composition root (device/) builds everything from settings and wires it to the UI:

    sources = hardware.build_sources(input, gpio, serial, mock=desktop,
                                     when_event=hardware.forward_to(app.post_input))
    for source in sources:
        source.start()
    outputs = hardware.build_outputs(output_settings)   # set_led("turn", True), beep(), close()
    ...
    for source in sources:
        source.close()
    outputs.close()

Backends (gpiozero, pyserial) are imported only when a source that needs them is built.
"""

from __future__ import annotations

import logging
from typing import Any

from .errors import (
    BackendError,
    HardwareConfigError,
    HardwareError,
    ProtocolError,
    SourceClosed,
    SourceStopped,
    UnknownEvent,
)
from .events import EVENTS, InputEvent, forward_to, ui_name
from .mock import MockSource
from .outputs import NullOutputs
from .settings import GpioSettings, InputSettings, OutputSettings, SerialSettings
from .source import EventCallback, InputSource, ManualClock

log = logging.getLogger(__name__)

__all__ = [
    "EVENTS", "InputEvent", "ui_name", "forward_to",
    "InputSettings", "GpioSettings", "SerialSettings", "OutputSettings",
    "InputSource", "MockSource", "ManualClock", "NullOutputs",
    "build_sources", "build_outputs",
    "HardwareError", "HardwareConfigError", "UnknownEvent", "SourceClosed", "SourceStopped",
    "BackendError", "ProtocolError",
]


def build_sources(
    input: InputSettings,
    gpio: GpioSettings,
    serial: SerialSettings,
    *,
    mock: bool,
    when_event: EventCallback | None = None,
) -> list[InputSource]:
    """The input sources the settings ask for, not yet started.

    `mock=True` (desktop run, tests): a `MockSource` is added and GPIO buttons, if enabled, use
    gpiozero's mock pin factory; a serial keypad, if enabled, is still used (a USB keypad works on
    a desktop too). `mock=False`: GPIO with the configured pin factory, serial as configured.
    Raises `BackendError` (a `HardwareError`) with a one-line message if a backend cannot be set
    up (a missing serial device is not an error: it is waited for).
    """
    sources: list[InputSource] = []
    try:
        if mock:
            sources.append(MockSource(input, when_event=when_event))
        if gpio.enabled:
            from .gpio import GpioSource, make_pin_factory

            factory = make_pin_factory("mock" if mock else gpio.pin_factory)
            sources.append(GpioSource(gpio, input, pin_factory=factory, when_event=when_event))
        if serial.enabled:
            from .serial_keypad import SerialSource

            sources.append(SerialSource(serial, input, when_event=when_event))
    except BaseException:
        for source in sources:
            source.close()
        raise
    return sources


def build_outputs(settings: OutputSettings, *, mock: bool = False, pin_factory: str = "") -> Any:
    """`GpioOutputs` when an LED or buzzer is configured, else `NullOutputs`.

    Pins come from the named gpiozero pin factory (pass `GpioSettings.pin_factory`; "" =
    `GPIOZERO_PIN_FACTORY` or gpiozero's default), or the mock factory when `mock=True`.
    """
    if not settings.any:
        return NullOutputs()
    from .gpio import make_pin_factory
    from .outputs import GpioOutputs

    factory = make_pin_factory("mock" if mock else pin_factory)
    return GpioOutputs(settings, pin_factory=factory)
