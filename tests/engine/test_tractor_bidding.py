"""Declaring trump and the kitty (T-6..T-12, T-15, T-28 for declarations, D-2), record-built."""

from __future__ import annotations

import random

import pytest

from engine.errors import MalformedRecord
from engine.tractor.cards import NT, SUITS
from tests.engine.test_tractor_support import GAME, bury_kitty, error_rule, layout, run, state_after


def test_T8_declaration_forms():
    lay = layout({0: "2H 2H 3H BJ BJ RJ"})
    assert error_rule(lay, ["declare 3H"]) == "T-8"  # not the level rank
    assert error_rule(lay, ["declare BJ"]) == "T-8"  # a single joker
    assert error_rule(lay, ["declare 2H BJ"]) == "T-8"
    assert error_rule(lay, ["declare 2H 2H 2H"]) == "T-8"
    assert error_rule(lay, ["declare 2H"]) is None
    assert error_rule(lay, ["declare 2H 2H"]) is None
    assert error_rule(lay, ["declare BJ BJ"]) is None


def test_T9_overcalls_must_be_strictly_stronger():
    lay = layout({0: "2H RJ RJ", 1: "2S 2S", 2: "2C 2C 2D", 3: "BJ BJ"})
    start = ["declare 2H"]
    assert error_rule(lay, start + ["declare 2S"]) == "T-9"  # single over single
    assert error_rule(lay, start + ["declare 2S 2S"]) is None  # pair over single
    pair = start + ["declare 2S 2S"]
    assert error_rule(lay, pair + ["declare 2C 2C"]) == "T-9"  # equal strength: forbidden
    assert error_rule(lay, pair + ["declare 2D"]) == "T-9"
    jokers = pair + ["pass", "declare BJ BJ"]
    assert error_rule(lay, jokers) is None
    assert error_rule(lay, jokers + ["declare RJ RJ"]) is None  # Red pair over Black pair
    state = state_after(lay, jokers + ["declare RJ RJ", "pass", "pass", "pass"])
    assert state.phase == "bury" and state.trump == NT and state.dealer == 0


def test_T9_level_pair_cannot_overcall_joker_pair():
    lay = layout({0: "BJ BJ", 1: "2S 2S"})
    assert error_rule(lay, ["declare BJ BJ", "declare 2S 2S"]) == "T-9"


def test_T28_declaration_check_order_form_held_strength():
    lay = layout({0: "2H 2H", 1: "2S"}, exclude={1: "CDJ"})
    # bad form and not held: the form (T-8) is reported
    assert error_rule(lay, ["declare 2H 2H", "declare 3C 3C"]) == "T-8"
    # good form, not held and too weak: held comes before strength
    assert error_rule(lay, ["declare 2H 2H", "declare 2C 2C"]) == "held"
    # good form, held, too weak: T-9
    assert error_rule(lay, ["declare 2H 2H", "declare 2S"]) == "T-9"
    # a play or a burial during the bidding is a turn error
    assert error_rule(lay, ["2H"]) == "turn"
    assert error_rule(lay, ["bury " + " ".join(["2H"] * 8)]) == "turn"


def test_T10_three_passes_after_a_declaration_end_bidding():
    lay = layout({1: "2D"})
    state = state_after(lay, ["pass", "declare 2D", "pass", "pass"])
    assert state.phase == "declare" and state.to_act == 0
    state = state_after(lay, ["pass", "declare 2D", "pass", "pass", "pass"])
    assert state.phase == "bury" and state.to_act == 0 and SUITS[state.trump] == "D"


def test_T10_a_player_who_passed_may_declare_later():
    lay = layout({0: "2S 2S", 1: "2H"})
    state = state_after(lay, ["pass", "declare 2H", "pass", "pass", "declare 2S 2S",
                              "pass", "pass", "pass"])
    assert state.phase == "bury" and SUITS[state.trump] == "S" and state.dealer == 0


def test_T10_all_pass_turns_up_the_kitty_first_non_joker_suit():
    lay = layout(kitty="BJ RJ 7C AD 3S 4S 5S 6S", dealer=2, levels=("4", "3"))
    status, out = run(lay, ["pass"] * 4)
    assert status == 0 and out["phase"] == "bury" and out["to_act"] == 2  # dealer unchanged
    state = state_after(lay, ["pass"] * 4)
    assert SUITS[state.trump] == "C" and state.dealer == 2
    assert state.observation(1).revealed == state.kitty  # turned up: public


