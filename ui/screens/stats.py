"""Statistics: deals, wins, losses, draws and points per game, from the store."""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty

from ui.screens.base import BaseScreen

COLUMNS = ("deals", "wins", "losses", "draws", "points")


class StatsScreen(BaseScreen):
    """`rows` holds one list of cell texts per game (filled from the store on entry)."""

    rows = ListProperty([])

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        stats = self.app.services.store.stats()
        rows = []
        for game in self.app.games:
            row = stats.get(game, {})
            rows.append([self.app.game_title(game)] + [str(int(row.get(key, 0))) for key in COLUMNS])
        self.rows = rows
