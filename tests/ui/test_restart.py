"""Restart on the summary (issue 35 point 1) throws the match in progress away, so it asks first,
the safe answer ("Keep playing") focused, with the machinery of Undo's question: by the buttons
(events posted as an input source posts them) and by touch, the safe answer and BACK keep the
match as it was, yes starts a new one. Once the match is over, Next deal says New match and
starts it without a question, and Restart is not offered. Restart stands apart from Next deal:
not beside it, and narrower."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.tablesim import finish_with_bots, wait_turn
from tests.ui.uitools import pump, tap
from ui.i18n import tr
from ui.ports import MemoryStore

pytestmark = pytest.mark.ui


def summary_mid_match(make_app: Any, store: MemoryStore) -> tuple[Any, Any]:
    """A Meri table (an 8-deal match) at the summary of its first deal."""
    app = make_app(store=store, pace=0)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_turn(table)
    finish_with_bots(table)
    assert table.summary_open and not table.match_over
    assert table.session.match.result().deals_played == 1
    return app, table


def post(app: Any, *events: str) -> None:
    for event in events:
        app.post_input(event)
        pump(2)


def the(widget: Any) -> Any:
    """The widget itself behind a kv id's weak proxy."""
    return getattr(widget, "__self__", widget)


def assert_kept(app: Any, table: Any, session: Any, saved: str) -> None:
    assert not table.undo.asking and table.undo.open_panel() is None
    assert app.session is session and table.session is session and table.summary_open
    assert session.match.result().deals_played == 1
    assert app.services.store.load_autosave() == saved


def assert_new_match(app: Any, table: Any, session: Any) -> None:
    assert not table.undo.asking
    assert app.session is not session and table.session is app.session
    assert app.session.match.result().deals_played == 0 and not table.summary_open


def test_restart_by_buttons_asks_first_keep_playing_keeps_the_match(make_app: Any) -> None:
    store = MemoryStore()
    app, table = summary_mid_match(make_app, store)
    session, saved = table.session, store.load_autosave()
    restart = the(table.ids.restart_button)
    assert table.focused_widget is the(table.ids.next_button)
    for _ in range(6):  # LEFT along the row to Restart
        if table.focused_widget is restart:
            break
        post(app, "LEFT")
    assert table.focused_widget is restart
    post(app, "OK")
    assert table.undo.asking and table.undo.purpose == "restart"
    panel = table.undo.open_panel()
    assert table.focused_widget is the(panel.ids.undo_no)  # the safe answer first
    assert panel.ids.undo_yes.text == tr("New match")
    post(app, "OK")  # Keep playing
    assert_kept(app, table, session, saved)
    assert table.focused_widget is restart  # back where the question was asked
    post(app, "OK", "BACK")  # BACK is no as well
    assert_kept(app, table, session, saved)
    post(app, "DOWN")  # (the summary scrolls; the focus stays)
    post(app, "OK")
    assert table.undo.asking
    post(app, "LEFT")
    assert table.focused_widget is the(table.undo.open_panel().ids.undo_yes)
    post(app, "OK")
    assert_new_match(app, table, session)


def test_restart_by_touch_asks_first_and_yes_restarts(make_app: Any) -> None:
    store = MemoryStore()
    app, table = summary_mid_match(make_app, store)
    session, saved = table.session, store.load_autosave()
    tap(table.ids.restart_button)
    pump(2)
    assert table.undo.asking and table.undo.purpose == "restart"
    tap(table.ids.next_button)  # a touch beside the question does nothing behind it
    pump(2)
    assert table.undo.asking and app.session is session and table.summary_open
    tap(table.undo.open_panel().ids.undo_no)
    pump(2)
    assert_kept(app, table, session, saved)
    tap(table.ids.restart_button)
    pump(2)
    tap(table.undo.open_panel().ids.undo_yes)
    pump(3)
    assert_new_match(app, table, session)
    wait_turn(table)  # and the new match is played
    assert table.prompt


def test_restart_stands_apart_from_next_deal_and_is_narrower(make_app: Any) -> None:
    _app, table = summary_mid_match(make_app, MemoryStore())
    restart, next_deal = table.ids.restart_button, table.ids.next_button
    row = [w for w in reversed(restart.parent.children) if w.width > 0]
    assert abs(row.index(restart) - row.index(next_deal)) > 1
    assert restart.width < 0.75 * next_deal.width


def test_once_the_match_is_over_new_match_starts_without_a_question(make_app: Any) -> None:
    app = make_app(store=MemoryStore(), pace=0)
    app.set_match_length("chan", 1)
    app.new_game("chan")  # a Chắn match of one deal (C-2: the deal is a whole game)
    table = app.root.get_screen("chan")
    wait_turn(table)
    finish_with_bots(table)
    assert table.match_over and table.ids.next_button.text == "New match"
    restart = table.ids.restart_button
    assert restart.disabled and restart.opacity == 0 and restart.width == 0  # not offered
    session = table.session
    tap(table.ids.next_button)
    pump(3)
    assert not table.undo.asking and app.session is not session and not table.summary_open
