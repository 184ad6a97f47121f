"""The kiosk exit prompt: confirm, or enter the PIN on a keypad (touch or buttons)."""

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

    def erase(self) -> None:
        self.entered = self.entered[:-1]

    def confirm(self) -> None:
        if not self.app.try_exit(self.entered if self.needs_pin else ""):
            self.entered = ""
            self.message = self.app.tr("Wrong PIN")

    def initial_focus(self) -> Any:
        return self.ids.get("key_1") if self.needs_pin else self.ids.get("cancel_button")
