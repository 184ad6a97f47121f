"""The replay viewer with real widgets (issue 21 part 4): from Statistics to a kept deal, steps
forward and back (by touch and by the five-way buttons) land on the engine's `replay` states;
jump to a trick; all hands or only the player's; a database from before the migration opens."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from device.store import SqliteStore
from engine.records import legal_json, replay
from tests.deals import finished
from tests.ui.tablesim import focus_on
from tests.ui.uitools import pump, tap
from ui.ports import MemoryStore

FIXTURE = Path(__file__).parents[1] / "device" / "data" / "parlor-schema2.db"


def same_as_engine(screen: Any) -> None:
    """The viewer's state at its step is the engine's replay of the record's prefix."""
    steps, step = screen.steps, int(screen.step)
    status, expected = replay(steps.prefix(step))
    state = steps.state(step)
    legal, count = legal_json(steps.game, state)
    assert status == 0 and expected["applied"] == step
    assert (state.to_act, state.phase, legal, count, steps.game.result_json(state)) == (
        expected["to_act"], expected["phase"], expected["legal"], expected["legal_count"],
        expected["result"])


def open_from_stats(app: Any, store: Any) -> Any:
    app.go("stats")
    pump(3)
    tap(app.root.get_screen("stats").ids.replays_button)
    pump(3)
    assert app.root.current == "replays"
    return app.root.get_screen("replays")


def test_a_kept_deal_is_found_and_stepped_by_touch(make_app: Any) -> None:
    store = MemoryStore()
    older, newer = finished("chan", 4), finished("tractor", 6)
    store.save_finished_deal("chan", "loss", -3, older.record.to_json())
    store.save_finished_deal("tractor", "win", 1, newer.record.to_json(), practice=True)
    app = make_app(store=store)
    listing = open_from_stats(app, store)
    rows = list(reversed(listing.ids.deal_list.children))
    assert len(rows) == 2
    assert rows[0].text.startswith("Tractor") and "practice" in rows[0].text
    tap(rows[1])  # the Chắn deal
    pump(3)
    assert app.root.current == "replay"
    screen = app.root.get_screen("replay")
    assert screen.steps.texts == older.record.actions and screen.step == 0
    same_as_engine(screen)
    for _ in range(5):
        tap(screen.ids.forward_button)
        same_as_engine(screen)
    assert screen.step == 5
    tap(screen.ids.back_step_button)
    assert screen.step == 4
    same_as_engine(screen)
    tap(screen.ids.next_trick_button)
    assert screen.step == screen.steps.marks[0]
    same_as_engine(screen)
    tap(screen.ids.end_button)
    assert screen.step == screen.last and screen.steps.state(screen.step).is_over
    same_as_engine(screen)
    tap(screen.ids.start_button)
    assert screen.step == 0
    # only the player's hand, then every hand
    assert screen.seats[0].hand and not screen.seats[2].hand
    tap(screen.ids.hands_button)
    assert screen.all_hands and len(screen.seats[2].hand) == screen.seats[2].held


def test_the_viewer_by_buttons(make_app: Any) -> None:
    store = MemoryStore()
    deal = finished("meri", 2)
    store.save_finished_deal("meri", "win", 5, deal.record.to_json())
    app = make_app(store=store)
    stats = app.root.get_screen("stats")
    app.go("stats")
    pump(3)
    focus_on(app, stats, stats.ids.replays_button)
    app.handle_input("OK")
    pump(3)
    listing = app.root.get_screen("replays")
    assert app.root.current == "replays"
    row = listing.ids.deal_list.children[-1]
    focus_on(app, listing, row)
    app.handle_input("OK")
    pump(3)
    screen = app.root.get_screen("replay")
    assert app.root.current == "replay"
    assert screen.focused_widget is screen.ids.forward_button.__self__
    for expected in (1, 2, 3):
        app.handle_input("OK")
        pump(1)
        assert screen.step == expected
        same_as_engine(screen)
    focus_on(app, screen, screen.ids.back_step_button)
    app.handle_input("OK")
    pump(1)
    assert screen.step == 2
    same_as_engine(screen)
    focus_on(app, screen, screen.ids.next_trick_button)
    app.handle_input("OK")
    app.handle_input("OK")
    pump(1)
    assert screen.step == screen.steps.marks[1]
    same_as_engine(screen)
    focus_on(app, screen, screen.ids.previous_trick_button)
    app.handle_input("OK")
    pump(1)
    assert screen.step == screen.steps.marks[0]
    focus_on(app, screen, screen.ids.hands_button)
    app.handle_input("OK")
    pump(1)
    assert screen.all_hands and all(seat.hand for seat in screen.seats)
    app.handle_input("BACK")
    pump(2)
    assert app.root.current == "replays"


