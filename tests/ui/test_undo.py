"""Undo on the table (issue 21 part 3), with real widgets: by touch and by the five-way buttons.

The human's last decision and the AI moves after it are taken back in a practice game; a normal
game asks first (BACK or "Keep playing" changes nothing); refusals say why; a practice deal is
kept for the replay viewer but not counted in the statistics, and Statistics says so.
"""

from __future__ import annotations

from typing import Any

from tests.ui.tablesim import finish_with_bots, focus_on, wait_turn
from tests.ui.uitools import pump, tap, wait_for
from ui.i18n import tr
from ui.ports import MemoryStore
from ui.table.undo import REFUSALS

HUMAN = 0


def make_a_choice(table: Any) -> int:
    """Play the human's moves (first legal) until one was a real choice; returns how many
    actions stood before it. Bots answer between."""
    while True:
        wait_turn(table)
        state = table.session.state
        legal = state.legal_actions()
        before = len(table.session.record.actions)
        assert table.play(legal[-1])
        if len(legal) > 1:
            return before


def test_undo_by_touch_in_a_practice_game_takes_back_the_move_and_the_bots_replies(
        make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store)
    app.set_practice(True)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    assert table.undo.practice and table.session.practice
    before = make_a_choice(table)
    wait_turn(table)
    played = list(table.session.record.actions)
    assert len(played) > before + 1  # the bots played on
    tap(table.ids.undo_button)
    pump(3)
    assert table.session.record.actions == played[:before]
    assert table.session.state.to_act == HUMAN and not table.alert
    assert table.message.startswith(("Took back your move.", f"Took back {len(played) - before}"))
    # the autosave is the state after the undo
    import json

    assert json.loads(store.load_autosave())["record"]["actions"] == table.session.record.actions
    wait_turn(table)  # and the game goes on from there
    assert table.prompt


def test_undo_in_a_normal_game_asks_first_by_buttons(make_app: Any) -> None:
    app = make_app(store=MemoryStore())
    app.new_game("tractor")
    table = app.root.get_screen("tractor")
    assert not table.undo.practice
    before = make_a_choice(table)
    wait_turn(table)
    standing = list(table.session.record.actions)
    focus_on(app, table, table.ids.undo_button)
    app.handle_input("OK")
    pump(3)
    assert table.undo.asking, (table.message, table.focused_widget)
    panel = table.undo.open_panel()
    assert table.focused_widget is panel.ids.undo_no.__self__  # the safe answer first
    app.handle_input("BACK")  # no: nothing changes
    pump(2)
    assert not table.undo.asking and table.session.record.actions == standing
    assert not table.session.practice
    focus_on(app, table, table.ids.undo_button)
    app.handle_input("OK")
    pump(3)
    focus_on(app, table, table.undo.open_panel().ids.undo_yes)
    app.handle_input("OK")
    pump(3)
    assert not table.undo.asking
    assert table.session.practice and table.undo.practice
    assert len(table.session.record.actions) == before
    assert table.session.state.to_act == HUMAN


def test_keep_playing_by_touch_changes_nothing(make_app: Any) -> None:
    app = make_app(store=MemoryStore())
    app.new_game("chan")
    table = app.root.get_screen("chan")
    make_a_choice(table)
    wait_turn(table)
    standing = list(table.session.record.actions)
    tap(table.ids.undo_button)
    pump(3)
    tap(table.undo.open_panel().ids.undo_no)
    pump(2)
    assert not table.undo.asking and not table.session.practice
    assert table.session.record.actions == standing


def test_undo_is_refused_in_words_with_nothing_to_undo_and_during_a_bots_turn(
        make_app: Any) -> None:
    app = make_app(store=MemoryStore(), pace=1.0)
    app.set_practice(True)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    # the player's first turn: no choice of theirs to take back yet
    wait_turn(table, 60)
    actions = list(table.session.record.actions)
    tap(table.ids.undo_button)
    assert table.alert and table.message == tr(REFUSALS["nothing"])
    assert table.session.record.actions == actions
    # a bot's turn: right after the player's move, the bots think at the table's pace
    legal = table.session.state.legal_actions()
    assert table.play(legal[-1])
    while table.session.state.to_act == HUMAN and not table.session.state.is_over:
        pump(1)
        legal = table.session.state.legal_actions()
        table.play(legal[-1])
    actions = list(table.session.record.actions)
    tap(table.ids.undo_button)
    assert table.alert and table.message == tr(REFUSALS["not_your_turn"])
    assert table.session.record.actions == actions


def test_undo_after_the_deal_ended_is_refused(make_app: Any) -> None:
    app = make_app(store=MemoryStore())
    app.set_practice(True)
    app.new_game("chan")
    table = app.root.get_screen("chan")
    wait_turn(table)
    finish_with_bots(table)
    assert table.summary_open
    assert not table.undo.request()
    assert table.message == tr(REFUSALS["deal_over"])


def test_a_practice_deal_is_kept_but_not_counted_and_statistics_say_so(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store)
    app.set_practice(True)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_turn(table)
    finish_with_bots(table)
    assert tr("Practice game: this deal is not counted in the statistics.") in table.summary_text
    stats = store.stats()["meri"]
    assert stats["deals"] == 0 and stats["wins"] + stats["losses"] + stats["draws"] == 0
    assert stats["practice"] == 1
    kept = store.recent_deals()
    assert len(kept) == 1 and kept[0]["practice"] is True
    app.go("stats")
    pump(3)
    screen = app.root.get_screen("stats")
    assert screen.practice == 1
    assert [r[1] for r in screen.rows] == ["0", "0", "0"]
    texts = [w.text for w in screen.walk() if hasattr(w, "text")]
    assert "Practice deals are not counted here (1 played)." in texts


def test_the_home_toggle_starts_practice_games_by_buttons(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store)
    home = app.root.get_screen("home")
    focus_on(app, home, home.ids.practice_button)
    app.handle_input("OK")
    pump(2)
    assert app.practice and store.get_setting("practice") is True
    focus_on(app, home, home.ids.play_tractor)
    app.handle_input("OK")  # Play: the game at once
    wait_for(lambda: app.root.current == "tractor")
    assert app.session.practice
