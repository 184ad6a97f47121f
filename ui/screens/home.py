"""Home: pick a game, continue the saved one, learn or resume a lesson, open rules, settings
and statistics."""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty

from ui.screens.base import BaseScreen
from ui.tutorial.controller import GAMES, lesson_begun


class HomeScreen(BaseScreen):
    """The first screen. Layout in home.kv; verbs live on the app. `lessons_begun`: the games
    whose lesson was left part-way (their Learn button says Resume lesson)."""

    lessons_begun = ListProperty([])

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

    def on_pre_enter(self, *_args: Any) -> None:
        self.app.refresh_saved()
        self.refresh_lessons()
        self.app.close_phones()  # back home: no phone server runs (issue 22)
