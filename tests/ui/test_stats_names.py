"""Statistics per name (issue 22): who a finished deal counts for (`ui.table.deal_stats`), a
table counting its named players at the end of a deal, and the Statistics screen's name picker
driven by touch and by the buttons."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from engine.result import DealResult, SideScore
from tests.ui.tablesim import finish_with_bots
from tests.ui.uitools import cut_labels, pump, settle, tap
from ui.ports import DEFAULT_NAME, MemoryStore, PlayerResult
from ui.remote.host import AI, PHONE, SCREEN, SeatPlan
from ui.table.deal_stats import people, player_results
from ui.table.seating import Seating


@pytest.fixture(autouse=True)
def english_and_default_names() -> Iterator[None]:
    """The translator and the table's seat names are module-wide: leave them as found (the
    tests here switch to Vietnamese and seat named players)."""
    from ui import i18n
    from ui.table import seats

    yield
    i18n.translator.set_language("en")
    seats.use_names([])


def two_teams(score0: int, score1: int) -> DealResult:
    return DealResult(sides=(SideScore(seats=(0, 2), score=score0),
                             SideScore(seats=(1, 3), score=score1)), winners=(0,) if score0 > score1
                      else (1,) if score1 > score0 else ())


def test_people_are_the_named_and_the_unnamed_screen_seats() -> None:
    assert people(None) == {0: DEFAULT_NAME}  # today's table: you, unnamed
    seating = Seating([SeatPlan(SCREEN, "Linh"), SeatPlan(PHONE, ""), SeatPlan(SCREEN, ""),
                       SeatPlan(AI, "Bot"), SeatPlan(PHONE, "Bảo"), SeatPlan(PHONE, "")])
    # a phone that joined gave its own name; the unnamed phone at seat 5 is nobody we can name
    seating.host = SimpleNamespace(names=["", "Mai", "", "", "", ""])
    assert people(seating) == {0: "Linh", 1: "Mai", 2: DEFAULT_NAME, 4: "Bảo"}
    hostile = Seating([SeatPlan(SCREEN, "a\u202eb"), SeatPlan(AI, "")])  # a bidi override
    assert people(hostile) == {0: DEFAULT_NAME}  # not a name: the seat counts as unnamed


def test_each_person_gets_their_own_sides_outcome() -> None:
    deal = two_teams(2, 0)  # Tractor: seats 0 and 2 gained two levels
    results = player_results(deal, {0: "Linh", 1: "Mai", 2: "Linh", 3: DEFAULT_NAME})
    assert results == [PlayerResult("Linh", "win", 2), PlayerResult("Mai", "loss", 0),
                       PlayerResult(DEFAULT_NAME, "loss", 0)]  # Linh once, for seat 0
    assert player_results(two_teams(1, 1), {1: "Mai"}) == [PlayerResult("Mai", "draw", 1)]
    assert player_results(deal, {}) == []


def play_named_tractor(app: Any, name: str) -> Any:
    tap(app.root.get_screen("home").ids.tile_tractor.ids.seats)
    settle()
    seating = app.root.get_screen("seating")
    seating.rows[0].name_input.text = name
    tap(seating.ids.play_button)
    pump(3)
    table = app.root.get_screen("tractor")
    assert app.root.current == "tractor" and table.badges[0].name == name
    return table


def test_a_table_counts_its_named_player_then_the_picker_shows_them(make_app: Any) -> None:
    store = MemoryStore()
    store.record_deal("meri", "win", 7)  # the default name's (as before names)
    app = make_app(store=store, pace=0)
    table = play_named_tractor(app, "[b]Linh[/b]")  # markup in a name is only text
    finish_with_bots(table)
    counted = store.stats("[b]Linh[/b]")["tractor"]
    assert counted["deals"] == 1 and counted["practice"] == 0
    assert "tractor" not in store.stats()  # not the default name's
    assert store.recent_deals()[0]["game"] == "tractor"

    app.go("stats")
    settle()
    screen = app.root.get_screen("stats")
    assert screen.names == [DEFAULT_NAME, "[b]Linh[/b]"]
    assert screen.ids.name_label.text == "Player: You" and screen.count_text == "1 / 2"
    assert screen.rows[0] == ["Hachinin Meri", "1", "1", "0", "0", "7"]
    tap(screen.ids.next_name)  # touch
    pump(2)
    assert screen.ids.name_label.text == "Player: [b]Linh[/b]"
    assert not screen.ids.name_label.markup
    tractor = next(row for row in screen.rows if row[0] == app.game_title("tractor"))
    assert tractor[1] == "1" and screen.rows[0][1] == "0"
    assert not cut_labels(screen), cut_labels(screen)
    # the buttons: the focus on "<", SELECT steps back (round the list)
    screen.set_focus(screen.ids.prev_name)
    app.post_input("SELECT")
    pump(3)
    assert screen.player == DEFAULT_NAME and screen.ids.name_label.text == "Player: You"
    app.post_input("OK")
    pump(3)
    assert screen.player == "[b]Linh[/b]"
    app.set_language("vi")
    pump(2)
    assert "[b]Linh[/b]" in screen.ids.name_label.text
    assert screen.ids.name_label.text != "Player: [b]Linh[/b]"  # translated
    app.set_language("en")


def test_practice_deals_are_the_players_but_not_in_their_figures(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.practice = True
    table = play_named_tractor(app, "Mai")
    assert table.session.practice
    finish_with_bots(table)
    assert store.stats("Mai")["tractor"]["deals"] == 0
    assert store.stats("Mai")["tractor"]["practice"] == 1
    app.go("stats")
    settle()
    screen = app.root.get_screen("stats")
    assert screen.names == ["Mai"] and screen.count_text == ""
    assert screen.ids.prev_name.disabled and screen.ids.next_name.disabled
    assert screen.practice == 1


def test_with_no_figures_at_all_the_default_player_shows_zeros(make_app: Any) -> None:
    app = make_app()
    app.go("stats")
    settle()
    screen = app.root.get_screen("stats")
    assert screen.names == [DEFAULT_NAME] and screen.ids.name_label.text == "Player: You"
    assert all(row[1:] == ["0"] * 5 for row in screen.rows)


def test_the_longest_name_fits_in_both_sizes(make_app: Any) -> None:
    """A name of the most characters a player may give, in wide letters, in Vietnamese (the
    longest label) on the official display and in portrait: no label is cut."""
    from ui.ports import MAX_PLAYER_NAME

    longest = "W" * MAX_PLAYER_NAME
    for size in ((800, 480), (720, 1280)):
        store = MemoryStore()
        store.save_finished_deal("chan", "win", 12345, "{}", players=[
            PlayerResult(longest, "win", 12345)])
        app = make_app(size=size, store=store, language="vi")
        app.go("stats")
        settle()
        screen = app.root.get_screen("stats")
        assert screen.player == longest
        assert not cut_labels(screen), (size, cut_labels(screen))
