"""Chíu claims (K-1…K-4), winning (W-1…W-5), the dead hand (C-13, D-6) and the drawn end (C-14)."""

from __future__ import annotations

from engine.chan.legal import PASS
from tests.engine.test_chan_support import GAME, layout, run, state_of

NINE_PAIRS = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 8S 8S"
EIGHT_PAIRS = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S"


def _rule(out):
    assert out["ok"] is False, out
    return out["error"]["rule"]


# ------------------------------------------------------------------ Chíu
def test_K1_K4_out_of_turn_chiu_on_a_discard_returns_the_turn():
    lay = layout(0, {0: "5M 9C", 2: "5M 5M 5M 2C"}, bottom="9C 9C 9C 2C 2C 2C")
    out = run(lay, "discard 5M")
    assert out["to_act"] == 2 and out["phase"] == "chiu_offer" and out["legal"] == ["chiu", "pass"]
    out = run(lay, "discard 5M, chiu")
    assert out["to_act"] == 2 and out["phase"] == "discard"
    state = state_of(lay, "discard 5M, chiu, discard 2C")
    assert state.to_act == 1 and state.phase == "respond"  # K-4: seat 1 was to act
    obs = state.observation(1)
    five = GAME.parse_action("capture 5M")
    assert obs.exposed[2] == ((five,) * 4,)
    assert obs.open_card == GAME.parse_action("capture 2C") and obs.open_owner == 2
    # After seat 1 passes, seat 1 (not seat 3) reveals.
    state.apply(PASS)
    assert state.observation(1).gates[1][-1][1] is True


def test_K1_declined_chiu_then_normal_decision_and_offers_are_made_once():
    lay = layout(0, {0: "5M 9C", 2: "5M 5M 5M"}, bottom="9C 9C 9C")
    out = run(lay, "discard 5M, pass")
    assert out["to_act"] == 1 and out["phase"] == "respond"
    # Seat 1 passes and reveals; the declined 5M is gone from the table's offers.
    lay2 = layout(0, {0: "9C", 2: "5M 5M 5M"}, stock="5M", bottom="9C 9C 9C")
    out = run(lay2, "discard 9C, pass")
    assert out["to_act"] == 2 and out["phase"] == "chiu_offer"
    out = run(lay2, "discard 9C, pass, pass, pass")  # decline Chíu, seat 1 passes own card
    assert out["to_act"] == 2 and out["phase"] == "respond"
    assert out["legal"] == ["capture 5M", "pass"]
    assert _rule(run(lay2, "discard 9C, pass, pass, pass, chiu")) == "turn"


def test_K1_in_turn_chiu_moves_the_turn_on():
    lay = layout(0, {0: "5M 9C", 1: "5M 5M 5M 2C"}, bottom="9C 9C 9C 2C 2C 2C")
    out = run(lay, "discard 5M")
    assert out["to_act"] == 1 and out["phase"] == "chiu_offer"
    out = run(lay, "discard 5M, chiu, discard 2C")
    assert out["to_act"] == 2 and out["phase"] == "respond"


def test_K2_win_claims_before_chiu_and_K4_revealer_answers_claimers_discard():
    lay = layout(0, {0: "9C", 1: NINE_PAIRS + " 5S", 2: "5M 5M 5M 2C"}, stock="5M",
                 bottom="9C 9C 9C 2C 2C 2C")
    out = run(lay, "discard 9C, pass")
    assert out["to_act"] == 1 and out["phase"] == "win_offer"  # Cạ 5S-5M completes seat 1
    out = run(lay, "discard 9C, pass, pass")
    assert out["to_act"] == 2 and out["phase"] == "chiu_offer"
    out = run(lay, "discard 9C, pass, pass, chiu, discard 2C")
    assert out["to_act"] == 1 and out["phase"] == "respond"  # the revealer answers
    state = state_of(lay, "discard 9C, pass, pass, chiu, discard 2C, pass")
    assert state.to_act == 1 and state.phase == "own_card"  # and may reveal again
    assert len(state.observation(1).revealed) == 2


