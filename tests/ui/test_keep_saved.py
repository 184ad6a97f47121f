"""A saved game is never lost by a stray OK (issue 35: "anything that throws away a match asks
first"; found by playing the booted kiosk with OK alone).

Home: back from a table (the game autosaved), the focus starts on "Continue saved game", so OK
resumes the game instead of opening a game's seating. The seating's Play, while a saved match is
in progress, asks first in a modal question naming it, "Keep my saved game" focused: OK or BACK
keeps it (home again, Continue focused), "Start new game" replaces it; a touch beside the
question does nothing. Without a saved match in progress (none, or a finished one) Play starts
at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.tablesim import finish_with_bots, focus_on, wait_turn
from tests.ui.uitools import cut_labels, pump, settle, tap
from ui.ports import MemoryStore

pytestmark = pytest.mark.ui


def post(app: Any, *events: str, frames: int = 3) -> None:
    for event in events:
        app.post_input(event)
        pump(frames)


def the(widget: Any) -> Any:
    """The widget itself behind a kv id's weak proxy."""
    return getattr(widget, "__self__", widget)


def saved_tractor(make_app: Any, store: MemoryStore) -> Any:
    """An app whose store holds a Tractor match in progress (a few moves played), on home."""
    app = make_app(store=store, pace=0)
    app.new_game("tractor")
    table = app.root.get_screen("tractor")
    wait_turn(table)
    assert len(table.session.record.actions) > 0
    post(app, "MENU")
    assert app.root.current == "home" and app.saved_game == "tractor"
    return app


def open_meri_seating(app: Any) -> Any:
    app.open_seating("meri")
    settle()
    seating = app.root.get_screen("seating")
    assert app.root.current == "seating"
    assert seating.focused_widget is the(seating.ids.play_button)
    return seating


# -- home ------------------------------------------------------------------------------------
def test_back_home_from_the_table_ok_continues_the_saved_game(make_app: Any) -> None:
    """OK from a fresh home starts Meri; a few moves; Menu goes home; OK then resumes the
    same game (the focus kept from the first visit was on Meri's Play: OK, OK started a new
    game over the saved one)."""
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    post(app, "OK")  # Play: the table at once
    assert app.root.current == "meri"
    table = app.root.get_screen("meri")
    wait_turn(table)
    for _ in range(3):  # a few moves of the player's, by OK (the focused card, then Play)
        before = len(table.session.record.actions)
        post(app, "OK", "OK")
        if len(table.session.record.actions) > before:
            wait_turn(table)
    actions = list(table.session.record.actions)
    assert len(actions) > 1
    post(app, "MENU")
    assert app.root.current == "home" and app.saved_game == "meri"
    saved = store.load_autosave()
    post(app, "OK")
    assert app.root.current == "meri", "OK on home opened the seating, not the saved game"
    assert app.session.record.actions[: len(actions)] == actions
    assert store.load_autosave() == saved  # resumed, not replaced


def test_home_keeps_its_place_after_a_look_at_the_rules(make_app: Any) -> None:
    """With the saved game unchanged, a visit to Rules from home leaves the focus where the
    player left it (they walked there on purpose)."""
    app = saved_tractor(make_app, MemoryStore())
    home = app.root.get_screen("home")
    rules = home.ids.play_chan.parent.children[1]  # Chắn's Rules (the row's middle button)
    focus_on(app, home, rules)
    post(app, "OK")
    assert app.root.current == "rules"
    post(app, "BACK")
    assert app.root.current == "home" and home.focused_widget is rules


# -- the seating's question ------------------------------------------------------------------
def test_ok_on_play_asks_and_ok_again_keeps_the_saved_game(make_app: Any) -> None:
    store = MemoryStore()
    app = saved_tractor(make_app, store)
    saved = store.load_autosave()
    seating = open_meri_seating(app)
    post(app, "OK")
    assert app.root.current == "seating" and seating.asking, "Play started over the saved game"
    panel = seating.question_panel()
    assert "Tractor" in seating.question_text and "deal 1" in seating.question_text
    assert panel.ids.start_new.text == "Start new game"
    assert seating.focused_widget is the(panel.ids.keep_saved)  # the safe answer first
    assert store.load_autosave() == saved
    post(app, "RIGHT", "LEFT", "DOWN", "UP")  # the arrows stay inside the question
    assert seating.focused_widget in (the(panel.ids.keep_saved), the(panel.ids.start_new))
    focus_on(app, seating, panel.ids.keep_saved)
    post(app, "OK")  # Keep my saved game: home, Continue focused
    assert store.load_autosave() == saved and app.saved_game == "tractor"
    assert not seating.asking and app.root.current == "home"
    home = app.root.get_screen("home")
    assert home.focused_widget is the(home.ids.continue_button)
    post(app, "OK")
    assert app.root.current == "tractor" and app.session.game.name == "tractor"


