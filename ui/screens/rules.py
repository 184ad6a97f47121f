"""Rules of each game, written for this app, in every language, illustrated with card images.

The texts live in `ui/rules/<game>.json`: `{lang: [{"title", "body", "cards": [codes]}]}`.
LEFT/RIGHT move between the game tabs and Back; UP/DOWN scroll the page. The page's lesson
button says "Learn by playing", or "Resume lesson" when that game's lesson was left part-way
(as Home's Learn does: `ui.tutorial.controller.lesson_begun`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui.games import get
from ui.screens.base import BaseScreen
from ui.tutorial.controller import GAMES, lesson_begun

UI_DIR = Path(__file__).resolve().parent.parent
RULES_DIR = UI_DIR / "rules"


@cache
def load_rules(game: str) -> dict[str, list[dict[str, Any]]]:
    """The rules texts of `game`, per language; `ValueError` if the file is missing or wrong."""
    path = UI_DIR / get(game).rules_page  # `UiGame.rules_page`: ui/rules/<game>.json
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"rules of {game!r} unreadable ({path}): {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"rules of {game!r}: expected an object of languages")
    return data


class RulesSection(BoxLayout):
    """One titled paragraph with a row of example cards."""

    title = StringProperty("")
    body = StringProperty("")
    deck = StringProperty("meri")
    cards = ListProperty([])

    def on_kv_post(self, base_widget: Any) -> None:
        self.fbind("cards", self.fill_cards)
        self.fill_cards()

    def fill_cards(self, *_args: Any) -> None:
        from kivy.metrics import dp

        from ui.table.cardsource import aspect
        from ui.table.widgets import CardView

        row = self.ids.card_row
        row.clear_widgets()
        h = dp(90)
        for code in self.cards:
            view = CardView(deck=self.deck, code=code, size_hint=(None, None),
                            size=(h * aspect(self.deck), h))
            view.focus_enabled = False
            row.add_widget(view)


class RulesScreen(BaseScreen):
    """`game` picks the page; the text follows `app.lang`."""

    game = StringProperty("meri")
    lessons_begun = ListProperty([])  # the games whose lesson was left part-way

    def on_kv_post(self, base_widget: Any) -> None:
        self.fbind("game", self.rebuild)

    def on_pre_enter(self, *_args: Any) -> None:
        self.app.fbind("lang", self.rebuild)
        self.refresh_lessons()
        self.rebuild()

    def refresh_lessons(self) -> None:
        """Which games' lessons would resume (the lesson button says Resume lesson)."""
        store = self.app.services.store
        self.lessons_begun = [game for game in GAMES if lesson_begun(store, game)]

    def on_leave(self, *_args: Any) -> None:
        self.app.funbind("lang", self.rebuild)

    def rebuild(self, *_args: Any) -> None:
        box = self.ids.content
        box.clear_widgets()
        pages = load_rules(self.game)
        sections = pages.get(self.app.lang) or pages["en"]
        for section in sections:
            box.add_widget(
                RulesSection(
                    title=section["title"], body=section["body"], deck=self.game,
                    cards=list(section.get("cards", [])),
                )
            )
        self.ids.scroller.scroll_y = 1

    def on_input(self, name: str) -> bool:
        if name in ("UP", "DOWN"):
            scroller = self.ids.scroller
            step = 0.2 if name == "UP" else -0.2
            scroller.scroll_y = min(1.0, max(0.0, scroller.scroll_y + step))
            return True
        return False

    def initial_focus(self) -> Any:
        return self.ids.get("tab_" + self.game)
