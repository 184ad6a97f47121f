"""Every row of buttons fits, on every screen, in the five languages, at 800×480 and 720×1280
(issue 35 point 1): each visible button's text (its texture, as drawn) inside the button, no
word broken, and the button wholly inside the window (`uitools.cut_buttons`).

The screens visited: home (with a saved game; each game's Seats above its Play), seating of
each game (its last seats, with names typed before, then a pass-and-play seat, a phone seat and
another AI level, then its question before Play replaces the saved game; and Tractor's with two
phone seats and the phone server running: their stand-in AI levels, the QR code), settings
(phones on, the network still opening), controls, statistics, rules of each game, the kiosk's
exit, power-off and Phones prompts (on and off), the kept deals and the replay viewer;
each table at its prompts (Meri's play, Tractor's bidding, bury and play, Chắn's capture and
win offer), the questions a table asks (Undo's and Why?'s practice question, Restart's), the
pass-and-play cover, and each summary, also with Coach on offer (its fullest row).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from tests.ui.tablesim import finish_with_bots, start_deal, tractor_dealer_deal, wait_turn
from tests.ui.test_chan_table import find_offer
from tests.ui.uitools import cut_buttons, cut_labels, pump, settle, wait_for
from ui.i18n import LANGUAGES
from ui.ports import KioskSettings, MemoryStore, PowerSettings
from ui.table.seating import AI, SCREEN, Seating, SeatPlan, remember_names

pytestmark = pytest.mark.ui

SIZES = [(800, 480), (720, 1280)]


def unfit(app: Any, where: str) -> list[str]:
    """The buttons of the current screen that do not fit, in each of the five languages."""
    problems = []
    for lang in LANGUAGES:
        app.set_language(lang)
        pump(4)
        problems += [f"{lang} {where}: {p}" for p in cut_buttons(app.root.current_screen)]
    app.set_language("en")
    pump(2)
    return problems


def back_out(app: Any, table: Any) -> None:
    """Answer the table's open question with BACK (the safe answer)."""
    app.handle_input("BACK")
    pump(2)
    assert not table.undo.asking


def summaries(app: Any, table: Any, where: str) -> list[str]:
    """The summary, the same with Coach on offer, and Restart's question (if it asks)."""
    assert table.summary_open
    problems = unfit(app, f"{where} summary")
    table.coach.offered = True  # the fullest row: Details, Coach, Next deal, Restart, Home
    settle()
    problems += unfit(app, f"{where} summary with Coach")
    table.coach.offered = False  # and gone again: it leaves no room behind
    settle()
    problems += [f"en {where} summary, Coach gone: {p}" for p in cut_buttons(table)]
    if table.ids.coach_button.width > 1:
        problems.append(f"{where} summary: the hidden Coach button takes "
                        f"{table.ids.coach_button.width:.0f} px")
    if not table.match_over:
        table.restart()
        pump(3)
        problems += unfit(app, f"{where} Restart")
        if app.root.current == table.name and table.undo.asking:
            back_out(app, table)
    return problems


def tables(app: Any, size: tuple[int, int]) -> list[str]:
    problems = []
    # Meri: the play prompt, the practice questions (Undo's, Why?'s), the summary
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_turn(table)
    problems += unfit(app, f"{size} meri {table.prompt}")
    for purpose in ("undo", "why"):
        table.undo.ask(purpose)
        pump(3)
        problems += unfit(app, f"{size} meri {purpose} question")
        back_out(app, table)
    finish_with_bots(table)
    problems += summaries(app, table, f"{size} meri")
    # Tractor: bidding, the bury, play, the summary
    table = start_deal(app, "tractor", tractor_dealer_deal())
    wait_turn(table)
    problems += unfit(app, f"{size} tractor bidding")
    table.choose(table.choice_actions[-1])
    while table.prompt != "bury":
        wait_turn(table)
        if table.prompt == "declare":
            table.choose(table.choice_actions[0])
    for i in range(5):
        table.toggle(i)
    problems += unfit(app, f"{size} tractor bury")
    for i in range(5, 8):
        table.toggle(i)
    table.submit()
    wait_turn(table)
    table.toggle(0)
    problems += unfit(app, f"{size} tractor {table.prompt}")
    finish_with_bots(table)
    problems += summaries(app, table, f"{size} tractor")
    # Chắn: a capture or discard, the win offer, the summary
    table = start_deal(app, "chan", registry.get("chan").new_deal(4))
    wait_turn(table)
    problems += unfit(app, f"{size} chan {table.prompt}")
    table = start_deal(app, "chan", *find_offer("win_offer"))
    wait_turn(table)
    problems += unfit(app, f"{size} chan offer")
    table.answer_offer(True)
    wait_turn(table)
    problems += summaries(app, table, f"{size} chan")
    # The pass-and-play cover
    app.new_game("tractor", seating=Seating([SeatPlan(SCREEN, "Nguyễn Thị Minh Khai"),
                                             SeatPlan(AI), SeatPlan(SCREEN, "Bao"),
                                             SeatPlan(AI)]))
    table = app.root.get_screen("tractor")
    wait_for(lambda: table.cover.up, 60, what="the cover")
    problems += unfit(app, f"{size} cover")
    return problems


