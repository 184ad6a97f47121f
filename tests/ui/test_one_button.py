"""A one-button player (OK alone, the kiosk's big button) at every table: OK pressed over
and over, at any moment, never leaves the table (issue 31: the booted kiosk, played by touch
and one key, went home at the end of a Meri deal; Chắn's first OK, while its hand was being
dealt, did the same)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.ui.uitools import pump

pytestmark = pytest.mark.ui


def ok_storm(app: Any, table: Any, game: str, seconds: float, until_next_deal: bool = False,
             until_actions: int = 0) -> bool:
    """OK every frame; the table must stay. Stops at the second deal (`until_next_deal`) or
    once `until_actions` actions are in the record; `seconds` only bounds a table that stopped
    (the AI decides in a worker, in real time: how many frames an action takes depends on the
    machine's load, so the bound is time, not frames). True if the focus rested nowhere at
    some point."""
    rested = False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.post_input("OK")
        pump(1)
        assert app.root.current == game, (
            f"an OK at action {len(table.session.record.actions)} left the table "
            f"(summary open: {table.summary_open})")
        rested = rested or (table.resting() and table.focused_widget is None)
        if until_next_deal and table.session.deals_done >= 1 and not table.summary_open:
            return rested
        if until_actions and len(table.session.record.actions) >= until_actions:
            return rested
    raise AssertionError(f"OK alone did not go on at the {game} table (at action "
                         f"{len(table.session.record.actions)} after {seconds} s)")


def test_ok_alone_plays_a_meri_deal_and_the_next_never_leaving(make_app: Any) -> None:
    """OK pressed every frame — during the others' turns, after the player's last card, while
    the last trick and the summary come — answers each decision with its focused start and
    goes on to the next deal. (The focus fell on Menu when the hand emptied: OK left the
    table, and on the home screen two more OKs started a new game over the saved one.)"""
    app = make_app(pace=0.05)
    app.new_game("meri")
    assert ok_storm(app, app.root.get_screen("meri"), "meri", 300, until_next_deal=True)


@pytest.mark.parametrize("game", ["tractor", "chan"])
def test_ok_at_any_moment_never_leaves_the_table(make_app: Any, game: str) -> None:
    """From the deal's first frame (a Chắn hand still being dealt: nothing for OK to act on,
    the focus rests nowhere) through the first tricks or turns. (Following a Tractor pair
    takes an arrow: OK picks one card, then the focused one again.)"""
    app = make_app(pace=0.05)
    app.new_game(game)
    table = app.root.get_screen(game)
    ok_storm(app, table, game, 300, until_actions=9)


def test_an_arrow_starts_the_resting_focus_again(make_app: Any) -> None:
    """Resting nowhere is not a trap: an arrow key puts the focus back on the screen, from
    where the player may walk to Menu on purpose."""
    app = make_app(pace=0.05)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    deadline = time.monotonic() + 300  # the AI decides in a worker, in real time: a loaded
    while True:  # machine runs many frames per decision, so the bound is time, not frames
        app.post_input("OK")
        pump(1)
        if table.resting() and table.focused_widget is None:
            break
        if time.monotonic() > deadline:
            raise AssertionError("the focus never rested nowhere")
    app.post_input("RIGHT")
    pump(1)
    assert table.focused_widget is not None and app.root.current == "meri"
