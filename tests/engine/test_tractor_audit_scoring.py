"""Independent audit of Tractor scoring with whole deals in which one seat wins every trick.

The kitty multiplier for each last-trick format (T-26), the T-27 bands at every boundary and
past A (D-1), and `result` at each boundary, played end to end through the records.md contract
(T-22..T-27).
"""

from __future__ import annotations

import pytest

from engine.tractor.scoring import promote
from tests.engine.test_tractor_support import GAME, layout
from tests.engine.tractor_audit_deals import (
    TOP24,
    attacker_sweep,
    scripted_deal,
    sweep_layout,
    ten_bury,
)
from tests.engine.tractor_audit_reference import RANKS, band, card_points


@pytest.mark.parametrize(
    ("last", "per_card"),
    [
        (["RJ"], 1),
        (["RJ", "RJ"], 2),
        (["BJ", "BJ", "RJ", "RJ"], 4),
        (["2S", "2S", "BJ", "BJ", "RJ", "RJ"], 6),
        (["2D", "2D", "2S", "2S", "BJ", "BJ", "RJ", "RJ"], 8),
        ("9S 9S 10S 10S JS JS QS QS KS KS AS AS 2C 2C 2S 2S BJ BJ RJ RJ".split(), 20),
    ],
)
def test_T26_kitty_bonus_multiplier_for_each_last_trick_format(last, per_card):
    """T-26: kitty points x (2 x cards each player played to the last trick): single x2, pair
    x4, tractors of 2, 3, 4 and 10 pairs (D-3 chain) x8, x12, x16, x40."""
    out, actions = attacker_sweep(last, ten_bury)
    res = out["result"]
    kitty_pts = card_points(ten_bury)
    assert res["trump"] == "S" and res["dealer"] == 0
    assert res["kitty_bonus"] == kitty_pts * 2 * per_card
    assert res["attack_points"] == 200 - kitty_pts + kitty_pts * 2 * per_card
    total = res["attack_points"]
    steps = (total - 80) // 40
    assert res["levels_after"] == ["2", RANKS[min(steps, 12)]]
    assert res["next_dealer"] == 1  # T-27: the player after the old dealer
    assert res["match_winner"] == (1 if steps > 12 else None)
    assert out["to_act"] is None and out["phase"] == "over" and out["legal"] == []
    assert out["legal_count"] == 0 and out["applied"] == len(actions)


@pytest.mark.parametrize(("bury", "total", "level"), [
    ("3S 3S 4S 7S 7S 6S 6S 4S".split(), 200, "5"),  # 0 kitty points: 200 -> up 3
    ("3S 3S 4S 7S 7S 6S 5S 5S".split(), 200 - 10 + 20, "5"),  # 210 -> 3
    ("3S 3S 4S 7S 7S 5S 5S KH".split(), 200 - 20 + 40, "5"),  # 220 -> 3
    ("3S 3S 4S 7S 5S 5S KH KH".split(), 200 - 30 + 60, "5"),  # 230 -> 3
    ("3S 3S 4S 7S 5S KH KH 10D".split(), 200 - 35 + 70, "5"),  # 235 -> 3
    ("3S 3S 4S 5S 5S KH KH 10D".split(), 200 - 40 + 80, "6"),  # 240 -> 4
])
def test_T27_band_boundaries_with_a_single_last_trick(bury, total, level):
    out, _ = attacker_sweep(["RJ"], bury)
    res = out["result"]
    assert res["attack_points"] == total
    assert res["levels_after"] == ["2", level]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_T26_T27_defenders_sweep_scores_0_and_the_kitty_nothing(dealer):
    """The dealer holds the top trumps and wins every trick: 0 points, no kitty bonus although
    the kitty holds 70 points (T-26); defenders up 3 and the dealer's partner deals (T-27)."""
    kitty = "KH KH 10H 10H 5H 5H KD KD"
    lay = layout({dealer: " ".join(TOP24 + ["8S"])}, kitty=kitty, levels=("4", "4"),
                 dealer=dealer)
    lay["levels"] = ["2", "2"] if dealer % 2 == 0 else ["3", "2"]
    lay["levels"][dealer % 2] = "2"
    bids = ["declare 2S"] + ["pass"] * 3
    leads = ["8S"] + TOP24
    _s, out, _a = scripted_deal(lay, bids, "bury " + kitty, {dealer: leads})
    res = out["result"]
    assert res["attack_points"] == 0 and res["kitty_bonus"] == 0 and res["trump"] == "S"
    want = list(lay["levels"])
    want[dealer % 2] = "5"
    assert res["levels_after"] == want and res["next_dealer"] == (dealer + 2) % 4
    assert res["dealer"] == dealer and res["match_winner"] is None


