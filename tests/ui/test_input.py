"""Semantic input events (issue 6 item 3): keyboard mapping, post_input from other threads, the
Controls page, and kiosk lockdown (issue 9): Esc/F1/Alt+F4 cannot leave, the exit gesture + PIN."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tests.ui.uitools import pump, settle, tap, wait_for
from ui.app_input import event_name
from ui.keys import event_for_key
from ui.ports import KioskSettings

pytestmark = pytest.mark.ui


def key(window: Any, code: int, up: bool = True) -> Any:
    result = window.dispatch("on_key_down", code, 0, None, [])
    if up:
        window.dispatch("on_key_up", code, 0)
    pump(1)
    return result


def test_keyboard_map() -> None:
    assert [event_for_key(k) for k in (276, 275, 273, 274, 32, 13, 271, 8, 27, 109, 291)] == [
        "LEFT", "RIGHT", "UP", "DOWN", "SELECT", "OK", "OK", "BACK", "BACK", "MENU", "MENU"
    ]
    assert event_for_key(ord("q")) is None


def test_event_names_are_validated() -> None:
    assert event_name("OK") == "OK"
    assert event_name("MENU:long") == "MENU:long"
    assert event_name("LEFT:repeat") == "LEFT"
    assert event_name("JUMP") is None and event_name("OK:twice") is None


def test_escape_goes_back_and_never_quits(make_app: Any, window: Any) -> None:
    app = make_app()
    seen = []
    window.bind(on_keyboard=lambda *a: seen.append(a))
    try:
        app.go("settings")
        assert key(window, 27) is True  # consumed: Kivy's own Esc handler never runs
        assert app.root.current == "home"
        assert key(window, 27) is True  # BACK on home does nothing, and still no quit
        assert app.root.current == "home"
        assert key(window, 282) is True  # F1: swallowed, and Kivy's settings never open
        assert app.open_settings() is False
        assert seen == []
    finally:
        window.unbind(on_keyboard=seen.append)


def test_keyboard_drives_focus_and_activation(make_app: Any, window: Any) -> None:
    app = make_app()
    home = app.root.get_screen("home")
    assert home.focused_widget == home.ids.play_meri
    key(window, 275)  # right
    assert "Rules" in home.focused_widget.text
    key(window, 13)  # Enter = OK
    assert app.root.current == "rules"
    key(window, 8)  # Backspace = BACK
    assert app.root.current == "home"
    key(window, 109)  # M = MENU
    assert app.root.current == "home"


def test_keyboard_can_be_switched_off(make_app: Any, window: Any) -> None:
    """`[input] keyboard = false`: keys are swallowed (Esc still never quits) and do nothing."""
    app = make_app()
    app.services.keyboard = False
    home = app.root.get_screen("home")
    before = home.focused_widget
    assert key(window, 275) is True and home.focused_widget is before
    key(window, 13)
    assert app.root.current == "home"
    app.services.keyboard = True


def test_held_arrow_repeats_but_held_menu_does_not(make_app: Any, window: Any) -> None:
    app = make_app()
    app.go("controls")
    pump(2)
    for _ in range(3):
        key(window, 276, up=False)  # SDL key repeat: down, down, down
    window.dispatch("on_key_up", 276, 0)
    for _ in range(3):
        key(window, 109, up=False)
    window.dispatch("on_key_up", 109, 0)
    pump(1)
    assert app.input_log[:4] == ["MENU", "LEFT", "LEFT", "LEFT"]


def test_post_input_from_another_thread_reaches_the_controls_page(make_app: Any) -> None:
    app = make_app()
    app.go("controls")
    pump(2)
    controls = app.root.get_screen("controls")
    worker = threading.Thread(target=lambda: [app.post_input(n) for n in ("UP", "SELECT")])
    worker.start()
    worker.join()
    assert controls.last == ""  # nothing touched widgets from the worker thread
    pump(2)
    assert controls.last == "SELECT" and app.input_log[:2] == ["SELECT", "UP"]
    app.post_input("NONSENSE")  # logged and ignored
    app.post_input("BACK")
    pump(2)
    assert app.root.current == "controls"  # one BACK is shown, not obeyed ...
    app.post_input("BACK")
    pump(2)
    assert app.root.current == "home"  # ... the second leaves


def test_window_close_refused_only_in_kiosk(make_app: Any, window: Any) -> None:
    app = make_app()
    assert not window.dispatch("on_request_close")
    app = make_app(kiosk=KioskSettings(enabled=True))
    assert window.dispatch("on_request_close") is True  # Alt+F4 cannot leave
    assert app.root.get_screen("home").ids.play_meri.opacity == 1


def test_kiosk_exit_gesture_with_pin(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(kiosk=KioskSettings(enabled=True, exit_pin="12", exit_hold_seconds=0.2))
    stopped = []
    monkeypatch.setattr(app, "stop", lambda *a: stopped.append(True))
    app.post_input("MENU:long")
    pump(1)
    app.post_input("MENU:release")  # let go too early: nothing happens
    pump(1)
    time.sleep(0.3)
    pump(3)
    assert app.root.current == "home"
    app.post_input("MENU:long")
    wait_for(lambda: app.root.current == "exit", seconds=5, what="exit prompt")
    settle()
    screen = app.root.current_screen
    assert screen.needs_pin
    for digit in "13":
        tap(next(w for w in screen.walk() if getattr(w, "text", None) == digit))
    tap(screen.ids.exit_button)
    assert not stopped and screen.message == "Wrong PIN" and screen.entered == ""
    for digit in "12":
        tap(next(w for w in screen.walk() if getattr(w, "text", None) == digit))
    tap(screen.ids.exit_button)
    assert stopped == [True]


def test_kiosk_exit_by_holding_the_m_key(make_app: Any, window: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(kiosk=KioskSettings(enabled=True, exit_hold_seconds=0.2))
    stopped = []
    monkeypatch.setattr(app, "stop", lambda *a: stopped.append(True))
    key(window, 109, up=False)
    wait_for(lambda: app.root.current == "exit", seconds=5, what="exit prompt")
    settle()
    window.dispatch("on_key_up", 109, 0)
    screen = app.root.current_screen
    assert not screen.needs_pin  # no PIN configured: the prompt only asks to confirm
    tap(screen.ids.cancel_button)
    assert app.root.current == "home" and not stopped


def test_no_exit_gesture_outside_kiosk(make_app: Any) -> None:
    app = make_app(kiosk=KioskSettings(enabled=False, exit_hold_seconds=0.05))
    app.post_input("MENU:long")
    time.sleep(0.1)
    pump(3)
    assert app.root.current == "home"


def test_heartbeat_and_turn_led(make_app: Any) -> None:
    app = make_app(pace=0)
    beats = []
    app.services.heartbeat = lambda: beats.append(time.monotonic())
    app._heartbeat(0)
    assert beats
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_for(lambda: table.prompt != "", what="the human's turn")
    assert app.services.outputs.leds.get("turn") is True


def test_kiosk_exit_by_holding_the_top_left_corner(make_app: Any, window: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    app = make_app(kiosk=KioskSettings(enabled=True, exit_hold_seconds=0.2))
    touch = UnitTestTouch(5, window.height - 5)
    touch.touch_down()
    wait_for(lambda: app.root.current == "exit", seconds=5, what="exit prompt")
    touch.touch_up()
    app.go_back()
    short = UnitTestTouch(5, window.height - 5)
    short.touch_down()
    pump(1)
    short.touch_up()  # let go early: no prompt
    time.sleep(0.3)
    pump(3)
    assert app.root.current == "home"
