"""Independent audit of Tractor ties and equal trumps decided by play order.

Equal off-suit level cards and equal trump pairs: the earlier play stands (T-13, T-23); no-trump
level cards are equal (T-12, T-13); unmatched trumps do not beat a pair (T-22).
"""

from __future__ import annotations

from typing import Any

from tests.engine.test_tractor_support import layout
from tests.engine.tractor_audit_deals import BIDS, replay_ok


def _first_trick_winner(lay: dict[str, Any], bids: list[str], plays: list[str]) -> int:
    out = replay_ok(lay, bids + ["bury " + " ".join(lay["kitty"])] + plays)
    assert out["phase"] == "play" and out["legal_count"] > 0
    return out["to_act"]  # T-24: the winner leads the next trick


def test_T23_two_off_suit_level_singles_trumping_a_plain_lead_the_first_stands():
    lay = layout({0: "2S AH", 1: "2D", 2: "2C", 3: "AH"}, exclude={1: "H", 2: "H"})
    assert _first_trick_winner(lay, BIDS, ["AH", "2D", "2C", "AH"]) == 1


def test_T13_trump_suit_level_card_beats_an_off_suit_level_card():
    lay = layout({0: "2S AH", 1: "2D", 2: "2S", 3: "AH"}, exclude={1: "H", 2: "H"})
    assert _first_trick_winner(lay, BIDS, ["AH", "2D", "2S", "AH"]) == 2


def test_T12_T13_in_no_trump_all_level_cards_are_equal_trumps():
    lay = layout({0: "BJ BJ AH", 1: "2D", 2: "2S", 3: "AH"}, exclude={1: "H", 2: "H"})
    bids = ["declare BJ BJ", "pass", "pass", "pass"]
    assert _first_trick_winner(lay, bids, ["AH", "2D", "2S", "AH"]) == 1
    lay = layout({0: "BJ BJ AH", 1: "2D", 2: "RJ", 3: "AH"}, exclude={1: "H", 2: "H"})
    assert _first_trick_winner(lay, bids, ["AH", "2D", "RJ", "AH"]) == 2


def test_T23_equal_trump_pairs_the_earlier_stands_and_a_higher_pair_wins():
    lay = layout({0: "2S 2H 2H", 1: "2D 2D", 2: "2C 2C", 3: "3S 4S"},
                 exclude={3: "SJ"})
    assert _first_trick_winner(lay, BIDS, ["2H 2H", "2D 2D", "2C 2C", "3S 4S"]) == 0
    lay = layout({0: "2S 2H 2H", 1: "2D 2D", 2: "BJ BJ", 3: "3S 4S"}, exclude={3: "SJ"})
    assert _first_trick_winner(lay, BIDS, ["2H 2H", "2D 2D", "BJ BJ", "3S 4S"]) == 2


def test_T22_a_void_seat_trumping_a_pair_with_two_unmatched_trumps_does_not_win():
    lay = layout({0: "2S 9H 9H", 1: "RJ BJ", 2: "3H 4H", 3: "5H 6H"},
                 exclude={1: "H", 2: "H", 3: "H"})
    assert _first_trick_winner(lay, BIDS, ["9H 9H", "RJ BJ", "3H 4H", "5H 6H"]) == 0
    lay = layout({0: "2S 9H 9H", 1: "3S 3S", 2: "3H 4H", 3: "5H 6H"},
                 exclude={1: "H", 2: "H", 3: "H"})
    assert _first_trick_winner(lay, BIDS, ["9H 9H", "3S 3S", "3H 4H", "5H 6H"]) == 1
