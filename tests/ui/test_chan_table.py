"""The Chắn table (issue 7 items 2 and 4): whole deals by touch and by button events, prompts
offering only legal choices with refusals in words (C-…, X-…), win and Chíu offers in a banner
(W-1, K-1), waiting cards, and the summary's bonuses with main value / dịch (S-2…S-5)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ai.bots import make_bot
from engine.chan import scoring
from engine.chan.cards import FACE_OF, RANK
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
from engine.errors import IllegalAction
from tests.ui.tablesim import (
    assert_resumes_same_position,
    focus_on,
    start_deal,
    tap_card,
    wait_turn,
)
from tests.ui.uitools import pump, tap, wait_for
from ui.card_names import chan_name
from ui.table.reasons import REASONS

pytestmark = pytest.mark.ui


def act(app: Any, table: Any, action: int, by_buttons: bool) -> None:
    """Do `action` for the human with taps or with button events only."""
    if table.prompt == "offer":
        button = table.ids.accept_button if action in (WIN, CHIU) else table.ids.decline_button
        if by_buttons:
            focus_on(app, table, button)
            app.handle_input("OK")
        else:
            tap(button)
        return
    if action == PASS:
        if by_buttons:
            focus_on(app, table, table.ids.pass_button)
            app.handle_input("OK")
        else:
            tap(table.ids.pass_button)
        return
    face = action if action < DISCARD_BASE else action - DISCARD_BASE
    index = table.cards.index(face)
    assert index in table.legal
    if by_buttons:
        focus_on(app, table, table.ids.hand.views[index])
        app.handle_input("SELECT")
        assert table.picked == [index]
        app.handle_input("OK")
    else:
        tap_card(table.ids.hand, index)
        assert table.picked == [index]
        tap(table.ids.act_button)


def play_deal(app: Any, table: Any, by_buttons: bool) -> dict[str, int]:
    bot = make_bot(registry.get("chan").name, "heuristic", 5)
    seen = {"capture": 0, "discard": 0, "offer": 0}
    while True:
        wait_turn(table)
        if table.summary_open:
            return seen
        state = table.session.state
        legal = state.legal_actions()
        # only legal choices are offered: lit cards are exactly the legal captures/discards
        faces = {a if a < DISCARD_BASE else a - DISCARD_BASE for a in legal if a < PASS}
        assert {table.cards[i] for i in table.legal} == faces
        seen[table.prompt] += 1
        before = len(table.session.record.actions)
        act(app, table, bot.choose(state.observation(0), legal), by_buttons)
        pump(1)
        assert len(table.session.record.actions) > before, (table.prompt, table.message)


@pytest.mark.parametrize("by_buttons", [False, True], ids=["touch", "buttons"])
def test_whole_deal(make_app: Any, by_buttons: bool) -> None:
    app = make_app(pace=0)
    game = registry.get("chan")
    table = start_deal(app, "chan", game.new_deal(21 if by_buttons else 4))
    seen = play_deal(app, table, by_buttons)
    assert table.session.state.is_over
    assert seen["discard"] >= 1 and seen["capture"] >= 1
    text = table.summary_text
    deal = table.session.game.deal_result(table.session.state)
    if deal.winners:
        assert "won (Ù)" in text and ("Score:" in text or "Ù xuông" in text)
        assert "wins the deal." in text or "You win the deal." in text
        assert "Receives " in text and "Pays " in text
        body = table.ids.summary_body
        body.finish()
        hands = [t for t in body.children if getattr(t, "codes", None)]
        assert hands and len(hands[-1].codes) == 20  # the winning hand, first of the cards
    else:
        assert "the deal is drawn" in text
    # A sitting of several deals (issue 33): the match goes on after the first
    assert not app.session.match.is_over and not table.match_over
    assert table.ids.next_button.text == "Next deal"


def find_offer(kind: str) -> tuple[Any, list[int]]:
    """A deal and actions (heuristic bots everywhere) up to an offer of `kind` to seat 0."""
    game = registry.get("chan")
    for seed in range(400):
        state = game.new_deal(seed)
        bots = [make_bot(game.name, "heuristic", seed * 4 + s) for s in range(4)]
        actions: list[int] = []
        while not state.is_over:
            if state.to_act == 0 and state.phase == kind:
                return game.new_deal(seed), actions
            action = bots[state.to_act].choose(state.observation(state.to_act),
                                               state.legal_actions())
            actions.append(action)
            state.apply(action)
    raise AssertionError(f"no {kind} found")


def open_at(app: Any, kind: str) -> Any:
    deal, actions = find_offer(kind)
    table = start_deal(app, "chan", deal, actions)
    wait_turn(table)
    return table


def test_win_offer_interrupts_in_a_banner_and_wins(make_app: Any) -> None:
    """W-1: a stock card that completes your hand is offered as Ù in a banner; OK wins."""
    app = make_app(pace=0)
    table = open_at(app, "win_offer")
    assert table.prompt == "offer" and table.offer == "win_offer"
    assert table.ids.offer_panel.opacity == 1 and "Win (Ù)?" in table.offer_text
    assert table.focused_widget is table.ids.accept_button.__ref__()
    app.handle_input("OK")
    wait_for(lambda: table.summary_open, what="the summary")
    result = table.session.state.result
    assert result["winner"] == 0
    text = table.summary_text
    assert text.split("\n")[1:3] == ["Deal 1 of 4", "[b]You win the deal.[/b]"]
    assert "You won (Ù)" in text
    for name in result["bonuses"]:
        main, dich = scoring.BONUS_VALUES[name]
        assert f"{name}: {main} / {dich}" in text
    score = result["score"]
    assert f"You: Receives {3 * score}: {score} from each of the three others" in text
    assert f"AI 1: Pays {score} to You" in text


def test_chiu_offer_and_waiting_cards(make_app: Any) -> None:
    """K-1: holding three of the open card's face, Chíu is offered; declining keeps playing."""
    app = make_app(pace=0)
    table = open_at(app, "chiu_offer")
    assert table.offer == "chiu_offer" and "Chíu" in table.offer_text
    assert table.ids.accept_button.text == "Chíu"
    before = len(table.session.record.actions)
    tap(table.ids.decline_button)
    assert len(table.session.record.actions) == before + 1
    assert table.offer == "" or table.session.state.to_act == 0


