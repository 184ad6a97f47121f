"""Independent audit of Tractor bidding against shared/rules/tractor.md.

The level rank (T-7, T-8), overcalls (T-9), the end of bidding (T-10), the first deal's dealer
and trump (T-11, D-2), through the records.md contract.
"""

from __future__ import annotations

from engine.records import replay
from tests.engine.test_tractor_support import GAME, layout
from tests.engine.tractor_audit_deals import refused_rule, replay_ok


def test_T10_T11_D2_first_deal_nobody_declares_bid_start_deals_kitty_suit_is_trump():
    lay = layout({}, kitty="RJ BJ RJ BJ 5D 3S 4S 6S", dealer=None, bid_start=2)
    for n in range(4):
        out = replay_ok(lay, ["pass"] * n)
        assert out["phase"] == "declare" and out["to_act"] == (2 + n) % 4
    out = replay_ok(lay, ["pass"] * 4)
    assert out["phase"] == "bury" and out["to_act"] == 2  # T-11: the bidding starter deals
    assert all(t.startswith("bury ") for t in out["legal"]) and out["legal_count"] > 1000
    assert len(out["legal"]) == 1000
    state = GAME.from_layout(lay, 0)
    for text in ["pass"] * 4:
        state.apply(GAME.parse_action(text))
    assert state.trump == 3 and state.dealer == 2  # T-10: first non-joker card (5D) of the kitty


def test_T11_first_declarer_deals_even_when_overcalled_and_level_stays_2():
    lay = layout({0: "2H", 1: "2S 2S", 2: "BJ BJ"}, dealer=None, bid_start=3)
    acts = ["pass", "declare 2H", "declare 2S 2S", "declare BJ BJ", "pass", "pass"]
    out = replay_ok(lay, acts)
    assert out["phase"] == "declare" and out["to_act"] == 1
    out = replay_ok(lay, acts + ["pass"])
    assert out["phase"] == "bury" and out["to_act"] == 0  # seat 0 declared first
    state = GAME.from_layout(lay, 0)
    for text in acts + ["pass"]:
        state.apply(GAME.parse_action(text))
    assert state.trump == 4 and state.level == 0  # no-trump by the Black-Joker pair (T-8)


def test_T10_passes_before_a_declaration_do_not_count_towards_three():
    lay = layout({3: "2C"}, dealer=1, levels=("3", "2"))
    acts = ["pass", "pass", "declare 2C", "pass", "pass"]  # seats 1, 2, 3, 0, 1
    assert replay_ok(lay, acts)["phase"] == "declare"
    out = replay_ok(lay, acts + ["pass"])
    assert out["phase"] == "bury" and out["to_act"] == 1  # a known dealer stays the dealer


def test_T10_a_passer_may_overcall_later_and_passes_restart():
    lay = layout({0: "2D 2D", 1: "2H"}, dealer=0)
    acts = ["pass", "declare 2H", "pass", "pass", "declare 2D 2D", "pass", "pass"]
    assert replay_ok(lay, acts)["phase"] == "declare"
    out = replay_ok(lay, acts + ["pass"])
    assert out["phase"] == "bury" and out["to_act"] == 0
    state = GAME.from_layout(lay, 0)
    for text in acts + ["pass"]:
        state.apply(GAME.parse_action(text))
    assert state.trump == 3


def test_T9_after_a_red_joker_pair_only_pass_is_legal_and_equal_strength_is_refused():
    lay = layout({0: "RJ RJ 2S", 1: "BJ BJ 2H 2H", 2: "2C", 3: "2D 2D"}, dealer=0)
    assert replay_ok(lay, ["declare RJ RJ"])["legal"] == ["pass"]
    assert refused_rule(lay, ["declare 2S", "declare 2H"]) == "T-9"
    assert refused_rule(lay, ["pass", "declare 2H 2H", "pass", "declare 2D 2D"]) == "T-9"
    assert refused_rule(lay, ["pass", "declare BJ BJ", "pass", "declare 2D 2D"]) == "T-9"
    assert refused_rule(lay, ["declare 2S", "declare 2H 2H", "pass", "pass", "declare 2S"]) == "T-9"
    out = replay_ok(lay, ["declare 2S"])
    assert out["legal"] == ["declare 2H 2H", "declare BJ BJ", "pass"]


def test_T7_T8_level_rank_is_the_dealer_teams_level():
    lay = layout({0: "5H 3H", 1: "3S 5S"}, dealer=1, levels=("3", "5"))
    assert refused_rule(lay, ["declare 3S"]) == "T-8"
    out = replay_ok(lay, ["declare 5S"])
    assert out["to_act"] == 2
    lay0 = layout({0: "5H 3H", 1: "3S 5S"}, dealer=0, levels=("3", "5"))
    assert refused_rule(lay0, ["declare 5H"]) == "T-8"
    assert replay_ok(lay0, ["declare 3H"])["to_act"] == 1


def test_D2_omitted_bid_start_is_drawn_from_the_seed():
    lay = layout({}, dealer=None)
    lay.pop("bid_start", None)
    seats = set()
    for seed in range(12):
        a = replay({"game": "tractor", "seed": seed, "layout": lay, "actions": []})[1]
        b = replay({"game": "tractor", "seed": seed, "layout": lay, "actions": []})[1]
        assert a == b
        seats.add(a["to_act"])
    assert seats == {0, 1, 2, 3}
