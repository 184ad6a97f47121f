"""Statistics: deals, wins, losses, draws and points per game, for one player's name at a time.

The store keeps the figures per name (device/store.py, schema 4): a name picker (`<` / `>`,
by touch or with the focus and SELECT/OK) steps through every name with figures; the default
name (the player on this screen who gave none, and everything counted before names were kept)
is shown as "You" and comes first. Names are untrusted text (phones give them): shown in a
label without markup. Practice deals (games where moves may be taken back) are not in these
figures: the screen says so and how many the player had. "Watch again" opens the kept
finished deals (ui/screens/replay.py).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, NumericProperty, StringProperty

from ui.ports import DEFAULT_NAME
from ui.screens.base import BaseScreen

COLUMNS = ("deals", "wins", "losses", "draws", "points")


class StatsScreen(BaseScreen):
    """`rows` holds one list of cell texts per game for the name `names[index]` (filled from
    the store on entry and when the name changes)."""

    rows = ListProperty([])
    practice = NumericProperty(0)  # the shown player's practice deals (not in `rows`)
    names = ListProperty([DEFAULT_NAME])  # every name with figures, as the store orders them
    index = NumericProperty(0)  # the name shown
    shown_name = StringProperty("")  # the name shown ("" = the default: "You" in the kv)
    count_text = StringProperty("")  # "2 / 3" beside it ("" with one name)

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    @property
    def player(self) -> str:
        return str(self.names[int(self.index)]) if self.names else DEFAULT_NAME

    def refresh(self) -> None:
        """Read the names and the shown name's figures (the same name stays shown if it still
        has figures, else the first)."""
        shown = self.player if self.names else DEFAULT_NAME
        store = self.app.services.store
        names = list(store.player_names()) or [DEFAULT_NAME]
        self.names = names
        self.index = names.index(shown) if shown in names else 0
        self.show()

    def step_name(self, step: int) -> None:
        """The next (`step` 1) or previous (-1) name, round the list."""
        if len(self.names) > 1:
            self.index = (int(self.index) + step) % len(self.names)
            self.show()

    def show(self, *_args: Any) -> None:
        name = self.player
        stats = self.app.services.store.stats(name)
        rows = []
        for game in self.app.games:
            row = stats.get(game, {})
            rows.append([self.app.game_title(game)] + [str(int(row.get(key, 0))) for key in COLUMNS])
        self.rows = rows
        self.practice = sum(int(row.get("practice", 0)) for row in stats.values())
        self.shown_name = name
        self.count_text = f"{int(self.index) + 1} / {len(self.names)}" if len(self.names) > 1 \
            else ""
