"""Frozen settings for inputs and outputs: the [input], [input.gpio], [input.serial] and [output]
sections of the config file, with exactly its field names and defaults.

`device/config.py` builds these from the validated TOML; each class checks its own values again in
`__post_init__` and raises `HardwareConfigError` with a one-line message naming the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import HardwareConfigError
from .events import EVENTS

BCM_PINS = range(0, 28)  # GPIO0..GPIO27 are on the 40-pin header
DEFAULT_PINS: dict[str, int] = {
    "LEFT": 5, "RIGHT": 6, "UP": 13, "DOWN": 19, "SELECT": 26, "OK": 16, "BACK": 20, "MENU": 21,
}
_WORD = re.compile(r"[A-Z0-9_]{1,16}")


def _number(section: str, key: str, value: Any, low: float, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise HardwareConfigError(f"[{section}] {key} must be a number, not {value!r}")
    if value < low or (high is not None and value > high):
        span = f"{low} .. {high}" if high is not None else f">= {low}"
        raise HardwareConfigError(f"[{section}] {key} must be {span}, not {value!r}")
    return float(value)


def _flag(section: str, key: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise HardwareConfigError(f"[{section}] {key} must be true or false, not {value!r}")


def _event(section: str, key: str, value: Any) -> str:
    if value not in EVENTS:
        raise HardwareConfigError(
            f"[{section}] {key}: {value!r} is not an input event ({' '.join(EVENTS)})"
        )
    return value


@dataclass(frozen=True)
class InputSettings:
    """[input]: long-press and auto-repeat timing shared by every source."""

    keyboard: bool = True
    hold_seconds: float = 0.8  # 0 = no long-press events
    repeat_delay: float = 0.5  # 0 = no auto-repeat
    repeat_interval: float = 0.15
    repeat_events: tuple[str, ...] = ("LEFT", "RIGHT", "UP", "DOWN")

    def __post_init__(self) -> None:
        _flag("input", "keyboard", self.keyboard)
        _number("input", "hold_seconds", self.hold_seconds, 0, 60)
        _number("input", "repeat_delay", self.repeat_delay, 0, 60)
        _number("input", "repeat_interval", self.repeat_interval, 0, 60)
        if self.repeat_delay > 0 and self.repeat_interval <= 0:
            raise HardwareConfigError("[input] repeat_interval must be > 0 when repeat_delay > 0")
        if isinstance(self.repeat_events, str):
            raise HardwareConfigError("[input] repeat_events must be a list of event names")
        names = tuple(_event("input", "repeat_events", n) for n in self.repeat_events)
        object.__setattr__(self, "repeat_events", names)


@dataclass(frozen=True)
class GpioSettings:
    """[input.gpio] and [input.gpio.pins]: buttons wired from a BCM pin to ground."""

    enabled: bool = False
    pin_factory: str = ""  # "" = GPIOZERO_PIN_FACTORY or gpiozero's default; "lgpio"; "mock"
    pull_up: bool = True
    bounce_ms: int = 30
    pins: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))

    def __post_init__(self) -> None:
        _flag("input.gpio", "enabled", self.enabled)
        _flag("input.gpio", "pull_up", self.pull_up)
        if not isinstance(self.pin_factory, str):
            raise HardwareConfigError("[input.gpio] pin_factory must be a string")
        _number("input.gpio", "bounce_ms", self.bounce_ms, 0, 1000)
        pins: dict[str, int] = {}
        seen: dict[int, str] = {}
        for name, pin in dict(self.pins).items():
            _event("input.gpio.pins", name, name)
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
                raise HardwareConfigError(
                    f"[input.gpio.pins] {name} must be a BCM pin 0 .. 27, not {pin!r}"
                )
            if pin in seen:
                raise HardwareConfigError(
                    f"[input.gpio.pins] {name} and {seen[pin]} both use GPIO{pin}"
                )
            seen[pin] = name
            pins[name] = pin
        object.__setattr__(self, "pins", pins)


@dataclass(frozen=True)
class SerialSettings:
    """[input.serial] and [input.serial.names]: a keypad speaking the line protocol."""

    enabled: bool = False
    port: str = "/dev/ttyACM0"  # a device path or a pyserial URL such as "loop://"
    baud: int = 115200
    reopen_seconds: float = 2.0
    names: Mapping[str, str] = field(default_factory=dict)  # keypad word -> event

    def __post_init__(self) -> None:
        _flag("input.serial", "enabled", self.enabled)
        if not isinstance(self.port, str) or not self.port:
            raise HardwareConfigError("[input.serial] port must be a non-empty string")
        if isinstance(self.baud, bool) or not isinstance(self.baud, int) or self.baud <= 0:
            raise HardwareConfigError(f"[input.serial] baud must be a positive integer, not {self.baud!r}")
        _number("input.serial", "reopen_seconds", self.reopen_seconds, 0.01, 3600)
        names: dict[str, str] = {}
        for word, event in dict(self.names).items():
            if not isinstance(word, str) or not _WORD.fullmatch(word):
                raise HardwareConfigError(
                    f"[input.serial.names] {word!r}: keypad words are 1-16 of A-Z 0-9 _"
                )
            names[word] = _event("input.serial.names", word, event)
        object.__setattr__(self, "names", names)


@dataclass(frozen=True)
class OutputSettings:
    """[output]: BCM pins of the LEDs and buzzer; 0 = not fitted."""

    led_turn: int = 0
    led_thinking: int = 0
    buzzer: int = 0

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for key in ("led_turn", "led_thinking", "buzzer"):
            pin = getattr(self, key)
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
                raise HardwareConfigError(f"[output] {key} must be a BCM pin 1 .. 27 or 0, not {pin!r}")
            if pin and pin in seen:
                raise HardwareConfigError(f"[output] {key} and {seen[pin]} both use GPIO{pin}")
            if pin:
                seen[pin] = key

    @property
    def any(self) -> bool:
        """True when at least one output is fitted."""
        return bool(self.led_turn or self.led_thinking or self.buzzer)
