"""Settings: language, AI level, each game's match length, animation speed, sound (on/off,
volume, effects, voice), large cards, colour-blind safe cards, and the Controls page.

The language, AI level and match length buttons are made from their owners' lists
(`ui.i18n.LANGUAGES`, `engine.ai.bots.LEVELS`, `engine.registry.LENGTHS`), the same lists the
config schema checks `[game]` against, so a new language, level or length appears here without
editing the layout.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory

from engine import registry
from engine.ai.kinds import LEVELS
from ui import match_length
from ui.i18n import LANGUAGES, N_, tr
from ui.screens.base import BaseScreen

# The label of each AI level (an English msgid); a test checks there is one per level.
LEVEL_LABELS: dict[str, str] = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


class SettingsScreen(BaseScreen):
    """Layout in settings.kv; every change goes through the app (which stores it).

    The choice buttons get the ids `lang_<code>`, `level_<name>` and `deals_<game>_<n>` (a
    row per game, `length_<game>`).
    """

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
