"""Home: pick a game, continue the saved one, learn or resume a lesson, open rules, settings
and statistics."""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty

from ui.screens.base import BaseScreen
from ui.tutorial.controller import GAMES, lesson_begun


class HomeScreen(BaseScreen):
    """The first screen. Layout in home.kv; verbs live on the app. `lessons_begun`: the games
    whose lesson was left part-way (their Learn button says Resume lesson). A game's Play
    starts its match at once, seated as it was last played (`app.play_game`); its Seats button,
    above Play (UP from it), opens the seating screen (`app.open_seating`).

    Where the focus starts: on "Continue saved game" whenever home is entered with a saved game
    the player has not seen here yet, that is, one that is new or has changed since they last
    left home, or whenever they come back from a table (`on_leave`) or from a question that
    kept the saved game (`focus_continue`). Back from a table, the one thing a player expects
    OK to do is to go on with the game they just left; the focus kept from the earlier visit
    (Hachinin Meri's Play, say) made OK, OK start a new game over the saved one. A look at the
    rules, settings or statistics, with the saved game unchanged, keeps the focus where the
    player walked to (they came back to go on from there), and a fresh start focuses Continue
    too (`initial_focus`)."""

    lessons_begun = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        # the saved game as the player last left home with it (None: none, or left to a table)
        self._seen_save: str | None = None
        super().__init__(**kwargs)

    def on_kv_post(self, *_args: Any) -> None:
        self.refresh_lessons()  # the first screen: shown without an on_pre_enter

    def refresh_lessons(self) -> None:
        store = self.app.services.store
        self.lessons_begun = [game for game in GAMES if lesson_begun(store, game)]

    def initial_focus(self) -> Any:
        ids = self.ids
        if self.app.saved_game and "continue_button" in ids:
            return ids.continue_button
        return ids.get("play_meri")

    def go_back(self) -> bool:
        return True  # nowhere to go back to: BACK on home does nothing (never quits)

    def focus_continue(self) -> None:
        """The next time home is entered with a saved game, the focus starts on Continue."""
        self._seen_save = None

    def on_pre_enter(self, *_args: Any) -> None:
        app = self.app
        app.refresh_saved()
        self.refresh_lessons()
        app.close_phones()  # back home: no phone server runs (issue 22)
        if app.saved_game and app.services.store.load_autosave() != self._seen_save:
            self.set_focus(self.ids.continue_button)  # see the class docstring

    def on_leave(self, *_args: Any) -> None:
        """Remember the saved game as it is now, unless a table was opened: whatever the
        table saves (or not), Continue is where the player comes back to."""
        to_table = self.manager is not None and self.manager.current in self.app.games
        self._seen_save = None if to_table else self.app.services.store.load_autosave()
