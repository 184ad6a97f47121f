"""The kiosk's table driver over the headless table (engine/table): bots think on the worker and
answer the table later; a phone seat waits for its phone, is played by its stand-in AI once the
phone is away, and is asked again when the phone comes back (the stand-in's decision in flight
dropped). Real Kivy Clock, no screen."""

from __future__ import annotations

import threading
import time
from typing import Any

from engine.session import Session
from engine.table import Applied
from tests.ui.uitools import pump, wait_for
from ui.table.driver import TableDriver

PHONE = 1


def driver_for(session: Session, present: dict[int, bool], gate: Any = None) -> tuple[
        TableDriver, list[tuple[int, Any]]]:
    """A driver with seat 0 on the screen, seat PHONE a phone, the others AI (random bots, no
    bot process); `gate`: an Event the bots wait on before answering."""
    players = session.game.players
    kinds = ["screen", "phone"] + ["ai"] * (players - 2)
    specs = {seat: ("random", seat) for seat in range(1, players)}
    applied: list[tuple[int, Any]] = []
    driver = TableDriver(session, specs, 0, lambda: None,
                         lambda seat, action: applied.append((seat, action)), lambda: 0.0,
                         None, kinds, lambda seat: present.get(seat, False))
    if gate is not None:
        choose = driver._choose

        def slow(*args: Any) -> Any:
            gate.wait(10)
            return choose(*args)

        driver._choose = slow  # type: ignore[method-assign]
    return driver, applied


def to_seat(session: Session, driver: TableDriver, seat: int) -> None:
    """Play (seat 0 by its first legal action, the others by the driver) until `seat` acts."""
    for _ in range(400):
        state = session.state
        if state.to_act == seat:
            return
        if state.to_act == 0:
            driver.apply(state.legal_actions()[0])
        else:
            driver.start_bot()
            wait_for(lambda: driver.thinking is None, seconds=10, what="a bot's play")
    raise AssertionError(f"seat {seat} never acts")


def test_a_phone_seat_waits_then_its_stand_in_plays_once_the_phone_is_away(window: Any) -> None:
    session = Session.new("tractor", 6)
    present = {PHONE: True}
    driver, applied = driver_for(session, present)
    try:
        to_seat(session, driver, PHONE)
        done = session.played
        assert not driver.start_bot()  # the phone decides: no bot thinks
        assert driver.table.asked() is not None and driver.table.asked().seat == PHONE
        present[PHONE] = False
        driver.hand_over(PHONE)  # the server: the phone is away past the grace time
        assert driver.start_bot() and driver.thinking == PHONE
        wait_for(lambda: session.played > done, seconds=10, what="the stand-in's play")
        assert applied[-1][0] == PHONE
    finally:
        driver.shutdown()


def test_the_phone_back_drops_its_stand_ins_decision_in_flight(window: Any) -> None:
    session = Session.new("chan", 8)
    present = {PHONE: False}
    gate = threading.Event()
    driver, applied = driver_for(session, present, gate)
    try:
        gate.set()
        to_seat(session, driver, PHONE)
        gate.clear()
        done = session.played
        assert driver.start_bot() and driver.thinking == PHONE  # the stand-in thinks
        present[PHONE] = True
        driver.hand_over(PHONE)  # the phone is back before the stand-in answers
        gate.set()
        assert driver.thinking is None and not driver.start_bot()  # the phone is asked
        for _ in range(25):  # time for the dropped answer to come back through the Clock
            pump(1)
            time.sleep(0.02)
        assert session.played == done  # the stand-in's answer was dropped
        action = session.state.legal_actions()[0]
        driver.apply(action)  # the phone's action
        assert applied[-1] == (PHONE, action)
    finally:
        driver.shutdown()


def test_every_action_is_told_through_the_headless_table(window: Any) -> None:
    """The screen's `on_applied` and Why? come from the table's `Applied` events: one per
    action, in order, the person's included."""
    session = Session.new("meri", 3)
    driver, applied = driver_for(session, {PHONE: False})
    told: list[Applied] = []
    driver.table.listen(lambda event: told.append(event) if isinstance(event, Applied) else None)
    try:
        to_seat(session, driver, 0)
        driver.apply(session.state.legal_actions()[0])
        assert [(e.seat, e.action) for e in told] == applied[-len(told):]
        assert [e.index for e in told] == list(range(told[0].index, session.played))
    finally:
        driver.shutdown()
