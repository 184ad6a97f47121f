"""Fewer steps to a game (issue 35 point 8): home's Play starts the game at once with the seating
it was last played with, the seating one tap away (home's Seats); the seating screen shows where
each seat sits and who plays with whom (from the engine's teams), says what plays a phone seat
while its phone is away, and each row holds only what its kind of seat needs."""

from __future__ import annotations

import math
from typing import Any

import pytest

from engine import registry
from tests.ui.tablesim import focus_on, wait_turn
from tests.ui.test_seating import loopback, open_seating, seats_button
from tests.ui.uitools import pump, settle, tap, wait_for
from ui.ports import MemoryStore
from ui.table.seating import AI, PHONE, SCREEN, SeatPlan, remember_names

pytestmark = pytest.mark.ui


def home(app: Any) -> Any:
    return app.root.get_screen("home")


def forget_the_match(app: Any) -> None:
    """Home again, with no saved match in progress (Play then asks nothing)."""
    app.go("home")
    pump(5)  # (a move the table was making is saved first)
    app.end_session()
    settle()
    assert not app.saved_game


def seat_tractor_for_two(app: Any) -> Any:
    """Tractor seated on the seating screen: Ann and Bao on this screen (pass-and-play), seat 1
    at Hard; started, then left with no match in progress. The seating screen."""
    seating = open_seating(app, "tractor")
    tap(seating.rows[2].kind_button)  # AI -> this screen
    seating.rows[0].name_input.text = "Ann"
    seating.rows[2].name_input.text = "Bao"
    tap(seating.rows[1].level_button)  # easy (the app's) -> normal
    tap(seating.rows[1].level_button)  # -> hard
    tap(seating.ids.play_button)
    pump(3)
    assert app.root.current == "tractor"
    forget_the_match(app)
    return seating


