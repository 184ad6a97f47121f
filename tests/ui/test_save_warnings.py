"""Issue 18 on the screen: a failed save is a lasting warning until a save works again, a store
that keeps nothing says so on the home screen, and a saved game that cannot be restored is said
to be so once and never offered again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.uitools import pump
from ui.ports import MemoryStore, SaveResult

pytestmark = pytest.mark.ui


class FlakyStore(MemoryStore):
    """A store whose autosaves fail while `failing` is set (a full disk, without filling one)."""

    def __init__(self) -> None:
        super().__init__()
        self.failing = False

    def save_autosave(self, data: str) -> SaveResult:
        if self.failing:
            return SaveResult(False, "the disk is full")
        return super().save_autosave(data)


def test_a_failed_save_stays_on_screen_until_a_save_works(make_app: Any) -> None:
    store = FlakyStore()
    app = make_app(store=store)
    app.new_game("chan")
    pump(3)
    bar = app._warning_bar
    assert app.save_warning == "" and bar.opacity == 0
    store.failing = True
    app.save(app.session.to_json())
    pump(2)
    assert app.save_warning == "Not saving: the disk is full"
    assert bar.text == app.save_warning and bar.opacity == 1 and bar.height > 0
    app.save(app.session.to_json())  # still failing: still shown
    pump(1)
    assert bar.opacity == 1
    store.failing = False
    app.save(app.session.to_json())
    pump(2)
    assert app.save_warning == "" and bar.opacity == 0
    assert store.load_autosave() == app.session.to_json()


def test_a_store_that_keeps_nothing_says_why_on_the_home_screen(make_app: Any) -> None:
    app = make_app(store=MemoryStore(unavailable_reason="/data/parlor.db is a directory"))
    assert app.notice == "Not keeping any data: /data/parlor.db is a directory"


def test_a_saved_game_that_cannot_be_restored_is_not_offered_again(make_app: Any) -> None:
    store = MemoryStore()
    store.save_autosave('{"format": 1, "game": "chan", "match": {}, "record": {}}')
    app = make_app(store=store)
    assert app.saved_game == "chan"  # offered once: it looks like a saved Chắn game
    app.continue_game()
    pump(2)
    assert app.session is None and app.root.current == "home"
    assert app.notice == "The saved game could not be resumed."
    assert app.saved_game == "" and store.load_autosave() is None


def test_each_save_that_reached_the_store_is_one_debug_line_and_a_failed_one_none(
        make_app: Any, caplog: pytest.LogCaptureFixture) -> None:
    """`PARLOR_LOG_DEBUG=parlor.autosave`: what the boot check's power cuts compare with."""
    import logging

    from ui.resume import describe_save

    store = FlakyStore()
    app = make_app(store=store)
    app.new_game("chan")
    pump(2)
    with caplog.at_level(logging.DEBUG, logger="parlor.autosave"):
        text = app.session.to_json()
        app.save(text)
        store.failing = True
        app.save(text + " ")
    lines = [r.getMessage() for r in caplog.records if r.name == "parlor.autosave"]
    to_act = app.session.state.to_act  # who decides next: the check waits for the player's turn
    assert lines[-1] == f"autosave: saved {describe_save(text)}, seat {to_act} to act", lines
    assert not any(describe_save(text + " ") in line for line in lines)  # the failed save


def test_the_debug_save_line_names_who_acts_also_for_the_first_save_of_a_game(
        make_app: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A new or resumed session saves itself before it is the app's session: its line still
    says who decides next (it once said "nobody", as if the deal were over)."""
    import logging

    store = FlakyStore()
    app = make_app(store=store)
    with caplog.at_level(logging.DEBUG, logger="parlor.autosave"):
        app.new_game("meri")
        first = [r.getMessage() for r in caplog.records if r.name == "parlor.autosave"][0]
        assert first.startswith("autosave: saved meri deal 1 action 0 ")
        from engine.session import Session

        to_act = Session.from_json(store.load_autosave()).state.to_act
        assert first.endswith(f", seat {to_act} to act"), first
        app.go("home")
        pump(2)
        caplog.clear()
        app.continue_game()
        pump(2)
    lines = [r.getMessage() for r in caplog.records if r.name == "parlor.autosave"]
    assert lines and lines[0].endswith(f", seat {to_act} to act"), lines
