"""No card code reaches a person on any table (issue 35, point 3): every visible label and button
of each game's table is scanned for a record code (`KH`, `O5`, `ORe`, `7C`: `ui.card_names`'s
patterns) at every decision of a whole deal played on the real table, the language changing
from one decision to the next through the five, then on the summary (its pictures and its
Details text) in every language. The cards are named instead ("K♥", "Ouru 5", "7 Văn").
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.ui.tablesim import wait_turn
from tests.ui.uitools import pump, tap, visible_labels
from ui.card_names import CODE_PATTERNS
from ui.i18n import LANGUAGES

pytestmark = pytest.mark.ui

LANGS = list(LANGUAGES)


def shown_texts(root: Any) -> list[str]:
    """The text of every label and button a person can see under `root`."""
    return [widget.text for widget in visible_labels(root)]


def codes_shown(root: Any, game: str, where: str) -> list[str]:
    """The texts under `root` showing one of `game`'s card codes, described."""
    pattern = CODE_PATTERNS[game]
    return [f"{where}: {text!r}" for text in shown_texts(root) if pattern.search(text)]


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_no_card_code_is_shown_while_a_whole_deal_is_played(make_app: Any, game: str) -> None:
    app = make_app(pace=0.0)
    table = app.root.get_screen(game)
    app.new_game(game)
    rng = random.Random(3)
    found: list[str] = []
    turns = 0
    while True:
        wait_turn(table, 120)
        if table.summary_open:
            break
        lang = LANGS[turns % len(LANGS)]
        app.set_language(lang)
        pump(3)
        action = table.session.state.random_action(rng)
        if game == "tractor" and table.prompt == "play":  # picked first: the feedback names them
            table.pick(table.indexes_of(list(action)))
            pump(2)
        found += codes_shown(table, game, f"{lang} turn {turns} ({table.prompt})")
        table.play(action)
        turns += 1
    assert turns > 0
    for lang in LANGS:
        app.set_language(lang)
        pump(3)
        found += codes_shown(table, game, f"{lang} summary")
        panel = table.ids.summary_panel
        tap(panel.ids.details_button)
        pump(3)
        found += codes_shown(table, game, f"{lang} summary details")
        tap(panel.ids.details_button)
        pump(2)
    app.set_language("en")
    assert found == []