# -- Play from home ----------------------------------------------------------------------------
def test_play_from_home_reaches_the_table_with_the_last_seating(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    seating = seat_tractor_for_two(app)
    plans = list(seating.plans)
    tap(home(app).ids.play_tractor)
    pump(3)
    assert app.root.current == "tractor", "home's Play opened the seating, not the table"
    assert app.seating.plans == plans
    table = app.root.get_screen("tractor")
    assert table.screen_seats() == [0, 2] and table.driver.specs[1][0] == "hard"
    assert [table.badges[s].name for s in (0, 2)] == ["Ann", "Bao"]


def test_each_game_keeps_its_own_last_seating(make_app: Any) -> None:
    app = make_app(store=MemoryStore(), pace=0)
    seat_tractor_for_two(app)
    tap(home(app).ids.play_chan)  # never seated: you and AI
    pump(3)
    assert app.root.current == "chan"
    assert [p.kind for p in app.seating.plans] == [SCREEN, AI, AI, AI]
    forget_the_match(app)
    tap(home(app).ids.play_tractor)
    pump(3)
    assert app.root.current == "tractor", app.root.current
    assert [p.kind for p in app.seating.plans] == [SCREEN, AI, SCREEN, AI]


def test_the_seats_follow_a_new_ai_level_unless_given_their_own(make_app: Any) -> None:
    """AI seats left at the level of the time follow Settings' AI level; seat 1, given Hard on
    the seating screen, keeps it."""
    app = make_app(store=MemoryStore(), pace=0)  # AI level: easy
    seat_tractor_for_two(app)
    app.set_ai_level("normal")
    tap(home(app).ids.play_tractor)
    pump(3)
    assert [p.level for p in app.seating.plans] == ["normal", "hard", "normal", "normal"]


def test_a_last_seating_with_phones_opens_the_seating_for_them_to_join(make_app: Any) -> None:
    app = make_app(store=MemoryStore(), pace=0, network=loopback())
    seating = open_seating(app, "tractor")
    tap(seating.rows[2].kind_button)  # AI -> this screen
    tap(seating.rows[2].kind_button)  # -> phone
    settle()
    tap(seating.ids.play_button)
    pump(3)
    assert app.root.current == "tractor"
    forget_the_match(app)
    tap(home(app).ids.play_tractor)
    settle()
    assert app.root.current == "seating", "Play started without the phones"
    assert seating.plans[2].kind == PHONE
    assert seating.phones is not None and seating.phones.listening and seating.qr_matrix
    assert seating.focused_widget is seating.ids.play_button.__self__
    seating.stop_phones()


def test_play_with_a_saved_match_asks_first_over_the_seating(make_app: Any) -> None:
    """A match in progress is never replaced silently: Play asks (the seating's question,
    "Keep my saved game" focused); keeping goes home with Continue focused."""
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.new_game("tractor")
    wait_turn(app.root.get_screen("tractor"))
    app.handle_input("MENU")
    pump(3)
    saved = store.load_autosave()
    focus_on(app, home(app), home(app).ids.play_meri)
    app.handle_input("OK")
    pump(3)
    seating = app.root.get_screen("seating")
    assert app.root.current == "seating" and seating.asking and seating.game == "meri"
    assert seating.focused_widget is seating.question_panel().ids.keep_saved.__self__
    app.handle_input("OK")  # keep it
    pump(3)
    assert app.root.current == "home" and store.load_autosave() == saved
    assert home(app).focused_widget is home(app).ids.continue_button.__self__
    tap(home(app).ids.play_meri)  # again, and start the new one this time
    pump(3)
    tap(seating.question_panel().ids.start_new)
    pump(3)
    assert app.root.current == "meri" and app.session.game.name == "meri"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def test_the_seats_button_is_reached_by_the_arrows_from_play_and_back(
        make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(pace=0, size=size)
    screen = home(app)
    for game in ("meri", "tractor", "chan"):
        play = screen.ids[f"play_{game}"].__self__
        focus_on(app, screen, play)
        app.handle_input("UP")
        assert screen.focused_widget is seats_button(app, game).__self__, game
        app.handle_input("DOWN")
        assert screen.focused_widget is play, game
    tap(seats_button(app, "chan"))
    settle()
    assert app.root.current == "seating" and app.root.get_screen("seating").game == "chan"


# -- the picture of the table ------------------------------------------------------------------
def cyclic_order(centres: dict[int, tuple[float, float]], middle: tuple[float, float]) -> list:
    """The seats counterclockwise around `middle`, starting from the lowest one."""
    angle = {s: math.atan2(y - middle[1], x - middle[0]) for s, (x, y) in centres.items()}
    order = sorted(centres, key=lambda s: angle[s])
    start = order.index(min(centres, key=lambda s: centres[s][1]))
    return order[start:] + order[:start]


def table_centres(app: Any, game: str) -> tuple[dict[int, tuple[float, float]], tuple]:
    table = app.root.get_screen(game)
    if game == "chan":
        zones = table.seats
        area = zones[0].parent
        return {z.seat: tuple(z.center) for z in zones}, tuple(area.center)
    area = table.badges[0].parent
    return {s: tuple(b.center) for s, b in enumerate(table.badges)}, tuple(area.center)


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_the_picture_sits_the_seats_as_the_table_and_colours_the_engines_teams(
        make_app: Any, game: str) -> None:
    app = make_app(pace=0)
    seating = open_seating(app, game)
    seat_map = seating.ids.seat_map
    dots = {s: tuple(d.center) for s, d in enumerate(seat_map.dots)}
    assert [d.text for d in seat_map.dots] == [str(s + 1) for s in range(len(dots))]
    tones = [tuple(d.tone) for d in seat_map.dots]
    rows = [tuple(r.number.tone) for r in seating.rows]
    assert tones == rows  # a row's number wears its seat's colour in the picture
    teams = registry.get(game).teams
    team_of = {s: i for i, team in enumerate(teams) for s in team}
    for a in dots:
        for b in dots:
            same = team_of[a] == team_of[b]
            if any(len(t) > 1 for t in teams):
                assert (tones[a] == tones[b]) == same, (a, b)
            else:  # each for themself: nobody is told apart as a side
                assert tones[a] == tones[b]
    # partners joined across the table (Tractor); Meri's teams take every other seat
    if game == "tractor":
        assert sorted(map(sorted, seat_map.links)) == [[0, 2], [1, 3]]
        mid = ((dots[0][0] + dots[2][0]) / 2, (dots[0][1] + dots[2][1]) / 2)
        assert math.dist(mid, seat_map.center) < seat_map.height * 0.1  # opposite
        assert "Partners sit opposite" in seating.teams_text
    elif game == "meri":
        assert "Two teams" in seating.teams_text and "1 3 5 7" in seating.teams_text
    else:
        assert seating.teams_text == "Each plays for themself" and not seat_map.links
    # where each seat sits: as at the table, you at the bottom
    middle = tuple(seat_map.center)
    shown = cyclic_order(dots, middle)
    assert shown[0] == 0
    app.new_game(game)
    pump(3)
    settle()
    centres, table_middle = table_centres(app, game)
    assert cyclic_order(centres, table_middle) == shown


def test_pass_and_play_seats_the_picture_from_the_first_seat_on_this_screen(
        make_app: Any) -> None:
    app = make_app(pace=0)
    seating = open_seating(app, "tractor")
    tap(seating.rows[0].kind_button)  # this screen -> phone: seat 2 is the first here now
    tap(seating.rows[1].kind_button)  # AI -> this screen
    settle()
    dots = seating.ids.seat_map.dots
    assert min(range(4), key=lambda s: dots[s].center_y) == 1
    assert [d.here for d in dots] == [False, True, False, False]


# -- a phone seat's stand-in, and the rows ----------------------------------------------------
def test_a_phone_seat_says_what_plays_while_its_phone_is_away(make_app: Any) -> None:
    app = make_app(pace=0, network=loopback())
    seating = open_seating(app, "tractor")
    tap(seating.rows[1].kind_button)  # AI -> this screen
    tap(seating.rows[1].kind_button)  # -> phone (the level: easy, the app's)
    settle()
    wait_for(lambda: seating.phones is not None and seating.phones.listening)
    seating.show()
    assert (seating.stand_in_text ==
            "If a phone leaves, an AI plays its seat at Easy until the phone returns.")
    assert seating.ids.problem_line.text == seating.stand_in_text  # beside Play
    assert seating.rows[1].level_button.text == "AI if away: Easy"
    tap(seating.rows[1].level_button)
    assert "at Normal until" in seating.stand_in_text
    tap(seating.rows[3].kind_button)  # AI -> this screen
    tap(seating.rows[3].kind_button)  # -> phone, at easy: two levels, a line each
    assert "If the phone of seat 2 leaves, an AI plays it at Normal" in seating.stand_in_text
    assert "If the phone of seat 4 leaves, an AI plays it at Easy" in seating.stand_in_text
    app.set_language("fr")  # the words follow a switch at once
    assert "IA si absent : Normal" == seating.rows[1].level_button.text
    assert seating.teams_text.startswith("Les partenaires sont face à face")
    app.set_language("en")
    seating.stop_phones()


def test_each_row_holds_only_what_its_seat_needs(make_app: Any) -> None:
    """Today's seating: your row a name only (no AI level, no Names before any name was typed);
    an AI's row its name as words and its level (no box to type in, no Names)."""
    from kivy.uix.textinput import TextInput

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    seating = open_seating(app, "meri")

    def parts(row: Any) -> list[Any]:
        return list(row.rest.children)  # after the seat's number and kind

    you, ai = seating.rows[0], seating.rows[1]
    assert you.level_button not in parts(you) and you.pick_button not in parts(you)
    assert any(isinstance(w, TextInput) for w in parts(you))
    assert not any(isinstance(w, TextInput) for w in parts(ai))
    assert ai.pick_button not in parts(ai) and ai.name_label.text == "AI 1"
    assert parts(ai) == [ai.level_button, ai.name_label]  # (children: last added first)
    remember_names(store, ["Linh"])
    seating.show()
    assert you.pick_button in parts(you) and ai.pick_button not in parts(ai)
    # the kind buttons line up, whatever follows them
    assert len({round(r.kind_button.x) for r in seating.rows}) == 1
    settle()
    assert len({round(r.kind_button.width) for r in seating.rows}) == 1


def test_last_seating_reads_back_and_a_damaged_one_is_the_default() -> None:
    from ui.table.seating import last_seating

    store = MemoryStore()
    assert last_seating(store, "chan", 4, "hard") == [SeatPlan(SCREEN, "", "hard")] + [
        SeatPlan(AI, "", "hard")] * 3
    store.set_setting("last_seating", {"chan": {"plans": "nonsense", "level": "easy"}})
    assert [p.kind for p in last_seating(store, "chan", 4)] == [SCREEN, AI, AI, AI]
