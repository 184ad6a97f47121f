"""Issue 8: physical buttons drive the app through the composition root.

Real gpiozero mock pins (MockFactory) → our GPIO source (debounce) → `device.main.build_devices`
→ `ParlorApp.post_input` (handed to Kivy's main thread) → a whole Meri trick played, human included.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from device import main as root
from device.config import load_text
from tests.ui.conftest import make_app, window  # noqa: F401  (the UI fixtures)
from tests.ui.uitools import pump, wait_for

pytestmark = pytest.mark.ui

PINS = {"LEFT": 5, "RIGHT": 6, "UP": 13, "DOWN": 19, "SELECT": 26, "OK": 16, "BACK": 20,
        "MENU": 21}


def press(factory: Any, name: str) -> None:
    """A real button press on the mock pin (pull-up: low = pressed), held past the debounce."""
    pin = factory.pin(PINS[name])
    pin.drive_low()
    time.sleep(0.04)
    pin.drive_high()
    time.sleep(0.04)
    pump(2)


def test_gpio_buttons_play_a_whole_meri_trick(make_app: Any, mock_factory: Any) -> None:  # noqa: F811
    config, problems = load_text('[input.gpio]\nenabled = true\npin_factory = "mock"\n'
                                 "bounce_ms = 20\n")
    assert problems == []
    app = make_app(pace=0)
    devices = root.build_devices(config, app.post_input, mock=False)
    try:
        assert devices.sources, "the GPIO source was built"
        press(mock_factory, "OK")  # home: Play Hachinin Meri has the focus: you and AI
        wait_for(lambda: app.root.current == "meri", what="the Meri table")
        table = app.root.get_screen("meri")
        human_played = False
        while not (human_played and table.session.state.observation(0).tricks):
            wait_for(lambda: table.prompt != "" or bool(table.session.state.observation(0).tricks),
                     what="your turn or a finished trick")
            if table.prompt == "":
                continue
            before = len(table.session.record.actions)
            if table.prompt == "declare":
                press(mock_factory, "OK")
            else:
                playing = table.prompt == "play"
                hand = table.ids.hand
                for _ in range(12):  # walk right (then left) to a legal card
                    if table.focused_widget in [hand.views[i] for i in hand.legal]:
                        break
                    press(mock_factory, "LEFT" if table.focused_widget is hand.views[-1] else "RIGHT")
                press(mock_factory, "SELECT")
                assert table.picked_codes() == [table.focused_widget.code]
                press(mock_factory, "OK")
                human_played = human_played or playing
            wait_for(lambda b=before: len(table.session.record.actions) > b, what="the action")
        _leader, cards, _winner, _meri, _transfer = table.session.state.observation(0).tricks[0]
        assert len(cards) == 8  # the first trick is complete, your card in it
    finally:
        devices.close()
