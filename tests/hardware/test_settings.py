"""The hardware settings are plain frozen values. Their field names and defaults are the config's
(tests/device/test_config.py checks every field against the schema, and that each default passes
the schema's check); the values are checked once, by the schema, not again here."""

from __future__ import annotations

import dataclasses

import pytest

from hardware import GpioSettings, InputSettings, OutputSettings, SerialSettings


@pytest.mark.parametrize("cls", [InputSettings, GpioSettings, SerialSettings, OutputSettings])
def test_settings_are_frozen(cls) -> None:
    settings = cls()
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(settings, name, getattr(settings, name))


def test_maps_are_not_shared_between_instances() -> None:
    first, second = GpioSettings(), GpioSettings()
    assert first.pins == second.pins and first.pins is not second.pins


def test_output_any() -> None:
    assert not OutputSettings().any
    assert OutputSettings(buzzer=12).any
    assert OutputSettings(led_thinking=24).any
