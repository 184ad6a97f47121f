"""The Tractor table (issue 7 items 1 and 4): whole deals by touch and by button events (bidding,
the kitty and the bury, 25 tricks, the summary), live selection feedback with rule ids in words
(T-16, T-18, T-19, T-20), only the declarations you can make (T-8, T-9), and the view helpers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.ai.bots import make_bot
from engine.tractor import DECLARE, PASS
from engine.tractor.cards import CODES, RJ
from tests.ui.tablesim import (
    assert_resumes_same_position,
    focus_on,
    human_turn,
    start_deal,
    tap_card,
    tractor_dealer_deal,
    wait_turn,
)
from tests.ui.uitools import pump, tap, wait_for
from ui import card_names
from ui.table import summary, tractor_view
from ui.table.base import CARD_FIELDS
from ui.table.reasons import REASONS

pytestmark = pytest.mark.ui


def picks_for(table: Any, kinds: tuple[int, ...]) -> list[int]:
    """Hand indexes showing `kinds` (two identical cards take two indexes)."""
    out: list[int] = []
    for k in kinds:
        out.append(next(i for i, kind in enumerate(table.cards) if kind == k and i not in out))
    return out


def choose(table: Any, bot: Any) -> Any:
    state = table.session.state
    action = bot.choose(state.observation(0), state.legal_actions())
    if table.prompt == "declare" and action == PASS and len(table.choice_actions) > 1:
        action = table.choice_actions[-1]  # declare when you can: you deal and bury
    return action


def choice_button(table: Any, action: Any) -> Any:
    buttons = list(reversed(table.ids.choices.children))
    return buttons[table.choice_actions.index(action)]


def play_deal(app: Any, table: Any, by_buttons: bool) -> dict[str, int]:
    bot = make_bot(registry.get("tractor").name, "heuristic", 3)
    seen = {"declare": 0, "bury": 0, "play": 0}
    while True:
        wait_turn(table)
        if table.summary_open:
            return seen
        before = len(table.session.record.actions)
        action = choose(table, bot)
        seen[table.prompt] += 1
        if table.prompt == "declare":
            assert table.choice_actions == list(table.session.state.legal_actions())
            button = choice_button(table, action)
            if by_buttons:
                focus_on(app, table, button)
                app.handle_input("OK")
            else:
                tap(button)
        else:
            cards = action[1:] if table.prompt == "bury" else action
            indexes = picks_for(table, cards)
            if table.prompt == "bury":
                assert len(table.cards) == 33 and len(table.ids.hand.hinted) == 8
            for n, i in enumerate(indexes):
                if by_buttons:
                    focus_on(app, table, table.ids.hand.views[i])
                    app.handle_input("OK" if n == len(indexes) - 1 else "SELECT")
                else:
                    tap_card(table.ids.hand, i)
            if not by_buttons:
                assert sorted(table.picked) == sorted(indexes)
                assert table.feedback_ok, table.feedback
                tap(table.ids.play_button)
        pump(1)
        assert len(table.session.record.actions) > before, (table.prompt, table.message)


@pytest.mark.parametrize(("by_buttons", "size"), [(False, (800, 480)), (True, (800, 480)),
                                                   (False, (720, 1280))],
                         ids=["touch", "buttons", "touch-portrait-two-rows"])
def test_whole_deal_with_bidding_bury_and_all_25_cards(
        make_app: Any, by_buttons: bool, size: tuple[int, int]) -> None:
    app = make_app(size=size, pace=0)
    table = start_deal(app, "tractor", tractor_dealer_deal())
    seen = play_deal(app, table, by_buttons)
    state = table.session.state
    assert state.is_over and sum(len(plays[0]) for _l, plays, _w in state.tricks) == 25
    assert seen["declare"] >= 1 and seen["bury"] == 1 and seen["play"] == len(state.tricks)
    text = table.summary_text
    for part in ("wins the deal.", "Kitty:", "Attackers' total", "Next dealer", "level"):
        assert part in text, text
    assert table.session.match.result().deals_played == 1
    tap(table.ids.next_button)
    assert not table.summary_open and not table.session.state.is_over


def test_selection_feedback_names_plays_and_rules(make_app: Any) -> None:
    """T-16 (lead format), T-18 (count), T-19 (suit), T-20 (pairs) in words, live."""
    app = make_app(pace=0)
    table = start_deal(app, "tractor", tractor_dealer_deal())
    bot = make_bot(registry.get("tractor").name, "heuristic", 1)
    session = table.session
    table.driver.invalidate()
    while not (session.state.phase == "play" and session.state.to_act == 0):
        state = session.state
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        session.apply(action)
    table.step()
    wait_for(lambda: human_turn(table), what="your lead")
    assert table.prompt == "play" and len(table.cards) == 25
    ctx = session.state.ctx
    a, b = 0, len(table.cards) - 1
    assert ctx.eff[table.cards[a]] != ctx.eff[table.cards[b]]  # a plain card and a trump
    tap_card(table.ids.hand, a)
    assert table.feedback_ok and "single" in table.feedback
    tap_card(table.ids.hand, b)
    assert not table.feedback_ok
    assert table.feedback == REASONS["T-16"]
    actions = len(session.record.actions)
    tap(table.ids.play_button)
    assert table.alert and table.message == REASONS["T-16"]
    assert len(session.record.actions) == actions and session.state.to_act == 0
    table.clear_picks()
    pairs = [i for i in range(len(table.cards) - 1) if table.cards[i] == table.cards[i + 1]]
    if pairs:
        tap_card(table.ids.hand, pairs[0])
        tap_card(table.ids.hand, pairs[0] + 1)
        assert table.feedback_ok and "pair" in table.feedback


def test_declarations_offered_are_exactly_the_legal_ones(make_app: Any) -> None:
    """T-8/T-9: only declarations you can make are buttons; pass is always there."""
    app = make_app(pace=0)
    state = tractor_dealer_deal()
    table = start_deal(app, "tractor", state)
    wait_turn(table)
    assert table.prompt == "declare"
    assert table.choice_actions[0] == PASS
    for action in table.choice_actions[1:]:
        assert action[0] == DECLARE
    labels = [b.text for b in reversed(table.ids.choices.children)]
    assert labels[0] == "Pass" and len(labels) == len(table.choice_actions)


def test_hand_order_groups_trumps_together() -> None:
    """T-13/T-14: plain suits strongest first, then every trump (jokers, level cards) together."""
    state = tractor_dealer_deal()
    counts = state.hands[0][:]
    counts[RJ] = 1
    kinds, breaks = tractor_view.hand_order(counts, 0, 1)  # level 2, hearts trump
    from engine.tractor.cards import context

    ctx = context(0, 1)
    trumps = [i for i, k in enumerate(kinds) if ctx.eff[k] == 4]
    assert trumps == list(range(len(kinds) - len(trumps), len(kinds)))
    assert kinds[trumps[0]] == RJ
    assert all(i in breaks or i == 0 for i in (trumps[0],))
    suits = [ctx.eff[k] for k in kinds]
    assert suits == sorted(suits, key=lambda s: (4 if s == 4 else s))


def test_summary_explains_kitty_multiplier_and_levels() -> None:
    """T-25..T-27: the summary names the kitty, its multiplier, the level change, next dealer."""
    game = registry.get("tractor")
    state = game.new_deal(11)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(state.random_action(rng))
    def by_name(key: str, value: Any) -> Any:  # as the table shows the lines (TableScreen)
        return card_names.codes_text("tractor", value) if key in CARD_FIELDS else value

    text = "\n".join(summary.result_lines(game.deal_result(state), None, by_name))
    assert "Kitty: " + tractor_view.cards_text(state.kitty) in text
    assert "Next dealer" in text
    last_winner = state.tricks[-1][2]
    if last_winner % 2 != state.dealer % 2:
        assert f"× {2 * len(state.tricks[-1][1][0])}" in text
    else:
        assert "the kitty scores nothing" in text
    assert CODES[0] == "RJ"


def test_resumed_game_shows_the_same_position(make_app: Any) -> None:
    """The autosave after every action resumes on the table at the same decision."""
    assert_resumes_same_position(make_app, "tractor", "cards")


def test_match_ends_past_ace_with_a_new_match_button(make_app: Any) -> None:
    """T-2 / D-1: a team promoted past A wins the match; the summary says so, offers a new one."""
    from engine.records import GameRecord
    from engine.session import Session
    from engine.tractor.match import TractorMatch
    from tests.ui.tablesim import finish_with_bots

    app = make_app(pace=0)
    game = registry.get("tractor")
    table = app.root.get_screen("tractor")
    for seed in range(20):
        match = TractorMatch(random.Random(seed), levels=(12, 12), dealer=0)
        record = GameRecord.deal(game, seed=0, state=match.next_deal())
        app.session = Session(game, match, record, save=app.save)
        app.sessions.open_table("tractor")
        pump(2)
        finish_with_bots(table, seed)
        if match.is_over:
            break
    assert match.is_over and table.match_over
    assert table.ids.next_button.text == "New match"
    assert "wins the match" in table.summary_text
    assert app.services.store.load_autosave() in (None, "")
