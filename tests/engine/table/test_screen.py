"""The pass-and-play policy of one screen (engine/table/screen.py), without Kivy.

A shared screen shows one seat's hand at a time, and only once that seat's player has taken
it: whenever another seat of the screen is to act, or a new deal starts, it must be covered
first. Checked over whole deals played through the table, and over any order of turns.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine import registry
from engine.ai.bots import make_bot
from engine.table import BotSeat, DealPosition, LocalSeat, Table
from engine.table.screen import ScreenTurns


def test_one_seat_at_the_screen_is_never_covered() -> None:
    turns = ScreenTurns()
    turns.seat([0])
    assert turns.hand_shown() and not turns.needs_cover(0)
    turns.new_deal()  # nobody else can look: the hand stays shown
    assert turns.hand_shown() and not turns.needs_cover(0)
    assert not turns.needs_cover(1) and not turns.needs_cover(None)


def test_no_seat_at_the_screen_shows_no_hand() -> None:
    turns = ScreenTurns()
    turns.seat([])
    assert not turns.hand_shown()
    assert not any(turns.needs_cover(seat) for seat in range(4))


def test_a_shared_screen_starts_covered_and_is_covered_for_each_other_player() -> None:
    turns = ScreenTurns()
    turns.seat([2, 0])
    assert turns.viewer == 0 and not turns.hand_shown()
    assert turns.needs_cover(0)  # even the first seat's player must take the screen first
    assert not turns.take(0) and turns.hand_shown() and not turns.needs_cover(0)
    assert turns.needs_cover(2)
    turns.covered()
    assert turns.take(2) and turns.viewer == 2 and turns.hand_shown()
    turns.new_deal()
    assert not turns.hand_shown() and turns.needs_cover(2)


def test_a_whole_deal_through_the_table_covers_at_each_change_of_player() -> None:
    """Tractor with seats 0 and 2 at one screen (partners), bots at 1 and 3: the screen is
    covered exactly when the seat to act is a screen seat whose hand is not shown."""
    game = registry.get("tractor")
    rng = random.Random(5)
    local = (0, 2)
    seats = [LocalSeat() if seat in local else BotSeat(make_bot("tractor", "heuristic", seed=seat))
             for seat in range(game.players)]
    table = Table(DealPosition(game.new_deal(5)), seats)
    turns = ScreenTurns()
    turns.seat(local)
    covers = changes = 0
    shown: int | None = None
    while not table.state.is_over:
        if table.step():
            continue
        seat = table.state.to_act
        assert seat in local
        if turns.needs_cover(seat):
            covers += 1
            turns.covered()
            assert not turns.hand_shown()
            turns.take(seat)
        assert turns.hand_shown() and turns.viewer == seat
        changes += seat != shown
        shown = seat
        table.play(seat, rng.choice(list(table.state.legal_actions())))
    assert covers == changes > 1  # once per change of player, the first turn included


@given(st.lists(st.integers(0, 3), max_size=60), st.sets(st.integers(0, 3)))
def test_the_hand_shown_is_always_the_last_taken_and_uncovered(order: list[int],
                                                               local: set[int]) -> None:
    turns = ScreenTurns()
    turns.seat(local)
    taken: int | None = sorted(local)[0] if len(local) == 1 else None
    for seat in order:
        if seat not in local:
            assert not turns.needs_cover(seat)
            continue
        assert turns.needs_cover(seat) == (taken != seat)
        if turns.needs_cover(seat):
            turns.covered()
            turns.take(seat)
            taken = seat
        assert turns.hand_shown() and turns.viewer == seat