def test_the_list_on_a_database_from_before_the_migration(make_app: Any, tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    shutil.copyfile(FIXTURE, db)
    store = SqliteStore(db)
    try:
        app = make_app(store=store)
        listing = open_from_stats(app, store)
        assert listing.empty and listing.ids.deal_list.children == []
        deal = finished("chan", 9)
        assert store.save_finished_deal("chan", "draw", 0, deal.record.to_json())
        app.go_back()
        pump(2)
        listing = open_from_stats(app, store)
        assert len(listing.ids.deal_list.children) == 1
        tap(listing.ids.deal_list.children[0])
        screen = app.root.get_screen("replay")
        tap(screen.ids.end_button)
        same_as_engine(screen)
    finally:
        store.close()


def test_a_deal_no_longer_kept_says_so(make_app: Any) -> None:
    app = make_app(store=MemoryStore())
    app.open_deal(42)
    pump(2)
    screen = app.root.get_screen("replay")
    assert screen.problem == "This deal is no longer kept."
    assert screen.seats == []


def test_no_label_is_cut_in_any_language(make_app: Any) -> None:
    from tests.ui.tablesim import cut_in_languages
    from tests.ui.uitools import cut_labels, settle
    from ui.i18n import LANGUAGES

    problems: list[str] = []
    for size in ((800, 480), (720, 1280)):
        store = MemoryStore()
        for game, seed in (("meri", 3), ("chan", 8)):
            store.save_finished_deal(game, "win", 2, finished(game, seed).record.to_json(),
                                     practice=game == "chan")
        app = make_app(size=size, store=store)
        app.go("replays")
        pump(3)
        problems += cut_in_languages(app, f"replays {size}")
        app.open_deal(store.recent_deals()[1]["id"])  # Meri: eight seats
        pump(3)
        screen = app.root.get_screen("replay")
        screen.next_trick()
        problems += cut_in_languages(app, f"replay {size}")
        app.new_game("tractor")
        table = app.root.get_screen("tractor")
        table.undo.request()  # nothing to undo yet, or the question: either way words on screen
        table.undo.ask("undo")
        for lang in LANGUAGES:  # the question's own labels (the table has tests of its own)
            app.set_language(lang)
            pump(4)
            problems += [f"{lang} undo question {size}: {p}"
                         for p in cut_labels(table.undo.open_panel())]
        app.set_language("en")
        for game in ("meri", "tractor", "chan"):  # the Undo button on every table
            app.new_game(game)
            settle()
            button = app.root.get_screen(game).ids.undo_button
            for lang in LANGUAGES:
                app.set_language(lang)
                settle()
                problems += [f"{lang} {game} undo {size}: {p}" for p in cut_labels(button)]
            app.set_language("en")
    assert problems == [], "\n".join(problems)


def test_notes_kept_with_a_deal_show_at_their_step(make_app: Any) -> None:
    """The replay store keeps notes with a deal (the coach's, later): the viewer shows them."""
    store = MemoryStore()
    store.save_finished_deal("tractor", "loss", 0, finished("tractor", 2).record.to_json())
    deal_id = store.recent_deals()[0]["id"]
    store.attach_notes(deal_id, [{"step": 2, "text": "8H was better here"}])
    app = make_app(store=store)
    app.open_deal(deal_id)
    pump(2)
    screen = app.root.get_screen("replay")
    assert screen.note_text == ""
    screen.go_to(2)
    assert screen.note_text == "8H was better here"
    screen.forward()
    assert screen.note_text == ""
