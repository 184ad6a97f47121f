"""Chắn rules, one record-built exact position per rule id (shared/rules/chan.md).

Seat 0 deals (20 cards) unless said otherwise; hands are given in part and filled by
`test_chan_support.layout`, with the copies that must stay out of play at the stock's bottom.
"""

from __future__ import annotations

from tests.engine.test_chan_support import GAME, layout, run, state_of

NINE_PAIRS = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 8S 8S"
FIVES_AWAY = "5M 5M 5M 5S 5S 5S 5C 5C 5C 5C"


def _rule(out):
    assert out["ok"] is False, out
    return out["error"]["rule"]


# ------------------------------------------------------------------ deal and turn
def test_C7_C13_deal_sizes_and_dealer_discards_first():
    for seed in range(20):
        state = GAME.new_deal(seed)
        lay = GAME.layout_of(state)
        sizes = [len(h) for h in lay["hands"]]
        assert sizes[lay["dealer"]] == 20 and sorted(sizes) == [19, 19, 19, 20]
        assert len(lay["stock"]) == 23
        assert state.to_act == lay["dealer"] and state.phase in ("discard", "heavenly")


def test_C10_C12_discard_opens_card_for_next_player():
    out = run(layout(2, {2: "9C"}, bottom="9C 9C 9C"), "discard 9C")
    assert out["to_act"] == 3 and out["phase"] == "respond" and "pass" in out["legal"]


def test_C11_pass_reveals_into_own_gate_then_own_card():
    lay = layout(0, {0: "9C", 1: "2C"}, stock="2C", bottom="9C 9C 9C")
    state = state_of(lay, "discard 9C, pass")
    assert state.phase == "own_card" and state.to_act == 1
    obs = state.observation(1)
    assert obs.gates[1] == ((GAME.parse_action("capture 2C"), True),)
    assert obs.open_card == GAME.parse_action("capture 2C") and obs.stock_count == 22
    assert "capture 2C" in run(lay, "discard 9C, pass")["legal"]
    # Passing one's own card leaves it open for the next player (C-11).
    out = run(lay, "discard 9C, pass, pass")
    assert out["to_act"] == 2 and out["phase"] == "respond"


# ------------------------------------------------------------------ capture bans
def test_C6_capture_needs_chan_or_ca():
    out = run(layout(0, {0: "5M", 1: "6M 6S"}, bottom=FIVES_AWAY[3:]), "discard 5M, capture 6M")
    assert _rule(out) == "C-6"


def test_held_is_checked_before_C6():
    out = run(layout(0, {0: "5M"}, bottom=FIVES_AWAY + " CC CC CC CC"),
              "discard 5M, capture CC")
    assert _rule(out) == "held"


def test_C15_holding_identical_card_forces_chan():
    lay = layout(0, {0: "5M", 1: "5M 5S"}, bottom="5M 5M 5S 5S 5S 5C 5C 5C 5C")
    assert _rule(run(lay, "discard 5M, capture 5S")) == "C-15"
    assert run(lay, "discard 5M")["legal"] == ["capture 5M", "pass"]


def test_C16_ca_may_not_break_identical_pair_but_may_use_a_triple():
    lay = layout(0, {0: "5M", 1: "5S 5S"}, bottom="5M 5M 5M 5S 5S 5C 5C 5C 5C")
    assert _rule(run(lay, "discard 5M, capture 5S")) == "C-16"
    lay3 = layout(0, {0: "5M", 1: "5S 5S 5S"}, bottom="5M 5M 5M 5S 5C 5C 5C 5C")
    assert run(lay3, "discard 5M")["legal"] == ["capture 5S", "pass"]


def test_C17_no_ca_in_a_rank_already_paired_as_ca():
    lay = layout(0, {0: "5M", 1: "5S 5C"}, bottom="5M 5M 5M 5S 5S 5S 5C 5C 5C")
    assert _rule(run(lay, "discard 5M, capture 5S")) == "C-17"


def test_C18_no_ca_with_exactly_one_unpaired_card():
    lay = layout(0, {0: "5M", 1: NINE_PAIRS + " 5S"}, bottom="5M 5M 5M 5S 5S 5S 5C 5C 5C 5C")
    assert _rule(run(lay, "discard 5M, capture 5S")) == "C-18"


def test_C19_refused_chan_face_not_used_in_ca_and_X2_not_discarded():
    hands = {0: "5M", 1: "5M 7C"}
    bottom = "5M 5M 5S 5S 5S 5C 5C 5C 5C 7C 7C"
    lay = layout(0, hands, stock="5S", bottom=bottom)
    # Seat 1 could capture 5M as a Chắn and passes: the face is refused.
    state = state_of(lay, "discard 5M, pass")
    assert state.observation(1).refused == 1 << GAME.parse_action("capture 5M")
    assert state.observation(2).refused == 0  # another seat's refusals are not public
    assert _rule(run(lay, "discard 5M, pass, capture 5M")) == "C-19"
    lay2 = layout(0, hands, stock="7C", bottom=bottom.replace("7C 7C", "5S 7C"))
    assert _rule(run(lay2, "discard 5M, pass, capture 7C, discard 5M")) == "X-2"