def test_illegal_card_is_explained_with_the_rule(make_app: Any) -> None:
    """X-1: tapping a card of a pair at a discard says why it may not go; nothing is played."""
    app = make_app(pace=0)
    game = registry.get("chan")
    replay = game.new_deal(4)
    actions = []
    while not (replay.to_act == 0 and replay.phase == "discard"):
        legal = replay.legal_actions()
        actions.append(legal[-1] if replay.phase == "discard" else legal[0])
        replay.apply(actions[-1])
    table = start_deal(app, "chan", game.new_deal(4), actions)
    wait_turn(table)
    assert table.prompt == "discard"
    paired = [i for i in range(len(table.cards)) if i not in table.legal]
    assert paired, "the hand holds a pair"
    before = len(table.session.record.actions)
    tap_card(table.ids.hand, paired[0])
    assert table.alert and REASONS["X-1"] in table.message
    assert len(table.session.record.actions) == before


def test_waiting_faces() -> None:
    """A hand one card from winning lists its waits (the hand's order: tests/engine/test_hand_order.py)."""
    hand = [0] * 25
    for code in ["2M"] * 2 + ["3M"] * 2 + ["4M"] * 2 + ["5M"] * 2 + ["6M"] * 2 + ["7M"] * 2 + [
            "8S", "8C", "9S", "9C", "2S", "2C", "5S"]:
        hand[FACE_OF[code]] += 1
    waits = scoring.waiting_faces(hand, ())
    assert FACE_OF["5S"] in waits and FACE_OF["5C"] in waits and FACE_OF["4S"] not in waits


def test_resumed_game_shows_the_same_position(make_app: Any) -> None:
    """The autosave after every action resumes on the table at the same decision."""
    assert_resumes_same_position(make_app, "chan", "cards")


def blocked_capture() -> tuple[Any, list[Any], int, str]:
    """A heuristic-played deal up to your turn where you hold a card matching the open card
    (the same face, or the same rank for a Cạ) but may only pass: (the deal, the actions
    so far, that card, the rule the engine refuses its capture with)."""
    game = registry.get("chan")
    for seed in range(300):
        state, actions = game.new_deal(seed), []
        bots = [make_bot(game.name, "heuristic", seed * 4 + s) for s in range(4)]
        while not state.is_over:
            obs = state.observation(0)
            if (state.to_act == 0 and state.phase in ("respond", "own_card")
                    and state.legal_actions() == [PASS]):
                for face in range(len(obs.hand)):
                    same_rank = 0 not in (face, obs.open_card) and RANK[face] == RANK[obs.open_card]
                    if obs.hand[face] and (face == obs.open_card or same_rank):
                        try:
                            state.clone().apply(face)
                        except IllegalAction as exc:
                            return game.new_deal(seed), actions, face, exc.rule
            action = bots[state.to_act].choose(obs if state.to_act == 0
                                               else state.observation(state.to_act),
                                               state.legal_actions())
            actions.append(action)
            state.apply(action)
    raise AssertionError("no blocked capture found")


def test_no_capture_prompt_says_which_rule_blocks_it(make_app: Any) -> None:
    """C-15…C-22: when you hold a matching card but may not capture, the prompt names the card
    and the rule, word for word, under the pass prompt."""
    deal, actions, face, rule = blocked_capture()
    assert rule[0] in "CX" and rule != "C-6"  # a matching card, refused by a finer rule
    app = make_app(pace=0)
    table = start_deal(app, "chan", deal, actions)
    wait_turn(table)
    obs = table.session.state.observation(0)
    assert table.prompt == "capture" and table.legal == []
    whose = "you revealed" if obs.open_owner == 0 else f"in AI {obs.open_owner}'s gate"
    card = chan_name(obs.open_card)  # by name: "7 Văn" (ui.card_names), never "7C"
    assert table.message == (f"Open card {card} ({whose}): you cannot capture it. Pass.\n"
                             f"{chan_name(face)}: {REASONS[rule]}")
