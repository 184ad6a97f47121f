"""The seating screen (issue 22): today's game in one tap, seats as this screen / phone / AI,
names typed and remembered, and the phone panel: how to turn phones on, the QR code and URL of
a running server on 127.0.0.1, which phones joined, a port in use in one line."""

from __future__ import annotations

import socket
from typing import Any

from tests.ui.remote.harness import Phone
from tests.ui.uitools import cut_labels, pump, settle, tap, wait_for
from ui.ports import MemoryStore
from ui.remote.settings import NetworkSettings
from ui.table.seating import known_names


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def loopback(port: int | None = None) -> NetworkSettings:
    return NetworkSettings(enabled=True, port=port or free_port(), grace_seconds=30.0,
                           bind="127.0.0.1")


def seats_button(app: Any, game: str) -> Any:
    """Home's Seats button of `game` (beside its tagline, above Play)."""
    return app.root.get_screen("home").ids[f"tile_{game}"].ids.seats


def open_seating(app: Any, game: str) -> Any:
    tap(seats_button(app, game))
    settle()
    assert app.root.current == "seating"
    return app.root.get_screen("seating")


def test_ok_on_homes_play_is_todays_game_at_once(make_app: Any) -> None:
    """OK on home's Play (focused): the table at once, you against AI (issue 35 point 8: it
    opened the seating screen, a second OK away)."""
    app = make_app(pace=0)
    app.post_input("OK")
    pump(3)
    assert app.root.current == "meri", "home's Play opened the seating, not the table"
    table = app.root.get_screen("meri")
    assert table.seat_roles.screen_seat() == 0 and table.driver.human == 0
    assert table.badges[0].name == "You" and table.badges[1].name == "AI 1"
    assert app.root.get_screen("seating").phones is None


def test_the_seats_button_opens_the_seating_then_play_is_todays_game(make_app: Any) -> None:
    """Home's Seats (one tap, or the arrows) opens the seating, Play focused: you against AI."""
    app = make_app(pace=0)
    home = app.root.get_screen("home")
    app.post_input("UP")  # from Meri's Play (focused) up to the Seats button above it
    pump(2)
    assert home.focused_widget is seats_button(app, "meri").__self__
    app.post_input("OK")
    pump(3)
    seating = app.root.get_screen("seating")
    assert app.root.current == "seating" and seating.game == "meri"
    settle()
    assert seating.focused_widget == seating.ids.play_button
    assert [p.kind for p in seating.plans] == ["screen"] + ["ai"] * 7
    app.post_input("OK")
    pump(3)
    assert app.root.current == "meri"
    assert app.root.get_screen("meri").badges[0].name == "You"


