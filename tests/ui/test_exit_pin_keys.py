"""The kiosk exit PIN from a keyboard (issue 18, part 6): the digit keys (top row and keypad)
type the PIN on the Exit screen and Enter confirms, with real key events on the window."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.uitools import pump, settle, wait_for
from ui.ports import KioskSettings

pytestmark = pytest.mark.ui

TOP_ROW = {str(n): 48 + n for n in range(10)}
KEYPAD = {str(n): 256 + n for n in range(10)}
ENTER, KEYPAD_ENTER, M = 13, 271, 109


def press(window: Any, code: int, text: str | None = None, up: bool = True) -> Any:
    """One key as the SDL2 window sends it: key down (with the text it types), then up."""
    used = window.dispatch("on_key_down", code, 0, text, [])
    if up:
        window.dispatch("on_key_up", code, 0)
    pump(1)
    return used


def type_digits(window: Any, digits: str, keys: dict[str, int]) -> None:
    for digit in digits:
        press(window, keys[digit], digit)


def to_exit_screen(app: Any, window: Any) -> Any:
    """Hold M until the exit prompt opens, then let go."""
    press(window, M, "m", up=False)
    wait_for(lambda: app.root.current == "exit", seconds=5, what="exit prompt")
    settle()
    window.dispatch("on_key_up", M, 0)
    return app.root.current_screen


def kiosk_app(make_app: Any, monkeypatch: pytest.MonkeyPatch, pin: str) -> tuple[Any, list]:
    app = make_app(kiosk=KioskSettings(enabled=True, exit_pin=pin, exit_hold_seconds=0.2))
    stopped: list[bool] = []
    monkeypatch.setattr(app, "stop", lambda *a: stopped.append(True))
    return app, stopped


def test_digit_keys_type_the_pin_and_enter_confirms(make_app: Any, window: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    app, stopped = kiosk_app(make_app, monkeypatch, "2580")
    screen = to_exit_screen(app, window)
    assert screen.needs_pin and screen.entered == ""
    type_digits(window, "25", TOP_ROW)
    type_digits(window, "80", KEYPAD)
    assert screen.entered == "2580" and not stopped
    assert screen.focused_widget is screen.ids.exit_button.__self__
    press(window, ENTER)
    assert stopped == [True]


def test_a_wrong_pin_typed_is_refused_and_can_be_typed_again(
        make_app: Any, window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app, stopped = kiosk_app(make_app, monkeypatch, "12")
    screen = to_exit_screen(app, window)
    type_digits(window, "13", TOP_ROW)
    press(window, KEYPAD_ENTER)
    assert not stopped and screen.message == "Wrong PIN" and screen.entered == ""
    assert app.root.current == "exit"
    type_digits(window, "12", KEYPAD)
    press(window, ENTER)
    assert stopped == [True]


def test_a_held_digit_types_once(make_app: Any, window: Any,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app, _ = kiosk_app(make_app, monkeypatch, "7")
    screen = to_exit_screen(app, window)
    for _ in range(4):  # the key repeating while held: one key down each time, no key up
        press(window, TOP_ROW["7"], "7", up=False)
    window.dispatch("on_key_up", TOP_ROW["7"], 0)
    assert screen.entered == "7"


def test_digits_are_not_used_without_a_pin_or_elsewhere(make_app: Any, window: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    app, stopped = kiosk_app(make_app, monkeypatch, "")
    assert not press(window, TOP_ROW["1"], "1")  # home: not Parlor's key, Kivy may have it
    screen = to_exit_screen(app, window)
    assert not screen.needs_pin
    assert not press(window, TOP_ROW["1"], "1") and screen.entered == ""
    assert not stopped


def test_digit_keys_do_nothing_with_the_keyboard_switched_off(
        make_app: Any, window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app, stopped = kiosk_app(make_app, monkeypatch, "12")
    app.go("exit")
    settle()
    app.services.keyboard = False
    screen = app.root.current_screen
    assert screen.needs_pin
    type_digits(window, "12", TOP_ROW)
    assert screen.entered == "" and not stopped