def test_C19_only_a_legal_chan_is_refused():
    """A Chắn that C-22 forbids is no refusal: the face may still be used later."""
    lay = layout(0, {0: "5M", 1: NINE_PAIRS + " 5M"}, bottom="5M 5M 5S 5S 5S 5S 5C 5C 5C 5C")
    state = state_of(lay, "discard 5M, pass")
    assert state.observation(1).refused == 0


def test_C20_discarded_face_may_not_be_captured():
    lay = layout(0, {0: "5M", 1: "5M 7C 7C 7C"}, stock="9C 9S 7C",
                 bottom="9C 9C 9C 9S 9S 9S 5M 5M")
    acts = "discard 5M, capture 5M, discard 7C, pass, pass, pass, pass, pass, pass"
    out = run(lay, acts)
    assert out["to_act"] == 1 and out["phase"] == "respond" and out["legal"] == ["pass"]
    assert _rule(run(lay, acts + ", capture 7C")) == "C-20"


def test_C20_face_played_into_ca_may_not_be_captured():
    lay = layout(0, {0: "5M", 1: "5S 5S 5S 2C"}, stock="9C 9S 5S",
                 bottom="9C 9C 9C 9S 9S 9S 5M 5M 5M 5C 5C 5C 5C")
    acts = "discard 5M, capture 5S, discard 2C, pass, pass, pass, pass, pass, pass"
    assert run(lay, acts)["legal"] == ["pass"]
    assert _rule(run(lay, acts + ", capture 5S")) == "C-20"


_C21_HANDS = {0: "4M 4S 9C 6M", 1: "6C 6C 6S", 2: "4M 4M 6C 6S", 3: "4M 4S 6C 6M"}
_C21_STOCK = "2C 2S 9C"
_C21_BOTTOM = "4S 4S 6M 6M 6S 9C 9C"
_C21_FIRST = "discard 4M, pass, pass, pass, pass, pass, pass"


def test_C21_after_discarding_both_cards_of_a_ca_no_ca_capture():
    lay = layout(0, _C21_HANDS, stock=_C21_STOCK + " 3C 3S 6S", bottom=_C21_BOTTOM)
    acts = _C21_FIRST + ", capture 9C, discard 4S, pass, pass, pass, pass, pass, pass"
    out = run(lay, acts)
    assert out["to_act"] == 0 and out["phase"] == "respond", out
    assert _rule(run(lay, acts + ", capture 6M")) == "C-21"


def test_X3_after_a_ca_capture_no_discard_forming_ca_with_earlier_discard():
    lay = layout(0, _C21_HANDS, stock="2C 2S 6S", bottom=_C21_BOTTOM.replace("9C 9C", "9C 9C 9C"))
    acts = _C21_FIRST + ", capture 6M"
    out = run(lay, acts)
    assert out["phase"] == "discard" and "discard 4S" not in out["legal"], out
    assert _rule(run(lay, acts + ", discard 4S")) == "X-3"


def test_C22_capture_must_leave_a_legal_discard():
    lay = layout(0, {0: "5M", 1: NINE_PAIRS + " 5M"}, bottom="5M 5M 5S 5S 5S 5S 5C 5C 5C 5C")
    out = run(lay, "discard 5M")
    assert out["legal"] == ["pass"]  # W-1 too: no win on a discard
    assert _rule(run(lay, "discard 5M, capture 5M")) == "C-22"


def test_C23_W1_capture_bans_never_stop_a_win_on_a_stock_card():
    """Seat 1 may not capture 5M (C-22) but wins on a revealed 5M: Ù chì, Tám đỏ, Thập thành."""
    lay = layout(0, {0: "9C", 1: NINE_PAIRS + " 5M"}, stock="5M", bottom="5M 5M 9C 9C 9C")
    out = run(lay, "discard 9C, pass")
    assert out["to_act"] == 1 and out["phase"] == "win_offer"
    assert out["legal"] == ["pass", "win"]
    res = run(lay, "discard 9C, pass, win")["result"]
    assert res == {"winner": 1, "winning_card": "5M", "bonuses": ["Ù chì", "Tám đỏ", "Thập thành"],
                   "score": 3 + 8 + 12, "settlement": [-23, 69, -23, -23]}


# ------------------------------------------------------------------ discard bans
def test_X1_no_discard_of_a_face_held_twice():
    lay = layout(0, {0: "7C 7C 9C"}, bottom="7C 7C 9C 9C 9C")
    assert _rule(run(lay, "discard 7C")) == "X-1"
    assert "discard 9C" in run(lay, [])["legal"]


def test_turn_error_for_wrong_kind_of_action():
    lay = layout(0, {0: "9C"}, bottom="9C 9C 9C")
    assert _rule(run(lay, "pass")) == "turn"
    assert _rule(run(lay, "discard 9C, win")) == "turn"
    assert _rule(run(lay, "discard 9C, chiu")) == "turn"
    assert _rule(run(lay, "discard 9C, discard 9C")) == "turn"