def test_T10_bidding_needs_four_passes_without_a_declaration():
    lay = layout()
    assert state_after(lay, ["pass"] * 3).phase == "declare"


def test_T11_first_declarer_deals_even_if_overcalled():
    lay = layout({3: "2H", 0: "2S 2S"}, dealer=None, bid_start=2)
    state = state_after(lay, ["pass", "declare 2H", "declare 2S 2S", "pass", "pass", "pass"])
    assert state.dealer == 3 and SUITS[state.trump] == "S"
    assert state.phase == "bury" and state.to_act == 3
    result = GAME.layout_of(state)
    assert result["dealer"] is None and result["bid_start"] == 2


def test_D2_nobody_declares_first_deal_bid_start_deals():
    lay = layout(dealer=None, bid_start=1)
    state = state_after(lay, ["pass"] * 4)
    assert state.dealer == 1 and state.to_act == 1 and state.phase == "bury"


def test_D2_first_bidder_drawn_from_the_seeded_rng():
    for seed in range(20):
        state = GAME.new_deal(seed)
        assert state.bid_start == random.Random(seed).randrange(4)
        assert state.to_act == state.bid_start and state.dealer == -1
    lay = layout(dealer=None)
    assert GAME.from_layout(lay, 7).bid_start == random.Random(7).randrange(4)


def test_T7_level_rank_is_the_dealer_team_level():
    lay = layout({1: "9H 5H"}, levels=("5", "9"), dealer=1)
    assert error_rule(lay, ["declare 5H"]) == "T-8"
    assert error_rule(lay, ["declare 9H"]) is None
    lay0 = layout({0: "9H 5H"}, levels=("5", "9"), dealer=0)
    assert error_rule(lay0, ["declare 5H"]) is None


def test_T6_T4_layout_counts_are_validated():
    good = layout()
    bad = dict(good, hands=[good["hands"][0][:-1]] + good["hands"][1:])
    with pytest.raises(MalformedRecord, match="25 cards"):
        GAME.from_layout(bad, 0)
    short_kitty = dict(good, kitty=good["kitty"][:7])
    with pytest.raises(MalformedRecord, match="8 cards"):
        GAME.from_layout(short_kitty, 0)
    kitty = list(good["kitty"])
    kitty[0] = next(c for c in good["hands"][0] if c != kitty[0])
    with pytest.raises(MalformedRecord, match="too many copies"):
        GAME.from_layout(dict(good, kitty=kitty), 0)
    with pytest.raises(MalformedRecord, match="bid_start"):
        GAME.from_layout(dict(good, dealer=1, bid_start=2), 0)
    with pytest.raises(MalformedRecord, match="levels"):
        GAME.from_layout(dict(good, dealer=None, levels=["3", "2"]), 0)
    with pytest.raises(MalformedRecord, match="unknown card"):
        GAME.from_layout(dict(good, kitty=["2h"] + good["kitty"][1:]), 0)


def test_T15_dealer_takes_the_kitty_and_buries_eight():
    lay = layout({0: "2S"}, kitty="RJ 5H 10H KH 5C 10C KC 3D")
    bid = ["declare 2S", "pass", "pass", "pass"]
    state = state_after(lay, bid)
    assert sum(state.hands[0]) == 33 and state.to_act == 0
    assert error_rule(lay, bid + ["bury RJ 5H 10H KH 5C 10C KC"]) == "T-15"  # 7 cards
    assert error_rule(lay, bid + ["bury RJ 5H 10H KH 5C 10C KC 3D 3D"]) == "T-15"  # 9
    assert error_rule(lay, bid + ["bury RJ RJ RJ 5H 10H KH 5C 10C"]) == "held"  # 8, 3 RJ
    assert error_rule(lay, bid + ["2S"]) == "turn"
    assert error_rule(lay, bid + ["pass"]) == "turn"
    # trumps and point cards may be buried
    state = state_after(lay, bid + [bury_kitty(lay)])
    assert state.phase == "play" and state.to_act == 0 and sum(state.hands[0]) == 25
    assert sorted(state.kitty) == sorted(GAME.parse_action(bury_kitty(lay))[1:])
    assert state.observation(0).kitty == state.kitty and state.observation(1).kitty == ()


def test_T15_burying_cards_not_held_is_refused():
    lay = layout({0: "2S"}, kitty="RJ 5H 10H KH 5C 10C KC 3D", exclude={0: "D"})
    bid = ["declare 2S", "pass", "pass", "pass"]
    assert error_rule(lay, bid + ["bury RJ 5H 10H KH 5C 10C 3D 3D"]) == "held"
