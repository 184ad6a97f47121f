"""Settings: language, AI level, each game's match length, animation speed, sound (on/off,
volume, effects, voice), large cards, colour-blind safe cards, coach, phones at the table (the
switch, beside it the network's state and the address phones use), and the Controls page.

The language, AI level and match length buttons are made from their owners' lists
(`ui.i18n.LANGUAGES`, `engine.ai.bots.LEVELS`, `engine.registry.LENGTHS`), the same lists the
config schema checks `[game]` against, so a new language, level or length appears here without
editing the layout.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from engine import registry
from engine.ai.kinds import LEVELS
from ui import match_length
from ui.i18n import LANGUAGES, N_, tr, trf
from ui.remote.address import lan_address
from ui.screens.base import BaseScreen

# The label of each AI level (an English msgid); a test checks there is one per level.
LEVEL_LABELS: dict[str, str] = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}
PHONES_POLL = 2.0  # seconds between looks at the network while the screen is shown


def phones_status(app: Any) -> tuple[str, bool]:
    """What the Phones switch's neighbour says, and whether it is a problem: why the last
    switch failed; the network not yet in step with the switch (the root side applies it);
    phones on: the address phones use (`ui.remote.address`, as the seating's QR code), or that
    there is no network; phones off: nothing."""
    on = app.phones_on
    if app.phones_note:
        return trf("Could not ask for the network: {problem}", problem=app.phones_note), True
    if app.services.phone_network.pending(on):
        return (tr("Opening the network…") if on else tr("Closing the network…")), False
    if not on:
        return "", False
    network = app.services.network
    address = lan_address(network.bind)
    if address.startswith("127."):
        return tr("No network"), True
    return f"{address}:{network.port}", False


class SettingsScreen(BaseScreen):
    """Layout in settings.kv; every change goes through the app (which stores it).

    The choice buttons get the ids `lang_<code>`, `level_<name>` and `deals_<game>_<n>` (a
    row per game, `length_<game>`).
    """

    phones_status = StringProperty("")  # beside the Phones switch (`phones_status`)
    phones_alert = BooleanProperty(False)
    _phones_poll: Any = None

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        for code, name in LANGUAGES.items():
            self._choice(self.ids.languages, f"lang_{code}", "lang", code, name)
        for level in LEVELS:
            self._choice(self.ids.levels, f"level_{level}", "ai_level", level, None)
        for game in registry.LENGTHS:
            row = Factory.SettingRow(label=registry.title(game))
            self.ids[f"length_{game}"] = row
            self.ids.lengths.add_widget(row)
            for deals in match_length.lengths(game):
                self._length_choice(row, game, deals)
        app = self.app
        if app is not None:
            app.bind(phones_on=self.refresh_phones, phones_note=self.refresh_phones,
                     lang=self.refresh_phones)

    def refresh_phones(self, *_args: Any) -> None:
        if self.app is not None:
            self.phones_status, self.phones_alert = phones_status(self.app)

    def on_pre_enter(self, *args: Any) -> None:
        super().on_pre_enter(*args)
        self.refresh_phones()
        if self._phones_poll is None:  # the root side may apply the switch meanwhile
            self._phones_poll = Clock.schedule_interval(self.refresh_phones, PHONES_POLL)

    def on_leave(self, *args: Any) -> None:
        super().on_leave(*args)
        if self._phones_poll is not None:
            self._phones_poll.cancel()
            self._phones_poll = None

    def _choice(self, row: Any, ident: str, prop: str, value: str, text: str | None) -> None:
        """One button of a row of choices: selected while the app's `prop` is `value`."""
        button = Factory.FocusButton(text=text or "")
        self.ids[ident] = button
        row.add_widget(button)

        def refresh(*_args: Any) -> None:
            app = self.app
            if app is None:
                return
            button.selected = getattr(app, prop) == value
            if text is None:
                button.text = tr(LEVEL_LABELS[value])

        def choose(*_args: Any) -> None:
            if prop == "lang":
                self.app.set_language(value)
            else:
                self.app.set_ai_level(value)

        button.bind(on_release=choose)
        app = self.app
        if app is not None:
            app.bind(**{prop: refresh, "lang": refresh})
        refresh()

    def _length_choice(self, row: Any, game: str, deals: int) -> None:
        """One button of a game's match lengths: selected while it is the game's length."""
        button = Factory.FocusButton()
        self.ids[f"deals_{game}_{deals}"] = button
        row.add_widget(button)

        def refresh(*_args: Any) -> None:
            app = self.app
            if app is None:
                return
            button.selected = app.match_length(game) == deals
            button.text = match_length.words(game, deals)

        button.bind(on_release=lambda *_: self.app.set_match_length(game, deals))
        app = self.app
        if app is not None:
            app.bind(match_lengths=refresh, lang=refresh)
        refresh()

    def initial_focus(self) -> Any:
        return self.ids.get("lang_" + self.app.lang)