def test_start_new_game_replaces_the_saved_one(make_app: Any) -> None:
    store = MemoryStore()
    app = saved_tractor(make_app, store)
    saved = store.load_autosave()
    seating = open_meri_seating(app)
    post(app, "OK")
    assert seating.asking
    focus_on(app, seating, seating.question_panel().ids.start_new)
    post(app, "OK")
    assert app.root.current == "meri" and not seating.asking
    assert app.session.game.name == "meri" and app.saved_game == "meri"
    assert store.load_autosave() != saved


def test_back_keeps_the_saved_game(make_app: Any) -> None:
    store = MemoryStore()
    app = saved_tractor(make_app, store)
    saved = store.load_autosave()
    seating = open_meri_seating(app)
    post(app, "OK")
    assert seating.asking
    post(app, "BACK")
    assert not seating.asking and app.root.current == "home"
    assert store.load_autosave() == saved and app.saved_game == "tractor"


def test_by_touch_beside_does_nothing_keep_keeps_and_start_starts(make_app: Any) -> None:
    store = MemoryStore()
    app = saved_tractor(make_app, store)
    saved = store.load_autosave()
    seating = open_meri_seating(app)
    tap(seating.ids.play_button)
    pump(2)
    assert seating.asking and app.root.current == "seating"
    kind = seating.plans[1].kind
    tap(seating.rows[1].kind_button)  # beside the question: nothing behind it acts
    tap(seating.ids.back_button)
    pump(2)
    assert seating.asking and app.root.current == "seating" and seating.plans[1].kind == kind
    tap(seating.question_panel().ids.keep_saved)
    pump(2)
    assert app.root.current == "home" and store.load_autosave() == saved
    seating = open_meri_seating(app)
    tap(seating.ids.play_button)
    pump(2)
    tap(seating.question_panel().ids.start_new)
    pump(3)
    assert app.root.current == "meri" and app.saved_game == "meri"


def test_the_question_the_same_game_too_and_the_deal_it_is_at(make_app: Any) -> None:
    """Any saved match is at stake (the store keeps one), the same game's included; the
    question says which deal it is at."""
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.new_game("tractor")
    table = app.root.get_screen("tractor")
    wait_turn(table)
    finish_with_bots(table)
    table.next_deal()
    wait_turn(table)
    post(app, "MENU")
    app.open_seating("tractor")
    settle()
    seating = app.root.get_screen("seating")
    seating.play()
    pump(2)
    assert seating.asking and "Tractor" in seating.question_text
    assert "deal 2" in seating.question_text


# -- no question -----------------------------------------------------------------------------
def test_without_a_saved_game_play_starts_at_once(make_app: Any) -> None:
    app = make_app(pace=0)
    seating = open_meri_seating(app)
    post(app, "OK")
    assert not seating.asking and app.root.current == "meri"


def test_a_finished_match_left_saved_is_not_asked_about(make_app: Any) -> None:
    """A finished match whose save was not cleared (a failed write) has nothing left to play:
    Play starts at once."""
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.set_match_length("chan", 1)
    app.new_game("chan")  # a Chắn match of one deal
    table = app.root.get_screen("chan")
    wait_turn(table)
    finish_with_bots(table)
    assert table.match_over
    store.save_autosave(table.session.to_json())
    post(app, "MENU")
    app.refresh_saved()
    assert app.saved_game == "chan"
    seating = open_meri_seating(app)
    post(app, "OK")
    assert not seating.asking and app.root.current == "meri"


def test_the_question_fits_in_every_language_at_both_sizes(make_app: Any) -> None:
    from tests.ui.tablesim import cut_in_languages
    from tests.ui.uitools import cut_buttons
    from ui.i18n import LANGUAGES

    for size in ((800, 480), (720, 1280)):
        store = MemoryStore()
        app = make_app(size=size, store=store, pace=0)
        app.new_game("tractor")
        wait_turn(app.root.get_screen("tractor"))
        post(app, "MENU")
        seating = open_meri_seating(app)
        seating.play()
        settle()
        assert seating.asking
        problems = cut_in_languages(app, f"{size} seating question")
        for lang in LANGUAGES:
            app.set_language(lang)
            settle()
            problems += [f"{lang} {size}: {p}" for p in cut_buttons(seating)]
        app.set_language("en")
        assert not problems, problems
        assert not cut_labels(seating)
