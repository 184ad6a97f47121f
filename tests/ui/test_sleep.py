"""Screen sleep and wake (issue 17 parts 5 and 6): the screen dims after the idle minutes, then
goes off; the waking touch, key or button only wakes it and never reaches the table; the minutes
do not count while bots play a deal the player watches; the backlight (a fake sysfs tree in
tmp_path) is restored on wake and when the app stops. Time is a fake clock given to the sleeper."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hardware.backlight import open_backlight
from tests.fakesysfs import level, make_backlight
from tests.ui.uitools import pump, render, wait_for
from ui.ports import SleepSettings
from ui.sleep import AWAKE, DIM, OFF

pytestmark = pytest.mark.ui

SLEEP = SleepSettings(dim_after_minutes=5, off_after_minutes=15, dim_percent=20)


class FakeTime:
    """The sleeper's clock: moves only when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def sleepy_app(make_app: Any, backlight: Any = None) -> tuple[Any, FakeTime]:
    app = make_app(sleep=SLEEP, backlight=backlight)
    clock = FakeTime()
    app.sleeper.now = clock
    app.sleeper.wake()  # the idle time starts on the fake clock
    return app, clock


def idle(app: Any, clock: FakeTime, seconds: float) -> str:
    clock.t += seconds
    app.sleeper.tick()
    return app.sleeper.state


def touch(widget: Any, moves: int = 2) -> None:
    """A finger down on `widget`, sliding a little, then up."""
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    finger = UnitTestTouch(x, y)
    finger.touch_down()
    for step in range(moves):
        finger.touch_move(x + step + 1, y)
    finger.touch_up()
    pump(1)


def brightest(window: Any) -> int:
    """The brightest colour value in the drawn window (a full frame rendered first)."""
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    render(2)
    width, height = (int(v) for v in window.size)
    return max(glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE))


def backlight_in(tmp_path: Path) -> tuple[Any, Path]:
    link = make_backlight(tmp_path / "sys", maximum=31, brightness=25)
    backlight = open_backlight(tmp_path / "sys" / "class" / "backlight")
    assert backlight is not None
    return backlight, link


def test_dims_then_turns_off_and_the_wake_restores_the_brightness(make_app: Any,
                                                                  tmp_path: Path) -> None:
    backlight, link = backlight_in(tmp_path)
    app, clock = sleepy_app(make_app, backlight)
    assert idle(app, clock, 299) == AWAKE and level(link) == 25
    assert idle(app, clock, 1) == DIM and level(link) == 6  # 20 % of 31
    assert app.sleeper.curtain.parent is None  # the backlight dims: the picture stays
    assert idle(app, clock, 599) == DIM
    assert idle(app, clock, 1) == OFF and level(link) == 0 and level(link, "bl_power") == 4
    home = app.root.get_screen("home")
    touch(home.ids.play_meri)
    assert app.sleeper.state == AWAKE and level(link) == 25 and level(link, "bl_power") == 0
    assert app.root.current == "home"  # the waking touch did not start a game
    assert idle(app, clock, 299) == AWAKE  # the idle time starts again from the wake


def test_input_keeps_the_screen_awake(make_app: Any) -> None:
    app, clock = sleepy_app(make_app)
    home = app.root.get_screen("home")
    idle(app, clock, 200)
    touch(home.ids.continue_button)  # disabled (nothing saved): a touch that does nothing
    assert app.root.current == "home"
    assert idle(app, clock, 200) == AWAKE  # 400 s since start, 200 since the touch
    app.handle_input("RIGHT")
    assert idle(app, clock, 200) == AWAKE
    assert idle(app, clock, 100) == DIM


def test_without_a_backlight_a_black_curtain_covers_the_window(make_app: Any,
                                                               window: Any) -> None:
    app, clock = sleepy_app(make_app)  # NoBacklight
    curtain = app.sleeper.curtain
    assert idle(app, clock, 300) == DIM
    assert window.children[0] is curtain and curtain.opacity == pytest.approx(0.8)
    pump(2)
    assert tuple(curtain.size) == tuple(window.size)
    assert idle(app, clock, 600) == OFF and curtain.opacity == 1.0
    assert brightest(window) == 0  # drawn: nothing of the home screen shows
    app.handle_input("OK")
    assert app.sleeper.state == AWAKE and curtain.parent is None
    assert brightest(window) > 100


