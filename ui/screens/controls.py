"""Controls: every input event is shown live as it arrives (testing buttons and keypads).

All events are shown rather than acted on, so each button can be tried; BACK twice in a row
(or the Done button, by touch) leaves.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from ui.screens.base import BaseScreen


class ControlsScreen(BaseScreen):
    """`last` is the newest event; the log comes from `app.input_log`."""

    last = StringProperty("")
    _back_once = False

    def on_pre_enter(self, *_args: Any) -> None:
        self.last = ""
        self._back_once = False

    def on_input(self, name: str) -> bool:
        self.last = name
        if name == "BACK":
            if self._back_once:
                self.app.go_back()
            self._back_once = True
        else:
            self._back_once = False
        return True

    def initial_focus(self) -> Any:
        return self.ids.get("done_button")
