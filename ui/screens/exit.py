"""The kiosk exit prompt: confirm, or enter the PIN on its keypad (touch or buttons) or with a
keyboard's digit keys."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from ui.screens.base import BaseScreen


class ExitScreen(BaseScreen):
    """`entered` holds the digits typed so far (shown as dots)."""

    entered = StringProperty("")
    message = StringProperty("")
    needs_pin = BooleanProperty(False)

    def on_pre_enter(self, *_args: Any) -> None:
        self.entered = ""
        self.message = ""
        self.needs_pin = bool(self.app.kiosk and self.app.services.kiosk.exit_pin)

    def digit(self, value: str) -> None:
        if len(self.entered) < 12:
            self.entered += value

    def type_digit(self, value: str) -> bool:
        """A digit typed on a keyboard: entered as a tap on its key would, and the focus moves
        to Exit so that Enter then confirms. False (not used) when no PIN is asked for."""
        if not self.needs_pin:
            return False
        self.digit(value)
        self.set_focus(self.ids.exit_button)
        return True

    def erase(self) -> None:
        self.entered = self.entered[:-1]

    def confirm(self) -> None:
        if not self.app.try_exit(self.entered if self.needs_pin else ""):
            self.entered = ""
            self.message = self.app.tr("Wrong PIN")

    def initial_focus(self) -> Any:
        return self.ids.get("key_1") if self.needs_pin else self.ids.get("cancel_button")
