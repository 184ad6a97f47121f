"""Settings: language, AI level, each game's match length, animation speed, sound (on/off,
volume, effects, voice), large cards, colour-blind safe cards, coach, phones at the table (the
switch, beside it the network's state and the address phones use), and the Controls page.

The language, AI level and match length buttons are made from their owners' lists
(`ui.i18n.LANGUAGES`, `engine.ai.bots.LEVELS`, `engine.registry.LENGTHS`), the same lists the
config schema checks `[game]` against, so a new language, level or length appears here without
editing the layout. Under the level row, what the chosen level does and what it measured, in the
player's words: the figures are `engine.ai.level_figures`'s, rounded to what their interval shows.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from engine import registry
from engine.ai.kinds import LEVELS
from engine.ai.level_figures import LEVELS_UP, POINTS, WINS, LevelFigure, figures
from ui import match_length
from ui.i18n import LANGUAGES, N_, number, tr, trf
from ui.remote.address import lan_address
from ui.screens.base import BaseScreen

# The label of each AI level (an English msgid); a test checks there is one per level.
LEVEL_LABELS: dict[str, str] = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}
# What each level does, in a sentence (a test checks there is one per level).
LEVEL_DOES: dict[str, str] = {
    "easy": N_("Plays by rules of thumb, with an occasional careless move."),
    "normal": N_("Tries each move in many deals that fit what it has seen, and keeps the best."),
    "hard": N_("Searches about three times as much as Normal; in Meri and Tractor it also weighs each deal by how well it explains the other players' moves."),  # noqa: E501
}
# The figures' line, by the opponent they were measured against.
AGAINST: dict[str, str] = {
    "heuristic": N_("Against the rules of thumb: {figures}"),
    "normal": N_("Against Normal: {figures}"),
}
# One game's figure by (unit, whether its interval holds par: no measurable difference).
FIGURE_WORDS: dict[tuple[str, bool], str] = {
    (POINTS, False): N_("{game} {value} points a deal"),
    (POINTS, True): N_("{game} about even ({value} points a deal)"),
    (LEVELS_UP, False): N_("{game} {value} levels a deal"),
    (LEVELS_UP, True): N_("{game} about even ({value} levels a deal)"),
    (WINS, False): N_("{game} wins {value} % (par {par} %)"),
    (WINS, True): N_("{game} about even (wins {value} %, par {par} %)"),
}
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


def shown_decimals(figure: LevelFigure) -> int:
    """The decimals a player is shown: down to the first digit of the interval's half-width
    (+1.37 [+1.08, +1.66] -> +1.4; +0.459 [+0.424, +0.494] -> +0.46); wins in whole per cent."""
    half = (figure.high - figure.low) / 2
    if figure.unit == WINS:
        return 0
    if half <= 0:
        return 2
    return max(0, -math.floor(math.log10(half)))


def figure_words(game: str, figure: LevelFigure) -> str:
    """One game's figure in the current language, e.g. "Tractor +0.46 levels a deal"; its
    spaces do not break, so a line wraps only between games."""
    signed = figure.unit != WINS
    text = trf(FIGURE_WORDS[figure.unit, figure.level_with], game=registry.title(game),
               value=number(figure.mean, shown_decimals(figure), signed=signed),
               par=number(figure.par))
    return text.replace(" ", "\u00a0")


def level_figures_text(level: str) -> str:
    """The line of `level`'s measured figures, its games in the registry's order."""
    by_game = figures(level)
    shown = [(game, by_game[game]) for game in registry.TITLES if game in by_game]
    opponent = shown[0][1].opponent if shown else "heuristic"
    return trf(AGAINST[opponent], figures="\u00a0· ".join(figure_words(g, f) for g, f in shown))


class SettingsScreen(BaseScreen):
    """Layout in settings.kv; every change goes through the app (which stores it).

    The choice buttons get the ids `lang_<code>`, `level_<name>` and `deals_<game>_<n>` (a
    row per game, `length_<game>`).
    """

    level_does = StringProperty("")  # under the level row: what the chosen level does
    level_figures = StringProperty("")  # and what it measured (`level_figures_text`)
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
            app.bind(ai_level=self.refresh_level, lang=self.refresh_level)
        self.refresh_level()

    def refresh_level(self, *_args: Any) -> None:
        """The words under the level row follow the chosen level and the language."""
        app = self.app
        if app is not None and app.ai_level in LEVEL_DOES:
            self.level_does = tr(LEVEL_DOES[app.ai_level])
            self.level_figures = level_figures_text(app.ai_level)

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
