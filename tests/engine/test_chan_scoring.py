"""Scoring (S-1…S-6): every bonus from a record-built win, S-3's top bonus plus dịch, S-4's sum,
and the analysis functions the UI uses."""

from __future__ import annotations

from engine.chan import scoring
from engine.chan.cards import FACE_OF, counts_of
from tests.engine.test_chan_support import layout, run

# A revealer's win: seat 0 deals and discards 8C (nobody can use it), seat 1 passes and reveals.
OPEN = "discard 8C, pass, win"
AWAY = "8C 8C 8C"


def _heavenly(hand: str) -> dict:
    return run(layout(0, {0: hand}), "win")["result"]


def _stock_win(hand19: str, card: str, bottom: str = AWAY) -> dict:
    out = run(layout(0, {0: "8C", 1: hand19}, stock=card, bottom=bottom), OPEN)
    assert out["ok"], out
    return out["result"]


def test_S1_u_xuong_scores_two():
    # 7 Chắn + 3 Cạ, two red cards, no set: won on a stock card revealed by another player.
    hand = "2C 2C 4C 4C 5C 5C 6C 6C 9M 9M 2S 2S 4S 4M 5S 5M 3C 3S"
    lay = layout(0, {0: "8C", 1: hand + " 7C"}, stock="7C", bottom=AWAY)
    res = run(lay, OPEN)["result"]
    assert res["bonuses"] == ["Ù chì"] and res["score"] == 3
    lay = layout(0, {0: "8C", 2: hand + " 7C"}, stock="2M 7C", bottom=AWAY)
    out = run(lay, "discard 8C, pass, pass, pass")  # seat 2 reveals 7C: seat 2's own gate
    assert out["phase"] == "win_offer" and out["to_act"] == 2, out
    lay = layout(0, {0: "8C", 3: hand + " 7C"}, stock="2M 7C", bottom=AWAY)
    out = run(lay, "discard 8C, pass, pass, pass")  # seat 2 reveals 7C, seat 3 wins on it
    assert out["phase"] == "win_offer" and out["to_act"] == 3, out
    res = run(lay, "discard 8C, pass, pass, pass, win")["result"]
    assert res == {"winner": 3, "winning_card": "7C", "bonuses": [], "score": 2,
                   "settlement": [-2, -2, -2, 6]}


def test_S3_rules_example_u_chi_and_tom_score_five():
    hand = "3M 3S 7C 7C 2C 2C 4C 4C 5C 5C 6C 6C 9M 9M 2S 4S 4M 5S 5M"
    res = _stock_win(hand, "2S")
    assert res["bonuses"] == ["Ù chì", "Tôm"] and res["score"] == 5
    assert res["settlement"] == [-5, 15, -5, -5]


def test_S2_bach_thu_exactly_six_chan_no_ca_of_winning_rank():
    hand = "2C 2C 4C 4C 5C 5C 6C 6C 9C 9C 9M 2M 2S 4M 4S 5M 5S 6M 6S"
    res = _stock_win(hand, "9M")
    assert res["bonuses"] == ["Ù chì", "Bạch thủ"] and res["score"] == 5
    # Six Chắn again, but the winning 6C's rank also has a Cạ (6M 6S): no Bạch thủ.
    hand2 = "2C 2C 4C 4C 5C 5C 9C 9C 9M 9M 6C 2M 2S 4M 4S 5M 5S 6M 6S"
    res = _stock_win(hand2, "6C")
    assert "Bạch thủ" not in res["bonuses"]
    assert res["bonuses"] == ["Ù chì"] and res["score"] == 3


def test_S2_two_tom_sets_and_bach_dinh_heavenly():
    hand = "3M 3M 3S 3S 7C 7C 2C 2C 4C 4C 5C 5C 6C 6C 2S 2M 4S 4M 5S 5M"
    res = _heavenly(hand)
    assert res["bonuses"] == ["Thiên ù", "Tôm", "Tôm", "Bạch định"]
    assert res["score"] == 7 + 1 + 1 + 1


def test_S2_S4_two_leo_sets_thap_thanh_sums_main_values():
    hand = "8S 8S 9M 9M CC CC 2C 2C 3C 3C 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C"
    res = _heavenly(hand)
    assert res["bonuses"] == ["Thiên ù", "Lèo", "Lèo", "Thập thành"]
    assert res["score"] == 3 + 5 + 5 + 12


