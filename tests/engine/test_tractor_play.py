"""Leads, following and winning tricks (T-12..T-24, T-28, D-3), record-built positions.

Unless said otherwise: level 2, dealer 0 declares `2S` (spades trump), three passes, the dealer
buries the kitty as dealt, and seat 0 leads.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.tractor.cards import BJ, CODE_TO_KIND, NT, RJ, TRUMP, context
from tests.engine.test_tractor_support import GAME, bury_kitty, error_rule, layout, state_after


def pre(lay: dict, declare: str = "declare 2S") -> list[str]:
    return [declare, "pass", "pass", "pass", bury_kitty(lay)]


def legal_texts(state) -> set[str]:
    return {GAME.format_action(a) for a in state.legal_actions()}


def test_T16_lead_formats():
    lay = layout({0: "2S AH KH 9H 9H"}, exclude={0: "C"})
    p = pre(lay)
    assert error_rule(lay, p + ["AH KH"]) == "T-16"  # two unmatched cards
    assert error_rule(lay, p + ["AH 2S"]) == "T-16"  # mixed suits
    assert error_rule(lay, p + ["9H 9H 9H"]) == "T-16"
    assert error_rule(lay, p + ["AH 9H 9H"]) == "T-16"  # no multi-format throws
    assert error_rule(lay, p + ["9H 9H"]) is None
    assert error_rule(lay, p + ["AH"]) is None
    # T-28: the lead's format is checked before the cards held
    assert error_rule(lay, p + ["QC JC"]) == "T-16"
    assert error_rule(lay, p + ["QC QC"]) == "held"


def test_T17_tractor_across_the_removed_level_rank():
    lay = layout({0: "7S 5H 5H 6H 6H 8H 8H"}, levels=("7", "2"))
    p = pre(lay, "declare 7S")
    state = state_after(lay, p)
    legal = legal_texts(state)
    assert "8H 8H 6H 6H" in legal and "8H 8H 6H 6H 5H 5H" in legal
    assert error_rule(lay, p + ["6H 6H 8H 8H"]) is None
    assert error_rule(lay, p + ["5H 5H 8H 8H"]) == "T-16"  # 6 is between them


def test_D3_trump_tractors_run_through_level_cards_and_jokers():
    lay = layout({0: "2S 2S AS AS KS KS 2H 2H 2D 2D BJ BJ RJ RJ"})
    p = pre(lay)
    state = state_after(lay, p)
    legal = legal_texts(state)
    for tractor in ("AS AS 2H 2H 2S 2S", "AS AS 2H 2H", "AS AS 2D 2D 2S 2S",
                    "RJ RJ BJ BJ 2H 2H 2S 2S", "RJ RJ BJ BJ KS KS AS AS 2D 2D 2S 2S",
                    "BJ BJ 2S 2S"):
        assert GAME.format_action(GAME.parse_action(tractor)) in legal, tractor
        assert error_rule(lay, p + [tractor]) is None
    # off-suit level pairs are equal, never consecutive with each other (T-17)
    assert error_rule(lay, p + ["2H 2H 2D 2D"]) == "T-16"
    assert error_rule(lay, p + ["AS AS 2H 2H 2D 2D"]) == "T-16"
    assert error_rule(lay, p + ["KS KS 2H 2H"]) == "T-16"
    assert error_rule(lay, p + ["2S 2S RJ RJ"]) == "T-16"


def test_T12_no_trump_level_cards_and_jokers_are_trumps():
    lay = layout({0: "BJ BJ RJ RJ 2H 2H AH AH", 1: "3H 2C"}, exclude={1: "H"})
    p = pre(lay, "declare BJ BJ")
    state = state_after(lay, p)
    assert state.trump == NT
    legal = legal_texts(state)
    assert "BJ BJ 2H 2H" in legal and "RJ RJ BJ BJ 2H 2H" in legal
    assert error_rule(lay, p + ["AH AH 2H 2H"]) == "T-16"  # AH is a plain heart in no-trump
    # 2C is a trump, not a club: seat 1 must follow hearts with 3H
    assert error_rule(lay, p + ["AH", "2C"]) == "T-19"
    assert error_rule(lay, p + ["AH", "3H"]) is None


def test_T13_trump_order_and_T14_effective_suits():
    ctx = context(0, 0)  # level 2, spades trump
    k = CODE_TO_KIND
    order = ["RJ", "BJ", "2S", "2H", "AS", "KS", "3S"]
    positions = [ctx.pos[k[c]] for c in order]
    assert positions == sorted(positions, reverse=True) and len(set(positions)) == len(order)
    assert ctx.pos[k["2H"]] == ctx.pos[k["2D"]] == ctx.pos[k["2C"]]  # equal off-suit level
    assert all(ctx.eff[k[c]] == TRUMP for c in ("2H", "2D", "AS", "BJ"))
    assert ctx.eff[k["AH"]] == 1 and ctx.pos[k["3H"]] == 0  # level rank removed
    nt = context(0, NT)
    assert nt.pos[RJ] > nt.pos[BJ] > nt.pos[k["2S"]] == nt.pos[k["2H"]]
    assert nt.eff[k["AS"]] == 0


def test_T18_follow_with_as_many_cards_as_the_lead():
    lay = layout({0: "2S 9H 9H", 1: "3H 4H 5H"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H 9H", "3H"]) == "T-18"
    assert error_rule(lay, p + ["9H 9H", "3H 4H 5H"]) == "T-18"
    # T-28: the count is checked before the cards held
    assert error_rule(lay, p + ["9H 9H", "RJ RJ RJ"]) == "T-18"


def test_T19_follow_the_led_suit_and_fill_when_short():
    lay = layout({0: "2S 9H 9H", 1: "3H 4H 5H"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H 9H", "3H 4C"]) in ("T-19", "held")
    lay = layout({0: "2S 9H 9H", 1: "3H 4H 5H 4C"}, exclude={1: "H"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H 9H", "3H 4C"]) == "T-19"
    assert error_rule(lay, p + ["9H 9H", "3H 4H"]) is None
    short = layout({0: "2S 9H 9H", 1: "3H 5C 6C"}, exclude={1: "H"})
    p = pre(short)
    assert error_rule(short, p + ["9H 9H", "3H 5C"]) is None  # all of the suit, then anything
    assert error_rule(short, p + ["9H 9H", "5C 6C"]) == "T-19"


def test_T14_off_suit_level_card_is_not_its_printed_suit():
    lay = layout({0: "2S 9H", 1: "2H 3H"}, exclude={1: "H"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H", "2H"]) == "T-19"
    assert error_rule(lay, p + ["9H", "3H"]) is None
    void = layout({0: "2S 9H", 1: "2H 5C"}, exclude={1: "H"})
    assert error_rule(void, pre(void) + ["9H", "5C"]) is None  # 2H is a trump: void in hearts


def test_T20_pairs_must_be_played_up_to_the_pairs_led():
    lay = layout({0: "2S 9H 9H 10H 10H", 1: "3H 3H 5H 5H 7H"}, exclude={1: "H"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H 9H", "3H 7H"]) == "T-20"
    assert error_rule(lay, p + ["9H 9H", "5H 5H"]) is None
    # a tractor lead: both pairs, consecutive or not
    assert error_rule(lay, p + ["9H 9H 10H 10H", "3H 3H 5H 7H"]) == "T-20"
    assert error_rule(lay, p + ["9H 9H 10H 10H", "3H 3H 5H 5H"]) is None
    # T-28: suit before pairs
    assert error_rule(lay, p + ["9H 9H 10H 10H", "3H 3H 5H 4C"]) in ("T-19", "held")


def test_T20_two_equal_trumps_are_not_a_pair():
    lay = layout({0: "2S 3S 3S", 1: "2H 2D 4S", 2: "2H 2D 5S 5S", 3: "2C 2C"},
                 exclude={1: "SJC", 2: "JC"})
    p = pre(lay)
    state = state_after(lay, p)
    assert sum(state.hands[1][k] for k in context(0, 0).suit_kinds[TRUMP]) == 3
    assert error_rule(lay, p + ["3S 3S", "2H 2D"]) is None  # no identical pair: any two trumps
    assert error_rule(lay, p + ["3S 3S", "2H 4S"]) is None
    assert error_rule(lay, p + ["3S 3S", "2H 2D", "2H 2D"]) == "T-20"  # holds 5S 5S
    assert error_rule(lay, p + ["3S 3S", "2H 2D", "5S 5S"]) is None


def test_T21_void_may_play_anything_trumping_optional():
    lay = layout({0: "2S 9H", 1: "4S 5C"}, exclude={1: "HJ"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H", "5C"]) is None
    assert error_rule(lay, p + ["9H", "4S"]) is None
    state = state_after(lay, p + ["9H", "5C"])
    assert state.voids[1] & (1 << 1)  # public: seat 1 showed a void in hearts
    assert state.observation(2).voids[1] & (1 << 1)


def test_T28_follow_check_order_held_before_suit():
    lay = layout({0: "2S 9H 9H", 1: "3H 4H"}, exclude={1: "HD"})
    p = pre(lay)
    assert error_rule(lay, p + ["9H 9H", "AD KD"]) == "held"
    assert error_rule(lay, p + ["9H", "AD"]) == "held"


def test_T22_trump_beats_plain_and_T24_winner_leads():
    lay = layout({0: "2S AH", 1: "3S 5C", 2: "KH", 3: "4H"}, exclude={1: "H"})
    p = pre(lay)
    state = state_after(lay, p + ["AH", "3S", "KH", "4H"])
    assert state.tricks[-1][2] == 1 and state.to_act == 1 and state.leader == 1
    assert state.points == 10  # attackers (seats 1, 3) took KH (T-3, T-25)


def test_T22_unmatched_high_cards_do_not_beat_a_pair():
    lay = layout({0: "2S 3H 3H", 1: "RJ BJ", 2: "5H 6H", 3: "7H 8H"},
                 exclude={1: "H", 2: "H", 3: "H"})
    p = pre(lay)
    state = state_after(lay, p + ["3H 3H", "RJ BJ", "5H 6H", "7H 8H"])
    assert state.tricks[-1][2] == 0 and state.to_act == 0
    assert state.points == 0  # defenders keep the 5H


def test_T22_unconnected_pairs_do_not_beat_a_tractor_but_a_trump_tractor_does():
    lay = layout({0: "2S 3H 3H 4H 4H", 1: "5S 5S 9S 9S", 2: "6S 6S 7S 7S", 3: "6H 7H 8H 9H"},
                 exclude={1: "H", 2: "H", 3: "H"})
    p = pre(lay)
    state = state_after(lay, p + ["3H 3H 4H 4H", "5S 5S 9S 9S"])
    assert state.win_seat == 0
    state = state_after(lay, p + ["3H 3H 4H 4H", "5S 5S 9S 9S", "6S 6S 7S 7S", "6H 7H 8H 9H"])
    assert state.tricks[-1][2] == 2


def test_T23_equal_strength_favours_the_earlier_play():
    lay = layout({0: "2S 2H", 1: "2D", 2: "3S", 3: "2C"}, exclude={1: "SJ", 2: "J", 3: "SJ"})
    p = pre(lay)
    state = state_after(lay, p + ["2H", "2D", "3S", "2C"])
    assert state.tricks[-1][2] == 0  # 2D and 2C equal 2H: the first stands


def test_T23_tractors_compare_by_their_highest_pair():
    lay = layout({0: "2S 3H 3H 4H 4H", 1: "5H 5H 6H 6H", 2: "7H 8H 9H 10H",
                  3: "JH QH 9H 10H"}, exclude={2: "H", 3: "H"})
    p = pre(lay)
    state = state_after(lay, p + ["3H 3H 4H 4H", "5H 5H 6H 6H", "7H 8H 9H 10H",
                                  "JH QH 9H 10H"])
    assert state.tricks[-1][2] == 1
    assert state.points == 30  # 10H 10H 5H 5H for the attackers


def test_T1_T3_play_order_teams_and_defenders_points():
    lay = layout({0: "2S 9H", 1: "KH", 2: "10H", 3: "AH"}, exclude={1: "H", 2: "H", 3: "H"})
    p = pre(lay)
    state = state_after(lay, p + ["9H"])
    assert state.to_act == 1 and state.attackers == 1  # dealer 0's team (0, 2) defends
    state = state_after(lay, p + ["9H", "KH"])
    assert state.to_act == 2
    state = state_after(lay, p + ["9H", "KH", "10H", "AH"])
    assert state.tricks[-1][2] == 3 and state.points == 20  # attacker 3 took KH and 10H
    lay2 = layout({0: "2S AH", 1: "KH", 2: "10H", 3: "9H"}, exclude={1: "H", 2: "H", 3: "H"})
    state = state_after(lay2, pre(lay2) + ["AH", "KH", "10H", "9H"])
    assert state.tricks[-1][2] == 0 and state.points == 0  # defenders' tricks score nothing


def test_T13_trump_ranks_decide_a_trick():
    lay = layout({0: "2S AS", 1: "2H", 2: "BJ", 3: "RJ"}, exclude={1: "SJ", 2: "SJ", 3: "SJ"})
    p = pre(lay)
    state = state_after(lay, p + ["AS", "2H"])
    assert state.win_seat == 1  # off-suit level above the trump ace
    state = state_after(lay, p + ["2S", "2H"])
    assert state.win_seat == 0  # trump-suit level above off-suit level
    state = state_after(lay, p + ["2S", "2H", "BJ", "RJ"])
    assert state.tricks[-1][2] == 3  # Red Joker highest


def test_apply_accepts_cards_in_any_order_and_refuses_garbage():
    lay = layout({0: "2S 9H 9H 10H 10H"})
    state = state_after(lay, pre(lay))
    k = GAME.parse_action
    state.clone().apply(tuple(reversed(k("9H 9H 10H 10H"))))
    for junk in ((), (99,), ("9H",), None, (-1, 3), (3, -2)):
        before = state.snapshot()
        with pytest.raises(IllegalAction) as info:
            state.apply(junk)
        assert info.value.rule == "turn" and state.snapshot() == before