class Opening:
    """The appliance's side of the Phones switch, the root side not done yet (it restarts)."""

    restarts = True

    def request(self, on: bool) -> str:
        return ""

    def pending(self, on: bool) -> bool:
        return True


def screens(app: Any, size: tuple[int, int]) -> list[str]:
    problems = []
    app.services.phone_network = Opening()
    app.set_phones(True)  # beside the switch: "Opening the network…"
    for name in ("home", "settings", "controls", "stats", "exit", "power", "phones", "replays"):
        app.go(name)
        settle()
        if name == "phones":  # the prompt to turn them off, too
            app.root.current_screen.want = False
            settle()
            problems += unfit(app, f"{size} phones off")
            app.root.current_screen.want = True
            settle()
        problems += unfit(app, f"{size} {name}")
        if name == "settings":  # its lower rows too (scrolled to the end)
            app.root.current_screen.ids.scroller.scroll_y = 0
            settle()
            problems += unfit(app, f"{size} settings scrolled")
    # names typed before: this screen's seats offer Names (the fullest row of such a seat)
    remember_names(app.services.store, ["Nguyễn Thị Minh Khai"])
    for game in ("meri", "tractor", "chan"):
        app.open_rules(game)
        settle()
        problems += unfit(app, f"{size} rules/{game}")
        app.open_seating(game)
        settle()
        problems += unfit(app, f"{size} seating/{game}")
    seating = app.root.get_screen("seating")
    seating.step_kind(1)  # a second seat on this screen (pass-and-play)
    seating.step_kind(2)
    seating.step_kind(2)  # a phone seat (phones are off: it says so)
    seating.step_level(3)
    settle()
    problems += unfit(app, f"{size} seating/chan changed")
    seating.play()  # the pass-and-play game above is saved, in progress: Play asks first
    settle()
    assert seating.asking
    problems += unfit(app, f"{size} seating's question before the saved game is lost")
    seating.answer_question(False)  # kept: home again
    settle()
    app.open_deal(app.services.store.recent_deals()[0]["id"])
    settle()
    problems += unfit(app, f"{size} replay viewer")
    return problems


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "720x1280"])
def test_every_button_row_fits_in_every_language(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(size=size, pace=0, store=MemoryStore(),
                   kiosk=KioskSettings(enabled=True, exit_pin="1234"),
                   power=PowerSettings(enabled=True))
    problems = tables(app, size)
    problems += screens(app, size)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "720x1280"])
def test_the_seating_with_phones_fits_in_every_language(make_app: Any,
                                                         size: tuple[int, int]) -> None:
    """Two phone seats with the server running: each says its stand-in AI level on its button,
    the sentence beside Play says it in words, and no text on the screen is cut."""
    from tests.ui.test_seating import loopback

    app = make_app(size=size, pace=0, store=MemoryStore(), network=loopback())
    app.open_seating("tractor")
    seating = app.root.get_screen("seating")
    for seat in (1, 3):
        seating.step_kind(seat)  # AI -> this screen
        seating.step_kind(seat)  # -> phone
    seating.step_level(3)
    settle()
    assert seating.phones is not None and seating.phones.listening and seating.qr_matrix
    problems = unfit(app, f"{size} seating with phones")
    for lang in LANGUAGES:  # and no text of it cut (the panel's, the stand-in's beside Play)
        app.set_language(lang)
        pump(4)
        problems += [f"{lang} {size} seating with phones: {p}" for p in cut_labels(seating)]
    app.set_language("en")
    seating.stop_phones()
    assert not problems, "\n".join(problems)
