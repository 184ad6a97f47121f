"""The event value and its mapping to the UI's `post_input` names."""

from __future__ import annotations

import logging

import pytest

from hardware import EVENTS, InputEvent, UnknownEvent, forward_to, ui_name
from ui.ports import EVENTS as UI_EVENTS


def test_the_devices_and_the_ui_speak_the_same_input_vocabulary():
    """hardware may not import ui, nor ui hardware: each side declares the names, this holds them
    equal (a name added on one side only would be refused by the other)."""
    assert UI_EVENTS == EVENTS and len(EVENTS) == len(set(EVENTS)) == 8


def test_ui_name_mapping():
    assert ui_name(InputEvent("OK", "press", "gpio")) == "OK"
    assert ui_name(InputEvent("LEFT", "repeat", "serial")) == "LEFT"
    assert ui_name(InputEvent("MENU", "long", "mock")) == "MENU:long"
    assert ui_name(InputEvent("MENU", "release", "mock")) is None
    assert ui_name(InputEvent("MENU", "release", "mock"), releases=True) == "MENU:release"


def test_event_validation_and_equality_ignores_time():
    assert InputEvent("OK", "press", "gpio", 1.0) == InputEvent("OK", "press", "gpio", 2.0)
    with pytest.raises(UnknownEvent):
        InputEvent("ENTER")
    with pytest.raises(ValueError):
        InputEvent("OK", "double")  # type: ignore[arg-type]


def test_forward_to_posts_names_and_survives_a_failing_callback(caplog):
    posted: list[str] = []
    forward = forward_to(posted.append)
    for kind in ("press", "long", "repeat", "release"):
        forward(InputEvent("OK", kind))  # type: ignore[arg-type]
    assert posted == ["OK", "OK:long", "OK"]

    def broken(name: str) -> None:
        raise RuntimeError("ui gone")

    with caplog.at_level(logging.ERROR):
        forward_to(broken)(InputEvent("OK"))
    assert "post_input('OK') failed" in caplog.text