def test_a_backlight_that_stops_answering_falls_back_to_the_curtain(make_app: Any,
                                                                    tmp_path: Path) -> None:
    backlight, link = backlight_in(tmp_path)
    app, clock = sleepy_app(make_app, backlight)
    (link / "brightness").unlink()
    (link / "brightness").mkdir()  # the display went away (we run as root: no EACCES to use)
    assert idle(app, clock, 300) == DIM and app.sleeper.curtain.parent is not None


def human_turn(app: Any) -> Any:
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_for(lambda: table.human_deciding() and table.prompt != "", what="the human's turn")
    pump(3)
    return table


def test_the_waking_touch_never_reaches_the_table(make_app: Any, tmp_path: Path) -> None:
    backlight, link = backlight_in(tmp_path)
    app, clock = sleepy_app(make_app, backlight)
    table = human_turn(app)
    actions = len(table.session.record.actions)
    assert idle(app, clock, 300) == DIM  # the table waits for the human: the minutes count
    touch(table.ids.menu_button)  # down, moves and up on "Menu": only wakes
    assert app.sleeper.state == AWAKE and level(link) == 25
    assert app.root.current == "meri"
    assert idle(app, clock, 900) == OFF
    hand = table.ids.hand
    touch(hand.views[0], moves=0)  # a tap on a card: only wakes
    assert hand.picked == [] and len(table.session.record.actions) == actions
    touch(table.ids.menu_button)  # awake: the same touch acts
    assert app.root.current == "home"


def test_a_button_or_key_while_asleep_only_wakes(make_app: Any, window: Any) -> None:
    app, clock = sleepy_app(make_app)
    home = app.root.get_screen("home")
    focused = home.focused_widget
    assert idle(app, clock, 300) == DIM
    assert app.handle_input("OK") is True  # a button press: wakes, nothing activated
    assert app.root.current == "home" and home.focused_widget is focused
    assert app.handle_input("OK:long") is True and app.handle_input("OK:release") is True
    assert app.input_log == []  # none of it reached the app
    assert idle(app, clock, 900) == OFF
    app.handle_input("RIGHT")  # wakes
    app.handle_input("RIGHT")  # its auto-repeat while still held
    app.handle_input("RIGHT:release")
    assert home.focused_widget is focused
    app.handle_input("RIGHT")  # the next press moves the focus
    assert home.focused_widget is not focused
    focused = home.focused_widget
    assert idle(app, clock, 300) == DIM
    assert window.dispatch("on_key_down", 276, 0, None, []) is True  # Left arrow: wakes only
    assert window.dispatch("on_key_down", 276, 0, None, []) is True  # held: repeats swallowed
    window.dispatch("on_key_up", 276, 0)
    pump(1)
    assert home.focused_widget is focused and app.sleeper.state == AWAKE
    window.dispatch("on_key_down", 276, 0, None, [])
    window.dispatch("on_key_up", 276, 0)
    pump(1)
    assert home.focused_widget is not focused


def test_no_sleep_while_bots_play_a_deal_the_player_watches(make_app: Any) -> None:
    app, clock = sleepy_app(make_app)
    table = human_turn(app)
    table.play(table.session.state.legal_actions()[0])
    assert table.session.state.to_act != 0 and table.bots_playing()
    assert idle(app, clock, 3600) == AWAKE  # an hour of bots playing: the screen stays on
    wait_for(lambda: table.human_deciding(), what="the human's turn again")
    assert not table.bots_playing()
    assert idle(app, clock, 299) == AWAKE  # counted from when the bots stopped
    assert idle(app, clock, 1) == DIM


def test_a_demo_deal_keeps_the_screen_on(make_app: Any) -> None:
    app, clock = sleepy_app(make_app)
    table = app.root.get_screen("meri")
    table.autoplay = True  # every seat a bot (the demo and the benchmarks)
    try:
        app.new_game("meri")
        assert table.bots_playing()
        assert idle(app, clock, 3600) == AWAKE
    finally:
        table.autoplay = False
        table.shutdown()


def test_stopping_the_app_restores_the_backlight(make_app: Any, tmp_path: Path) -> None:
    backlight, link = backlight_in(tmp_path)
    app, clock = sleepy_app(make_app, backlight)
    assert idle(app, clock, 900) == OFF and level(link) == 0
    app.dispatch("on_stop")
    assert level(link) == 25 and level(link, "bl_power") == 0
    assert app.sleeper.curtain.parent is None
