"""Match length (issue 33): chosen per game in the settings, shown and changed on the seating
screen before Play (touch, or arrows and OK), started with, kept as the game's setting, and
said on the summary ("Deal 1 of 4"). A Chắn match is no longer one deal: after its first deal
the summary offers the next deal and draws the running settlement across deals (S-5)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.tablesim import finish_with_bots, focus_on, wait_turn
from tests.ui.uitools import cut_labels, pump, settle, tap, wait_for
from ui.ports import MemoryStore

pytestmark = pytest.mark.ui


def open_seating(app: Any, game: str) -> Any:
    tap(app.root.get_screen("home").ids[f"tile_{game}"].ids.seats)  # home's Seats
    settle()
    assert app.root.current == "seating"
    return app.root.get_screen("seating")


def test_each_game_has_its_length_in_the_settings_chosen_by_arrows_and_ok(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store, size=(720, 1280))
    app.go("settings")
    settle()
    settings = app.root.get_screen("settings")
    assert settings.ids.deals_meri_8.selected  # H-3's 8 deals by default
    assert settings.ids.deals_tractor_0.selected  # T-2: to A
    assert settings.ids.deals_chan_4.selected
    assert [settings.ids[f"deals_tractor_{n}"].text for n in (0, 4, 8)] == [
        "To Ace", "4 deals", "8 deals"]
    assert settings.ids.deals_chan_1.text == "1 deal"
    focus_on(app, settings, settings.ids.deals_meri_12)  # arrows only
    app.handle_input("OK")
    pump(2)
    assert app.match_length("meri") == 12 and store.get_setting("meri_deals") == 12
    assert settings.ids.deals_meri_12.selected and not settings.ids.deals_meri_8.selected
    tap(settings.ids.deals_chan_8)
    assert app.match_length("chan") == 8 and store.get_setting("chan_deals") == 8
    app.set_language("vi")
    pump(3)
    assert settings.ids.deals_chan_8.text == "8 ván"
    assert not cut_labels(settings), cut_labels(settings)
    app.set_language("en")


def test_the_config_starts_the_lengths_and_the_players_choice_wins(make_app: Any) -> None:
    """`[game] <game>_deals` are the starting lengths; a length chosen in the app wins; a
    stored value that is not one of the game's lengths is not used."""
    store = MemoryStore()
    lengths = {"meri": 4, "chan": 1}
    app = make_app(store=store, match_lengths=lengths)
    assert (app.match_length("meri"), app.match_length("tractor"),
            app.match_length("chan")) == (4, 0, 1)
    store.set_setting("meri_deals", 12)
    store.set_setting("chan_deals", 999)
    app = make_app(store=store, match_lengths=lengths)
    assert app.match_length("meri") == 12 and app.match_length("chan") == 4


def test_the_seating_shows_the_length_and_its_button_steps_it_before_play(make_app: Any) -> None:
    """OK on Play starts today's length; LEFT from Play, OK steps it; the match started has
    the chosen length, and the next seating shows it again (it is the game's setting)."""
    app = make_app(pace=0)
    seating = open_seating(app, "meri")
    button = seating.ids.length_button
    assert button.text == "Match: 8 deals"
    assert seating.focused_widget == seating.ids.play_button
    app.handle_input("LEFT")
    pump(2)
    assert seating.focused_widget == button.__self__
    app.handle_input("OK")
    pump(2)
    assert button.text == "Match: 12 deals" and app.match_length("meri") == 12
    tap(seating.ids.play_button)
    pump(3)
    assert app.root.current == "meri" and app.session.match.length == 12
    assert app.root.get_screen("meri").deal_text == "Deal 1 of 12"
    app.go("home")
    settle()
    seating = open_seating(app, "tractor")
    assert seating.focused_widget == seating.ids.play_button  # not the length pressed before
    assert seating.ids.length_button.text == "Match: to Ace"
    tap(seating.ids.length_button)
    assert seating.ids.length_button.text == "Match: 4 deals"
    app.set_language("vi")
    pump(3)
    assert seating.ids.length_button.text == "Trận: 4 ván"
    app.set_language("en")


def test_a_chan_match_goes_on_and_its_summary_says_the_deal_and_charts_the_totals(
        make_app: Any) -> None:
    """Today's Chắn match was one deal: the summary offered New match and never drew the
    running settlement. Now a sitting of 4: "Deal 1 of 4", Next deal, the chart."""
    app = make_app(pace=0)
    app.new_game("chan")
    table = app.root.get_screen("chan")
    assert app.session.match.length == 4
    wait_turn(table)
    finish_with_bots(table)
    assert not table.match_over and table.ids.next_button.text == "Next deal"
    body = table.ids.summary_body
    wait_for(body.ready, 20, "the pictures")
    settle()
    title = list(reversed(body.children))[0]
    assert title.deal_text == "Deal 1 of 4"
    assert body.chart is None  # one deal: the standing in words, no chart of stubs (issue 35)
    assert "Deal 1 of 4" in table.summary_text
    table.next_deal()
    pump(3)
    assert app.session.deals_done == 1 and not app.session.state.is_over
    wait_turn(table)
    finish_with_bots(table)
    wait_for(body.ready, 20, "the pictures")
    settle()
    assert body.chart is not None and body.chart.deals_total == 4
    assert [len(line) for line in body.chart.series] == [3] * 4  # zero, deal 1, deal 2


def test_a_phone_seating_match_takes_the_length_chosen_before_play(make_app: Any) -> None:
    """The phone server's match is made when a seat becomes a phone; a length chosen after
    that is the one the match is played with."""
    from tests.ui.test_seating import loopback

    app = make_app(pace=0, network=loopback())
    seating = open_seating(app, "chan")
    tap(seating.rows[1].kind_button)  # AI -> this screen
    tap(seating.rows[1].kind_button)  # -> phone: the server starts with its match
    settle()
    assert seating.phones is not None and seating.phones.session.match.length == 4
    tap(seating.ids.length_button)  # 4 -> 8
    tap(seating.ids.play_button)
    pump(3)
    assert app.root.current == "chan"
    assert app.session.match.length == 8
    assert '"deals":8' in app.services.store.load_autosave()
    app.close_phones()