def test_seats_by_touch_names_typed_are_remembered_and_shown(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    seating = open_seating(app, "tractor")
    rows = seating.rows
    assert len(rows) == 4
    rows[0].name_input.text = "Linh"
    tap(rows[2].level_button)  # the app's level (easy in tests) -> normal
    assert seating.plans[2].level != "easy"
    tap(rows[1].kind_button)  # AI -> this screen (pass-and-play: tests/ui/test_pass_and_play.py)
    assert seating.plans[1].kind == "screen"
    tap(rows[1].kind_button)  # this screen -> phone
    tap(rows[1].kind_button)  # phone -> AI
    assert seating.plans[1].kind == "ai"
    settle()
    assert not cut_labels(seating), cut_labels(seating)
    tap(seating.ids.play_button)
    pump(3)
    table = app.root.get_screen("tractor")
    assert app.root.current == "tractor"
    assert table.badges[0].name == "Linh"
    assert known_names(store) == ["Linh"]
    assert table.driver.specs[2][0] == seating.plans[2].level
    # Next time the seating is the last one, and a name is picked with a button
    app.go("home")
    settle()
    seating = open_seating(app, "tractor")
    assert seating.plans[0].name == "Linh" and seating.plans[2].level != "easy"
    tap(seating.rows[3].kind_button)  # AI -> this screen: a name of its own, or one picked
    tap(seating.rows[3].pick_button)
    assert seating.plans[3].name == "Linh"


def test_phone_seat_with_network_off_says_how_to_turn_it_on(make_app: Any) -> None:
    app = make_app(pace=0)
    seating = open_seating(app, "tractor")
    tap(seating.rows[1].kind_button)  # AI -> this screen
    tap(seating.rows[1].kind_button)  # this screen -> phone
    assert seating.plans[1].kind == "phone"
    assert seating.phone_alert and "Settings" in seating.phone_text  # the Phones switch
    assert seating.phones is None and seating.qr_matrix == []
    tap(seating.ids.play_button)
    pump(3)
    table = app.root.get_screen("tractor")
    assert table.seating.plays(1) == "ai"  # no server: AI plays the phone seat
    assert 1 in table.driver.specs


def phone_seat_3(make_app: Any) -> tuple[Any, Any, Any]:
    """Tractor's seating with seat 3 made a phone seat, the server listening on the loopback:
    (the loopback settings, the seating screen, its phones)."""
    net = loopback()
    app = make_app(pace=0, network=net)
    seating = open_seating(app, "tractor")
    tap(seating.rows[2].kind_button)  # AI -> this screen
    tap(seating.rows[2].kind_button)  # this screen -> phone
    settle()
    phones = seating.phones
    assert phones is not None and phones.listening, seating.phone_text
    return net, seating, phones


def test_phone_seat_shows_the_qr_code_and_who_joined(make_app: Any) -> None:
    net, seating, phones = phone_seat_3(make_app)
    url = phones.url()
    assert url.startswith(f"http://127.0.0.1:{net.port}/#")
    assert url.replace("#", "\n#") in seating.phone_text  # on two lines
    assert len(seating.qr_matrix) >= 21 and "Waiting for: Seat 3" in seating.phone_text
    with Phone(net.port) as phone:
        phone.send(type="join", token=phones.server.token, seat=2, name="Minh", lang="en")
        wait_for(lambda: 2 in phones.joined(), seconds=10, what="the phone to join")
        seating.show()
        assert "Joined: Minh" in seating.phone_text
        assert "✓" in seating.rows[2].kind_button.text
    tap(seating.ids.back_button)
    pump(2)
    assert seating.phones is None and not phones.listening


def test_phone_seat_shows_the_short_address_and_the_table_code(make_app: Any) -> None:
    """Issue 35: a phone that cannot scan types `ADDRESS:PORT` and the four-digit code the
    kiosk shows, large, under it; once wrong guesses lock the code it is no longer shown."""
    net, seating, phones = phone_seat_3(make_app)
    code = phones.server.code.code
    assert seating.phone_code == code and len(code) == 4 and code.isdigit()
    assert seating.phone_text.endswith(
        f"No camera? Open 127.0.0.1:{net.port} and type the table code:")
    assert seating.ids.phone_code.opacity == 1
    phones.server.code.tries_left = 0  # locked (tests/ui/remote/test_phone_cards.py: how)
    seating.show()
    assert seating.phone_code == "" and "No camera" not in seating.phone_text
    tap(seating.ids.back_button)
    pump(2)
    assert seating.phones is None and not phones.listening


def test_a_port_in_use_is_said_in_one_line(make_app: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        app = make_app(pace=0, network=loopback(port))
        seating = open_seating(app, "chan")
        tap(seating.rows[1].kind_button)  # AI -> this screen
        tap(seating.rows[1].kind_button)  # this screen -> phone
        settle()
        assert seating.phone_alert
        assert seating.phone_text.startswith("Phones cannot join: port ")
        assert "\n" not in seating.phone_text
        tap(seating.ids.back_button)


def test_two_seats_with_one_name_are_refused_in_one_line(make_app: Any) -> None:
    """Pass-and-play, seats 1 and 3 both typed "Ann" (case and spaces aside): Play starts
    nothing and says which seats share the name; the line goes once the name is changed, and
    the game starts with two names of their own (two covers, two statistics lines). A typed
    name that is another seat's default name ("Seat 3") is refused too; by buttons."""
    from tests.ui.tablesim import focus_on

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    seating = open_seating(app, "chan")
    tap(seating.rows[2].kind_button)  # AI -> this screen: seats 1 and 3 on this screen
    seating.rows[0].name_input.text = "Ann"
    seating.rows[2].name_input.text = " ann "
    settle()
    tap(seating.ids.play_button)
    pump(3)
    assert app.root.current == "seating"
    assert seating.problem == ("Seats 1 and 3 are both called ann: give each player a name of "
                               "their own.")
    assert seating.ids.problem_line.opacity == 1 and not cut_labels(seating)
    assert known_names(store) == []  # nothing remembered, nothing started
    seating.rows[2].name_input.text = "Seat 1"  # seat 1 is "Ann": fine
    assert seating.problem == ""
    seating.rows[0].name_input.text = ""  # seat 1 unnamed: "Seat 1" twice
    focus_on(app, seating, seating.ids.play_button)
    app.handle_input("OK")
    pump(3)
    assert app.root.current == "seating" and "Seats 1 and 3" in seating.problem
    seating.rows[0].name_input.text = "Ann"
    seating.rows[2].name_input.text = "Ann B"
    focus_on(app, seating, seating.ids.play_button)
    app.handle_input("OK")
    pump(3)
    assert app.root.current == "chan"
    table = app.root.get_screen("chan")
    assert [name for _seat, name in table.seat_roles.screen_players()] == ["Ann", "Ann B"]


def test_same_name_line_fits_at_both_sizes_in_every_language(make_app: Any) -> None:
    from ui import i18n

    for size in ((800, 480), (720, 1280)):
        app = make_app(size=size, pace=0)
        seating = open_seating(app, "meri")
        seating.rows[0].name_input.text = "Nguyễn Thị Minh Khai"
        seating.rows[5].name_input.text = "Nguyễn Thị Minh Khai"
        seating.play()
        for lang in i18n.LANGUAGES:
            app.set_language(lang)
            seating.play()
            settle()
            assert seating.problem and not cut_labels(seating), (size, lang, cut_labels(seating))
        app.set_language("en")
