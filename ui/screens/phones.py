"""The Phones switch's prompt in kiosk mode (issue 35 point 2): turning phones at the table on
or off asks for the kiosk's exit PIN first (or only to confirm, without a PIN). A wrong PIN
changes nothing. The switch itself is `Preferences.set_phones`."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty

from ui import i18n
from ui.screens.pin import PinScreen


class PhonesScreen(PinScreen):
    """Layout in phones.kv; `want` is what the owner asked for (on or off)."""

    want = BooleanProperty(True)

    def confirm(self) -> None:
        if not self.app.pin_ok(self.entered if self.needs_pin else ""):
            self.entered = ""
            self.message = i18n.tr("Wrong PIN")
            return
        problem = self.app.set_phones(self.want)
        if problem:
            self.entered = ""
            self.message = i18n.trf("Could not ask for the network: {problem}", problem=problem)
            return
        self.app.go_back()

    def initial_focus(self) -> Any:
        return self.first_key() if self.needs_pin else self.ids.get("cancel_button")
