"""Frozen settings for inputs and outputs: the [input], [input.gpio], [input.serial] and [output]
sections of the config file, with exactly its field names.

The field defaults ARE the config's built-in defaults: `device/schema.py` (the one config schema,
which checks every value) reads them from here, so hardware can build its settings alone (the
`python -m hardware` tools, tests) without importing `device`. Values are not checked again here:
whoever builds these from user input checks them first (the schema does, for the config file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_PINS: dict[str, int] = {
    "LEFT": 5, "RIGHT": 6, "UP": 13, "DOWN": 19, "SELECT": 26, "OK": 16, "BACK": 20, "MENU": 21,
}


@dataclass(frozen=True)
class InputSettings:
    """[input]: long-press and auto-repeat timing shared by every source."""

    keyboard: bool = True
    hold_seconds: float = 0.8  # 0 = no long-press events
    repeat_delay: float = 0.5  # 0 = no auto-repeat
    repeat_interval: float = 0.15
    repeat_events: tuple[str, ...] = ("LEFT", "RIGHT", "UP", "DOWN")


@dataclass(frozen=True)
class GpioSettings:
    """[input.gpio] and [input.gpio.pins]: buttons wired from a BCM pin to ground."""

    enabled: bool = False
    pin_factory: str = ""  # "" = GPIOZERO_PIN_FACTORY or gpiozero's default; "lgpio"; "mock"
    pull_up: bool = True
    bounce_ms: int = 30
    pins: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))


@dataclass(frozen=True)
class SerialSettings:
    """[input.serial] and [input.serial.names]: a keypad speaking the line protocol."""

    enabled: bool = False
    port: str = "/dev/ttyACM0"  # a device path or a pyserial URL such as "loop://"
    baud: int = 115200
    reopen_seconds: float = 2.0
    names: Mapping[str, str] = field(default_factory=dict)  # keypad word -> event


@dataclass(frozen=True)
class OutputSettings:
    """[output]: BCM pins of the LEDs and buzzer; 0 = not fitted."""

    led_turn: int = 0
    led_thinking: int = 0
    buzzer: int = 0

    @property
    def any(self) -> bool:
        """True when at least one output is fitted."""
        return bool(self.led_turn or self.led_thinking or self.buzzer)
