"""The Power off prompt (issue 17, safe power-off): confirm (in kiosk mode with the exit PIN),
then the game in progress is saved, and only once that worked (or the player says to go on
anyway) the machine is powered off through `Services.power_off`, the one replaceable call.

Stages: `ask` (confirm, or the PIN), `unsaved` (the save failed: say why, ask again), `down`
("Shutting down…": logind now stops the service; every input is ignored). A refused power-off
(no permission) goes back to `ask` with its one-line reason.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import OptionProperty

from ui import i18n
from ui.screens.pin import PinScreen

SHOW_SECONDS = 0.2  # "Shutting down…" is drawn before the call (which may take a moment)


class PowerScreen(PinScreen):
    """Layout in power.kv."""

    stage = OptionProperty("ask", options=("ask", "unsaved", "down"))

    def on_pre_enter(self, *args: Any) -> None:
        super().on_pre_enter(*args)
        self.stage = "ask"

    def confirm(self) -> None:
        """Power off: check the PIN, save, then call; a failed save asks once more first."""
        if self.stage == "down":
            return
        if self.stage == "ask":
            if not self.app.pin_ok(self.entered if self.needs_pin else ""):
                self.entered = ""
                self.message = i18n.tr("Wrong PIN")
                return
            problem = self.app.save_now()
            if problem:
                self.stage = "unsaved"
                self.message = i18n.trf("The game could not be saved: {problem}",
                                        problem=problem)
                self.set_focus(self.ids.cancel_button)  # the safe answer first
                return
        self.stage = "down"
        self.message = ""
        self.set_focus(None)
        Clock.schedule_once(self._power_off, SHOW_SECONDS)

    def _power_off(self, _dt: float) -> None:
        problem = self.app.power_off_now()
        if problem:
            self.stage = "ask"
            self.entered = ""
            self.message = i18n.trf("Could not power off: {problem}", problem=problem)
            self.ensure_focus()

    def handle_input(self, name: str) -> bool:
        if self.stage == "down":
            return True  # shutting down: nothing else happens
        return super().handle_input(name)

    def initial_focus(self) -> Any:
        return self.first_key() if self.needs_pin else self.ids.get("cancel_button")
