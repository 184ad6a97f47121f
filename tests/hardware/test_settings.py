"""Settings mirror the config schema ([input], [input.gpio], [input.serial], [output]) exactly,
and bad values give a one-line `HardwareConfigError` naming the key."""

from __future__ import annotations

import dataclasses

import pytest

from hardware import (
    GpioSettings,
    HardwareConfigError,
    InputSettings,
    OutputSettings,
    SerialSettings,
)


def fields(cls) -> dict:
    return {f.name: getattr(cls(), f.name) for f in dataclasses.fields(cls)}


def test_defaults_are_the_schema_defaults():
    assert fields(InputSettings) == {
        "keyboard": True, "hold_seconds": 0.8, "repeat_delay": 0.5, "repeat_interval": 0.15,
        "repeat_events": ("LEFT", "RIGHT", "UP", "DOWN"),
    }
    assert fields(GpioSettings) == {
        "enabled": False, "pin_factory": "", "pull_up": True, "bounce_ms": 30,
        "pins": {"LEFT": 5, "RIGHT": 6, "UP": 13, "DOWN": 19, "SELECT": 26, "OK": 16,
                 "BACK": 20, "MENU": 21},
    }
    assert fields(SerialSettings) == {
        "enabled": False, "port": "/dev/ttyACM0", "baud": 115200, "reopen_seconds": 2.0,
        "names": {},
    }
    assert fields(OutputSettings) == {"led_turn": 0, "led_thinking": 0, "buzzer": 0}


def test_settings_are_frozen_and_lists_become_tuples():
    s = InputSettings(repeat_events=["LEFT"])
    assert s.repeat_events == ("LEFT",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.hold_seconds = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: InputSettings(hold_seconds=-1), "[input] hold_seconds"),
        (lambda: InputSettings(hold_seconds=True), "[input] hold_seconds must be a number"),
        (lambda: InputSettings(repeat_delay=0.5, repeat_interval=0), "repeat_interval"),
        (lambda: InputSettings(repeat_events=["JUMP"]), "'JUMP' is not an input event"),
        (lambda: InputSettings(repeat_events="LEFT"), "must be a list"),
        (lambda: GpioSettings(pins={"FIRE": 5}), "[input.gpio.pins] FIRE"),
        (lambda: GpioSettings(pins={"OK": 40}), "BCM pin 0 .. 27"),
        (lambda: GpioSettings(pins={"OK": 5, "BACK": 5}), "both use GPIO5"),
        (lambda: GpioSettings(bounce_ms=-3), "[input.gpio] bounce_ms"),
        (lambda: GpioSettings(pull_up="yes"), "pull_up must be true or false"),
        (lambda: SerialSettings(baud=0), "baud must be a positive integer"),
        (lambda: SerialSettings(port=""), "port must be a non-empty string"),
        (lambda: SerialSettings(names={"ENTER": "GO"}), "[input.serial.names] ENTER"),
        (lambda: SerialSettings(names={"en ter": "OK"}), "keypad words"),
        (lambda: OutputSettings(buzzer=99), "[output] buzzer"),
        (lambda: OutputSettings(led_turn=17, led_thinking=17), "both use GPIO17"),
    ],
)
def test_bad_values_give_one_line_errors(make, fragment):
    with pytest.raises(HardwareConfigError) as info:
        make()
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message
    assert isinstance(info.value, ValueError)


def test_output_any():
    assert not OutputSettings().any
    assert OutputSettings(buzzer=12).any
