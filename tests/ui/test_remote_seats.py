"""The kiosk with phone seats (issue 22): phones play through the host on 127.0.0.1 while the
kiosk shows the public table (never a phone's hand), AI plays a phone seat while its phone is
away (the table says so), and after a power cut the resumed table listens with the saved keys
so the phone returns to its seat."""

from __future__ import annotations

import socket
import time
from typing import Any

from tests.ui.remote.harness import Phone
from tests.ui.uitools import pump, settle, tap, wait_for
from ui.ports import MemoryStore
from ui.remote.settings import NetworkSettings

LIMIT = 90.0  # seconds a whole deal may take


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Player:
    """A scripted phone: joins a seat, then plays the first legal action whenever asked."""

    def __init__(self, port: int) -> None:
        self.phone = Phone(port)
        self.state: dict[str, Any] | None = None
        self.waiting = False  # an action sent, its answer not yet back
        self.secret = ""
        self.acted = 0
        self.errors: list[dict[str, Any]] = []

    def join(self, token: str, seat: int, name: str, secret: str | None = None) -> None:
        fields: dict[str, Any] = {"type": "join", "token": token, "seat": seat, "name": name,
                                  "lang": "en"}
        if secret:
            fields["secret"] = secret
        self.phone.send(**fields)

    def poll(self) -> None:
        """Read what arrived (without blocking) and act on the newest state."""
        while True:
            try:
                msg = self.phone.recv(timeout=0.005)
            except TimeoutError:
                break
            kind = msg["type"]
            if kind == "joined":
                self.secret = msg["secret"]
            elif kind == "state":
                self.state = msg
            elif kind in ("accepted", "error"):
                self.waiting = False
                if kind == "error":
                    self.errors.append(msg)
        decision = self.state["decision"] if self.state else None
        if decision and not self.waiting:
            self.phone.send(type="act", action=decision["legal"][0], ref=self.acted)
            self.acted += 1
            self.waiting = True
            self.state = None  # act on the next state only

    def close(self) -> None:
        self.phone.close()


def seat_phones(app: Any, game: str, seats: list[int]) -> Any:
    tap(app.root.get_screen("home").ids[f"tile_{game}"].ids.seats)  # home's Seats
    settle()
    seating = app.root.get_screen("seating")
    for seat in seats:
        tap(seating.rows[seat].kind_button)  # this screen -> phone, or AI -> this screen
        if seating.plans[seat].kind != "phone":
            tap(seating.rows[seat].kind_button)  # this screen -> phone
    settle()
    assert seating.phones is not None and seating.phones.listening, seating.phone_text
    return seating


def test_phones_play_a_whole_deal_through_the_kiosk(make_app: Any) -> None:
    store = MemoryStore()
    net = NetworkSettings(enabled=True, port=free_port(), grace_seconds=30.0, bind="127.0.0.1")
    app = make_app(store=store, pace=0.05, network=net)  # tricks on show: phones act meanwhile
    seating = seat_phones(app, "tractor", [0, 2])
    phones = seating.phones
    token = phones.server.token
    players = {0: Player(net.port), 2: Player(net.port)}
    try:
        players[0].join(token, 0, "Ann")
        players[2].join(token, 2, "<b>Bo</b>")
        wait_for(lambda: phones.joined() == {0, 2}, seconds=10, what="both phones")
        tap(seating.ids.play_button)
        pump(2)
        table = app.root.get_screen("tractor")
        assert app.root.current == "tractor" and table.seat_roles.phones is phones
        assert table.driver.human is None and table.seat_roles.screen_seat() is None
        assert table.badges[0].name == "Ann" and table.badges[2].name == "<b>Bo</b>"
        hand = table.ids.hand
        end = time.monotonic() + LIMIT
        while not table.summary_open:
            assert time.monotonic() < end, "the deal did not finish in time"
            for player in players.values():
                player.poll()
            pump(1)
            assert hand.opacity == 0 and hand.disabled  # a phone's hand never shows here
        record = table.session.record
        assert players[0].acted > 3 and players[2].acted > 3
        assert all(e["code"] in ("order", "illegal") for p in players.values()
                   for e in p.errors), [p.errors for p in players.values()]
        # the autosave holds the deal, the seating holds the phones' keys
        saved = store.get_setting("seating")
        assert saved["game"] == "tractor" and [p["kind"] for p in saved["plans"]] == [
            "phone", "ai", "phone", "ai"]
        assert set(saved["keys"]["secrets"]) == {"0", "2"}
        assert len(record.actions) > 20
    finally:
        for player in players.values():
            player.close()


def test_ai_covers_an_away_phone_and_it_rejoins_after_a_power_cut(make_app: Any) -> None:
    store = MemoryStore()
    port = free_port()
    net = NetworkSettings(enabled=True, port=port, grace_seconds=0.3, bind="127.0.0.1")
    app = make_app(store=store, pace=0, network=net)
    seating = seat_phones(app, "tractor", [1])
    phones = seating.phones
    token = phones.server.token
    player = Player(port)
    player.join(token, 1, "Linh")
    wait_for(lambda: phones.joined() == {1}, seconds=10, what="the phone")
    tap(seating.ids.play_button)
    pump(2)
    table = app.root.get_screen("tractor")
    assert table.seat_roles.screen_seat() == 0 and table.seating.plays(1) == "phone"
    wait_for(lambda: (player.poll(), bool(player.secret))[1], seconds=5, what="the seat secret")
    secret = player.secret
    player.close()  # the phone sleeps: after the grace time, AI plays for it
    wait_for(lambda: table.seating.plays(1) == "ai", seconds=10, what="AI to take over")
    assert table.badges[1].name == "Linh (AI)"
    assert "AI plays for Linh" in table.message or table.prompt  # said on the table
    wait_for(lambda: table.session.state.to_act == 0 or table.summary_open, seconds=20,
             what="the table to reach the human again")
    actions = list(table.session.record.actions)
    # power cut: a new app on the same store; Continue listens again with the saved keys
    app = make_app(store=store, pace=0, network=net)
    assert app.saved_game == "tractor"
    tap(app.root.get_screen("home").ids.continue_button)
    pump(2)
    table = app.root.get_screen("tractor")
    assert table.session.record.actions == actions
    assert app.phones is not None and app.phones.server.token == token
    wait_for(lambda: table.seating.plays(1) == "ai", seconds=10,
             what="AI to cover the seat its phone has not rejoined yet")
    back = Player(port)
    try:
        back.join(token, 1, "Linh", secret=secret)
        wait_for(lambda: table.seating.plays(1) == "phone", seconds=10, what="the phone back")
        assert table.badges[1].name == "Linh"
        wait_for(lambda: (back.poll(), back.secret == secret)[1], seconds=5,
                 what="joined with the same secret")
    finally:
        back.close()
        app.go("home")  # the server stops; nothing of this table is left for the next test
        settle()