def test_T26_defenders_take_the_last_trick_attackers_keep_their_tricks_only():
    lay = layout({0: "3C 3S 3S 8S 8S", 1: " ".join(TOP24 + ["3H"]), 2: "AH"},
                 kitty="7S 7S 6S 6S 5S 5S 4S 4S", exclude={0: "S", 2: "S", 3: "S"})
    rest = list(TOP24)
    rest.remove("9S")
    _s, out, actions = scripted_deal(
        lay, ["pass"] * 4, "bury " + " ".join(lay["kitty"]),
        {0: ["3C"], 1: ["9S"] + rest + ["3H"]}, avoid={2: {"AH"}})
    last = actions[-4:]
    assert last[0] == "3H" and last[1] == "AH"
    res = out["result"]
    assert res["kitty_bonus"] == 0
    assert res["attack_points"] == 200 - 10 - card_points(last)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_T27_every_band_boundary_and_D1_past_A(dealer):
    """0, 5, 35, 40, 75, 80, 115, 120, 155, 160, 195, 200, ... 400 (with kitty bonuses the
    attackers can pass 200), at levels where the promotion stays below, reaches, or passes A."""
    for lv in [(0, 0), (9, 11), (11, 12), (12, 10), (12, 12)]:
        for total in range(0, 405, 5):
            s = promote(total, dealer, lv)
            who, steps = band(total)
            team = dealer % 2 if who == "def" else 1 - dealer % 2
            want = list(lv)
            want[team] += steps
            assert s.levels_after == tuple(want), (total, dealer, lv)
            assert s.next_dealer == ((dealer + 2) % 4 if who == "def" else (dealer + 1) % 4)
            assert s.match_winner == (team if want[team] > 12 else None), (total, lv)
            assert s.attack_points == total


def test_T27_result_json_at_each_boundary_and_A_shown_past_A():
    """deal_result over a finished deal with the attackers' total set to each boundary."""
    _out, actions = attacker_sweep(["RJ"], "3S 3S 4S 7S 7S 6S 6S 4S".split())
    lay = sweep_layout("3S 3S 4S 7S 7S 6S 6S 4S".split())
    state = GAME.from_layout(lay, 0)
    for text in actions:
        state.apply(GAME.parse_action(text))
    assert state.is_over
    for total, want in [(0, ["5", "2"]), (5, ["4", "2"]), (35, ["4", "2"]), (40, ["3", "2"]),
                        (75, ["3", "2"]), (80, ["2", "2"]), (115, ["2", "2"]),
                        (120, ["2", "3"]), (155, ["2", "3"]), (160, ["2", "4"])]:
        state.points, state.bonus = total, 0
        res = GAME.result_json(state)
        assert res["attack_points"] == total and res["levels_after"] == want, total
    state.levels = (12, 11)  # defenders at A, attackers at K
    for total, want, winner in [(0, ["A", "K"], 0), (75, ["A", "K"], 0), (80, ["A", "K"], None),
                                (115, ["A", "K"], None), (120, ["A", "A"], None),
                                (160, ["A", "A"], 1)]:
        state.points, state.bonus = total, 0
        res = GAME.result_json(state)
        assert res["levels_after"] == want and res["match_winner"] == winner, total
