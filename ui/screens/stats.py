"""Statistics: deals, wins, losses, draws and points per game, from the store.

Practice deals (games where moves may be taken back) are not in these figures: the screen says
so and how many there were. "Watch again" opens the kept finished deals (ui/screens/replay.py).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, NumericProperty

from ui.screens.base import BaseScreen

COLUMNS = ("deals", "wins", "losses", "draws", "points")


class StatsScreen(BaseScreen):
    """`rows` holds one list of cell texts per game (filled from the store on entry)."""

    rows = ListProperty([])
    practice = NumericProperty(0)  # practice deals played (not in `rows`)

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        stats = self.app.services.store.stats()
        rows = []
        for game in self.app.games:
            row = stats.get(game, {})
            rows.append([self.app.game_title(game)] + [str(int(row.get(key, 0))) for key in COLUMNS])
        self.rows = rows
        self.practice = sum(int(row.get("practice", 0)) for row in stats.values())
