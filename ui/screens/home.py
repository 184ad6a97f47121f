"""Home: pick a game, continue the saved one, open rules, settings and statistics."""

from __future__ import annotations

from typing import Any

from ui.screens.base import BaseScreen


class HomeScreen(BaseScreen):
    """The first screen. Layout in home.kv; verbs live on the app."""

    def initial_focus(self) -> Any:
        ids = self.ids
        if self.app.saved_game and "continue_button" in ids:
            return ids.continue_button
        return ids.get("play_meri")

    def go_back(self) -> bool:
        return True  # nowhere to go back to: BACK on home does nothing (never quits)

    def on_pre_enter(self, *_args: Any) -> None:
        self.app.refresh_saved()
        self.app.close_phones()  # back home: no phone server runs (issue 22)