def test_K3_chiu_that_completes_the_hand_wins_at_once():
    lay = layout(0, {0: "5M 9C", 2: "5M 5M 5M " + EIGHT_PAIRS}, bottom="9C 9C 9C")
    out = run(lay, "discard 5M")
    assert out["phase"] == "chiu_offer" and out["legal"] == ["chiu", "pass"]
    out = run(lay, "discard 5M, chiu")
    assert out["to_act"] is None and out["phase"] == "over"
    # Chíu ù (dealt three, the claim makes four) and Thập thành: sum of mains (S-4).
    assert out["result"] == {"winner": 2, "winning_card": "5M", "bonuses": ["Chíu ù", "Thập thành"],
                             "score": 17, "settlement": [-17, -17, 51, -17]}


# ------------------------------------------------------------------ winning
def test_W1_no_win_on_a_discard():
    lay = layout(0, {0: "5S", 1: NINE_PAIRS + " 5M"}, bottom="5S 5S 5S")
    out = run(lay, "discard 5S")
    assert out["phase"] == "respond" and out["to_act"] == 1


def test_D2_a_win_may_be_declined():
    lay = layout(0, {0: "9C", 1: NINE_PAIRS + " 5M"}, stock="5M", bottom="5M 5M 9C 9C 9C")
    out = run(lay, "discard 9C, pass, pass")
    assert out["to_act"] == 1 and out["phase"] == "own_card" and out["result"] is None


def test_W3_chi_chi_win_needs_exactly_six_chan_and_four_ca():
    six_four = "CC 2C 2C 4C 4C 5C 5C 6C 6C 9C 9C 2M 2S 4M 4S 5M 5S 6M 6S"
    lay = layout(0, {0: "8C", 1: six_four}, stock="CC", bottom="8C 8C 8C")
    out = run(lay, "discard 8C, pass")
    assert out["phase"] == "win_offer" and out["to_act"] == 1
    res = run(lay, "discard 8C, pass, win")["result"]
    assert res["bonuses"] == ["Ù chì", "Bạch thủ"] and res["score"] == 5  # every CC win: Bạch thủ
    seven_two = "CC 2C 2C 4C 4C 5C 5C 6C 6C 9C 9C 7C 7C 2M 2S 4M 4S 3M 3S"
    lay = layout(0, {0: "8C", 1: seven_two}, stock="CC", bottom="8C 8C 8C")
    out = run(lay, "discard 8C, pass")
    assert out["phase"] == "own_card"  # eight Chắn with CC: no win (W-3)


def test_W2_identical_pair_is_never_split_for_ca():
    # 5M 5M 5S: the pair stays, 5S is left over; with 5C it pairs as Cạ (a win), but 5M alone
    # would need the pair split (5M5S + 5M5C) and is not a win.
    hand = "2C 2C 4C 4C 6C 6C 9C 9C 7C 7C 2M 2S 4M 4S 3M 3S 5M 5M 5S"
    lay = layout(0, {0: "8C", 1: hand}, stock="5C", bottom="8C 8C 8C")
    assert run(lay, "discard 8C, pass")["phase"] == "win_offer"
    from engine.chan.cards import FACE_OF, counts_of
    from engine.chan.scoring import is_winning
    cards = [FACE_OF[c] for c in hand.split()]
    assert not is_winning(counts_of(cards + [FACE_OF["8M"]]), (), FACE_OF["8M"])


def test_W4_heavenly_win_offered_and_may_be_declined():
    hand = "3M 3S 7C 7C 2C 2C 4C 4C 5C 5C 6C 6C 9C 9C 2S 2M 4S 4M 5S 5M"
    lay = layout(0, {0: hand})
    out = run(lay, [])
    assert out["phase"] == "heavenly" and out["to_act"] == 0 and out["legal"] == ["pass", "win"]
    out = run(lay, "pass")
    assert out["phase"] == "discard" and out["to_act"] == 0
    res = run(lay, "win")["result"]
    assert res["winning_card"] is None and res["winner"] == 0
    assert res["bonuses"] == ["Thiên ù", "Tôm", "Bạch định"] and res["score"] == 7 + 1 + 1