def test_S2_thien_khai_per_face_of_four_dealt():
    hand = "2C 2C 2C 2C 3C 3C 4C 4C 5C 5C 6C 6C 7M 7S 8C 8S 9C 9S 4M 4S"
    res = _heavenly(hand)
    assert res["bonuses"] == ["Thiên ù", "Thiên khai"] and res["score"] == 5 + 1


def test_S2_kinh_tu_chi_four_chi_chi_all_else_black():
    hand = "CC CC CC CC 2C 2C 3C 3C 4C 4C 5C 5C 7M 7S 6C 6S 2M 2S 4M 4S"
    res = _heavenly(hand)
    assert res["bonuses"] == ["Thiên ù", "Thiên khai", "Kính tứ chi"]
    assert res["score"] == 12 + 1 + 2


def test_S2_tam_do_exactly_eight_red():
    hand = "9M 9M 8M 8M 8S 8S 9S 9S 2C 2C 3C 3C 4M 4S 5M 5S 6M 6S 7M 7S"
    res = _heavenly(hand)
    assert res["bonuses"] == ["Thiên ù", "Tám đỏ"] and res["score"] == 8 + 1


def test_S2_bon_pair_dealt_ends_as_four():
    """Seat 1 was dealt 5M 5M, captures the dealer's 5M as a Chắn and wins on the last 5M."""
    pairs = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S"
    lay = layout(0, {0: "5M", 1: "5M 5M 2C " + pairs}, stock="7C 7S 6C 5M",
                 bottom="2C 2C 2C 7C 7C 7C 7S 7S 6C 6C 6C")
    acts = "discard 5M, capture 5M, discard 2C, pass, pass, pass, pass, pass, pass, pass"
    out = run(lay, acts)
    assert out["phase"] == "win_offer" and out["to_act"] == 1, out
    res = run(lay, acts + ", win")["result"]
    assert res["bonuses"] == ["Ù chì", "Bòn", "Thập thành"] and res["score"] == 3 + 5 + 12


def test_S3_equal_main_values_the_higher_dich_is_top():
    assert scoring.score([("A", 5, 2), ("B", 5, 3)]) == 5 + 2
    assert scoring.score([("B", 5, 3), ("A", 5, 2)]) == 5 + 2
    # In the S-2 table equal mains share their dịch, e.g. Lèo and Thiên khai: 5 + 2.
    assert scoring.score([scoring.LEO_BONUS, scoring.THIEN_KHAI]) == 7
    assert scoring.score([]) == 2  # S-1


def test_S4_thap_thanh_sums_every_main_value():
    found = [scoring.U_CHI, scoring.TOM_BONUS, scoring.THAP_THANH]
    assert scoring.score(found) == 3 + 4 + 12
    assert scoring.score([scoring.U_CHI, scoring.TOM_BONUS]) == 5


def test_analysis_pairs_waits_and_completeness():
    cards = "3M 3S 7C 7C 2C 2C 4C 4C 5C 5C 6C 6C 9M 9M 2S 4S 4M 5S 5M".split()
    counts = counts_of([FACE_OF[c] for c in cards])
    info = scoring.analyse(counts)
    assert not info.complete
    assert info.waiting == (FACE_OF["2M"], FACE_OF["2S"], FACE_OF["2C"])
    counts[FACE_OF["2S"]] += 1
    done = scoring.analyse(counts, winning_face=FACE_OF["2S"], own_gate_stock=True)
    assert done.complete and done.chan == 7 and done.ca == 3 and done.unpaired == ()
    assert [b[0] for b in done.bonuses] == ["Ù chì", "Tôm"] and done.score == 5


def test_D7_thien_khai_once_per_face_dealt_four():
    hand = "2C 2C 2C 2C 3C 3C 3C 3C 4C 4C 5C 5C 7M 7S 8C 8S 9C 9S 4M 4S"
    res = _heavenly(hand)
    assert res["bonuses"] == ["Thiên ù", "Thiên khai", "Thiên khai"] and res["score"] == 5 + 1 + 2


def test_C5_red_faces():
    from engine.chan.cards import CODE, IS_RED

    assert sorted(CODE[f] for f in range(25) if IS_RED[f]) == ["8M", "8S", "9M", "9S", "CC"]
