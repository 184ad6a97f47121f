"""The base of the prompts that may ask for the kiosk PIN (exit, power off): the digits entered
on their keypad (touch or buttons) or with a keyboard's digit keys, shown as dots."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty

from ui.screens.base import BaseScreen


class PinScreen(BaseScreen):
    """`entered` holds the digits typed so far; `needs_pin` when the kiosk has a PIN to ask.
    The layout (kv) holds a `PinPad` with the id `pad` and a confirming button `confirm_id`."""

    entered = StringProperty("")
    message = StringProperty("")
    needs_pin = BooleanProperty(False)
    confirm_id = "confirm_button"

    def on_pre_enter(self, *_args: Any) -> None:
        self.entered = ""
        self.message = ""
        self.needs_pin = bool(self.app.kiosk and self.app.services.kiosk.exit_pin)

    def on_enter(self, *args: Any) -> None:
        super().on_enter(*args)
        if self.needs_pin:
            self._focus_first_key(frames=5)

    def _focus_first_key(self, frames: int) -> None:
        """Focus the keypad's 1; on the first visit it is laid out a few frames after entry."""
        key = self.first_key()
        if key is None or self.entered or self.manager is None or \
                self.manager.current != self.name:
            return
        if key in self.candidates():
            self.set_focus(key)
        elif frames > 0:
            Clock.schedule_once(lambda _dt: self._focus_first_key(frames - 1), 0)

    def digit(self, value: str) -> None:
        if len(self.entered) < 12:
            self.entered += value

    def type_digit(self, value: str) -> bool:
        """A digit typed on a keyboard: entered as a tap on its key would, and the focus moves
        to the confirming button so that Enter then confirms. False (not used) when no PIN is
        asked for."""
        if not self.needs_pin:
            return False
        self.digit(value)
        self.set_focus(self.ids[self.confirm_id])
        return True

    def erase(self) -> None:
        self.entered = self.entered[:-1]

    def first_key(self) -> Any:
        """The keypad's 1 (the focus on entry when a PIN is asked)."""
        return self.ids.pad.ids.get("key_1")