def test_W5_first_winner_in_seat_order_from_the_gate_owner():
    lay = layout(0, {0: "9C", 1: NINE_PAIRS + " 5S", 3: NINE_PAIRS + " 5C", 2: "2C"},
                 stock="2C 5M", bottom="9C 9C 9C 2C 2C")
    acts = "discard 9C, pass, pass, pass"  # seat 1 reveals 2C and passes; seat 2 reveals 5M
    out = run(lay, acts)
    assert out["to_act"] == 3 and out["phase"] == "win_offer", out
    out = run(lay, acts + ", pass")
    assert out["to_act"] == 1 and out["phase"] == "win_offer"
    assert run(lay, acts + ", pass, win")["result"]["winner"] == 1
    assert run(lay, acts + ", win")["result"]["winner"] == 3


# ------------------------------------------------------------------ dead hand and draw
def test_C13_D6_dead_hand_dealer_only_reveals_and_passes():
    """The dealer still starts (C-13); a dead hand's turn is an automatic reveal (D-6), so the
    dealer's first stock card is open for seat 1."""
    ten = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 8S 8S 5M 5M"
    lay = layout(0, {0: ten})
    state = state_of(lay, "pass")
    obs = state.observation(1)
    assert obs.dead == 0
    assert state.to_act == 1 and state.phase == "respond"  # on the dealer's revealed card
    assert obs.gates[0] == ((GAME.parse_action("capture " + lay["stock"][0]), True),)
    for _ in range(6):  # seats 1, 2, 3 pass the cards on (respond, then own card)
        assert state.to_act != 0
        state.apply(PASS)
    # The dead dealer passed seat 3's card automatically, revealed and passed its own.
    obs = state.observation(1)
    assert state.to_act == 1 and state.phase == "respond"
    assert len(obs.gates[0]) == 2 and obs.gates[0][1][1] is True and obs.open_owner == 0


def test_C14_empty_stock_ends_the_deal_drawn():
    state = state_of(layout(0, {0: "9C"}, bottom="9C 9C 9C"), "discard 9C")
    while not state.is_over:
        assert state.to_act is not None
        state.apply(PASS)
    assert state.observation(0).stock_count == 0
    assert GAME.result_json(state) == {"winner": None, "winning_card": None, "bonuses": [],
                                       "score": 0, "settlement": [0, 0, 0, 0]}


def test_C22_K3_chiu_neither_winning_nor_leaving_a_discard_is_not_offered():
    """Seat 2 refuses 2C and 4S (C-19), its only singles; a Chíu on 5M would not win and would
    leave no legal discard (X-2), so no Chíu offer is made."""
    pairs = "9M 9M 8M 8M 7M 7M 6M 6M 3M 3M 2M 2M 9S 9S"
    lay = layout(0, {0: "8C", 2: "5M 5M 5M 2C 4S " + pairs}, stock="2C 4S 7C 5M",
                 bottom="8C 8C 8C 2C 2C 4S 4S")
    state = state_of(lay, "discard 8C" + ", pass" * 6)
    two_c, four_s = GAME.parse_action("capture 2C"), GAME.parse_action("capture 4S")
    assert state.observation(2).refused == (1 << two_c) | (1 << four_s)
    state.apply(PASS)  # seat 0 passes seat 3's card and reveals 5M
    assert state.to_act == 0 and state.phase == "own_card"
    # Without the refusals the same Chíu is offered.
    lay2 = layout(0, {0: "8C", 2: "5M 5M 5M 2C 4S " + pairs}, stock="9C 9S 7C 5M",
                  bottom="8C 8C 8C 9C 9C 9C")
    state = state_of(lay2, "discard 8C" + ", pass" * 7)
    assert state.to_act == 2 and state.phase == "chiu_offer"
