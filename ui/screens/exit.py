"""The kiosk exit prompt: confirm, or enter the PIN on its keypad (touch or buttons) or with a
keyboard's digit keys. With `[power] enabled` it also leads to the Power off prompt."""

from __future__ import annotations

from typing import Any

from ui.screens.pin import PinScreen


class ExitScreen(PinScreen):
    """Layout in exit.kv (which also holds the keypad shared with the Power off prompt)."""

    confirm_id = "exit_button"

    def confirm(self) -> None:
        if not self.app.try_exit(self.entered if self.needs_pin else ""):
            self.entered = ""
            self.message = self.app.tr("Wrong PIN")

    def initial_focus(self) -> Any:
        return self.first_key() if self.needs_pin else self.ids.get("cancel_button")
