"""Independent audit of the Tractor engine against shared/rules/tractor.md and records.md.

Written by a second engineer from the rules text, not from the engine: the trump order (T-13,
T-14), tractors (T-16, T-17, D-3) at every level and trump, the first deal (T-11, D-2), the end of
bidding (T-10), the kitty multiplier for each last-trick format (T-26), the T-27 bands at every
boundary, the check order of T-28 / records.md, and the replay contract (keys, key order, `legal`
sorted as plain strings and capped at 1000, exit statuses, malformed records) with a seeded fuzz
of the command line that must never print a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import math
import random
import subprocess
import sys
from typing import Any

import pytest

from engine.cli import main as cli_main
from engine.errors import IllegalAction
from engine.records import replay
from engine.tractor.cards import CODES, context, shape
from engine.tractor.scoring import promote
from tests.engine.test_tractor_support import GAME, layout, record

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHCD"
POINT_OF = {"5": 5, "10": 10, "K": 10}


def _rank_suit(code: str) -> tuple[str, str]:
    return code[:-1], code[-1]


def _kind(code: str) -> int:
    return CODES.index(code)


# -- an independent reading of T-13, T-14, T-17 and D-3 ---------------------------------------
@functools.cache
def _strength(code: str, level: str, trump: str) -> tuple[str, int]:
    """(effective suit, strength group) from the rules text alone; trump = "S".."D" or "NT".

    Cards of one effective suit with equal groups are equal (off-suit level cards); consecutive
    groups are consecutive ranks for tractors (T-17, D-3).
    """
    if code == "RJ":
        return "T", 100
    if code == "BJ":
        return "T", 99
    rank, suit = _rank_suit(code)
    plain = [r for r in RANKS if r != level]  # level rank removed (T-14, T-17)
    if rank == level:
        if trump == "NT":
            return "T", 98  # T-13 no-trump: all level cards equal, below the Black Joker
        return "T", 98 if suit == trump else 97  # trump-suit level above off-suit level
    if suit == trump:
        return "T", 85 + plain.index(rank)  # trump suit A..2 below the level cards
    return suit, plain.index(rank)


@functools.cache
def _groups(level: str, trump: str) -> dict[str, list[int]]:
    """Effective suit -> its sorted distinct strength groups, to test adjacency."""
    out: dict[str, set[int]] = {}
    for code in CODES:
        suit, g = _strength(code, level, trump)
        out.setdefault(suit, set()).add(g)
    return {s: sorted(v) for s, v in out.items()}


def _consecutive(level: str, trump: str, a: str, b: str) -> bool:
    sa, ga = _strength(a, level, trump)
    sb, gb = _strength(b, level, trump)
    if sa != sb or ga == gb:
        return False
    order = _groups(level, trump)[sa]
    return abs(order.index(ga) - order.index(gb)) == 1


ALL_TRUMPS = ["S", "H", "C", "D", "NT"]
TRUMP_ID = {"S": 0, "H": 1, "C": 2, "D": 3, "NT": 4}


@pytest.mark.parametrize("level", RANKS)
def test_T13_T14_effective_suit_and_order_of_every_card_at_every_level(level):
    for trump in ALL_TRUMPS:
        ctx = context(RANKS.index(level), TRUMP_ID[trump])
        for a, ca in enumerate(CODES):
            sa, ga = _strength(ca, level, trump)
            assert ctx.is_trump(a) == (sa == "T"), (level, trump, ca)
            if sa != "T":
                assert ctx.eff[a] == SUITS.index(sa), (level, trump, ca)
            for b, cb in enumerate(CODES):
                sb, gb = _strength(cb, level, trump)
                if sa != sb:
                    continue
                assert (ctx.pos[a] < ctx.pos[b]) == (ga < gb), (level, trump, ca, cb)
                assert (ctx.pos[a] == ctx.pos[b]) == (ga == gb), (level, trump, ca, cb)


@pytest.mark.parametrize("level", RANKS)
def test_T17_D3_two_pair_tractors_through_every_rank_at_every_level(level):
    """Every pair of pairs at every level and trump (incl. level A, level 2, no-trump): a
    tractor exactly when the two ranks are adjacent in the effective suit's order."""
    for trump in ALL_TRUMPS:
        ctx = context(RANKS.index(level), TRUMP_ID[trump])
        for a, b in itertools.combinations(range(len(CODES)), 2):
            cards = (a, a, b, b)
            want = _consecutive(level, trump, CODES[a], CODES[b])
            got = shape(ctx, cards)[0] >= 0
            assert got == want, (level, trump, CODES[a], CODES[b])


def _chain(level: str, trump: str) -> list[list[str]]:
    """The trump chain as groups of codes, lowest first (T-13, D-3)."""
    groups: dict[int, list[str]] = {}
    for code in CODES:
        suit, g = _strength(code, level, trump)
        if suit == "T":
            groups.setdefault(g, []).append(code)
    return [groups[g] for g in sorted(groups)]


@pytest.mark.parametrize(("level", "trump"), [("2", "S"), ("A", "H"), ("7", "D"), ("2", "NT"),
                                              ("A", "NT"), ("10", "C"), ("K", "S")])
def test_D3_longest_trump_runs_are_tractors_and_skipping_a_rank_is_not(level, trump):
    ctx = context(RANKS.index(level), TRUMP_ID[trump])
    chain = _chain(level, trump)
    for length in (2, 3, 5, len(chain)):
        for start in range(len(chain) - length + 1):
            codes = [grp[-1] for grp in chain[start:start + length]]
            cards = tuple(sorted(_kind(c) for c in codes for _ in range(2)))
            suit, _top = shape(ctx, cards)
            assert suit == 4, (level, trump, codes)
            # the same run with its second pair replaced by the one two ranks up is broken
            if start + length < len(chain) and length >= 3:
                broken = codes[:1] + codes[2:] + [chain[start + length][-1]]
                cards = tuple(sorted(_kind(c) for c in broken for _ in range(2)))
                assert shape(ctx, cards)[0] < 0, (level, trump, broken)
    # off-suit level pairs are equal and never consecutive with each other (T-17)
    if trump != "NT":
        off = [f"{level}{s}" for s in SUITS if s != trump]
        cards = tuple(sorted(_kind(c) for c in off[:2] for _ in range(2)))
        assert shape(ctx, cards)[0] < 0


# -- whole deals built so that one seat wins every trick (T-22..T-27 end to end) ---------------
TOP24 = ("RJ RJ BJ BJ 2S 2S 2H 2H 2D 2D 2C 2C AS AS KS KS QS QS JS JS 10S 10S 9S 9S").split()
LOW12 = "8S 8S 7S 7S 6S 6S 5S 5S 4S 4S 3S 3S".split()


def _points(codes: list[str]) -> int:
    return sum(POINT_OF.get(_rank_suit(c)[0], 0) for c in codes if c not in ("RJ", "BJ"))


def _scripted_deal(
    lay: dict[str, Any], bids: list[str], bury: str, scripts: dict[int, list[str]],
    avoid: dict[int, set[str]] | None = None,
) -> tuple[int, dict[str, Any], list[str]]:
    """Play a layout: `bids`, the burial, then each seat's scripted plays in turn; a seat
    without a script plays its first legal follow (plain-string order) that keeps the cards in
    `avoid[seat]` when it can. Returns the CLI contract of the whole record and its actions."""
    avoid = avoid or {}
    queues = {s: list(v) for s, v in scripts.items()}
    state = GAME.from_layout(lay, 0)
    actions = list(bids) + [bury]
    for text in actions:
        state.apply(GAME.parse_action(text))
    while not state.is_over:
        seat = state.to_act
        if queues.get(seat):
            text = queues[seat].pop(0)
        else:
            legal, _count = GAME.legal_listing(state)
            keep = avoid.get(seat, set())
            text = next((t for t in legal if not keep & set(t.split())), legal[0])
        state.apply(GAME.parse_action(text))
        actions.append(text)
    assert not any(queues.values()), queues
    status, out = replay(record(lay, actions))
    assert status == 0, out
    return status, out, actions


def _sweep_layout(bury: list[str]) -> dict[str, Any]:
    return layout({0: "3C 3S 3S " + " ".join(c for c in bury if c not in LOW12),
                   1: " ".join(TOP24 + ["8S"]), 2: "8S"},
                  kitty="7S 7S 6S 6S 5S 5S 4S 4S", exclude={2: "S", 3: "S", 0: "S"})


def _attacker_sweep(last_lead: list[str], bury: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Dealer 0, spades trump by four passes (T-10). Seat 1 (attacker) holds the 24 top trumps
    and 8S, trumps the dealer's club lead with 8S, then leads every trick: its other cards as
    singles and `last_lead` (cards of TOP24) as the last trick."""
    lay = _sweep_layout(bury)
    rest = list(TOP24)
    for c in last_lead:
        rest.remove(c)
    leads = ["8S"] + rest + [" ".join(last_lead)]
    _s, out, actions = _scripted_deal(
        lay, ["pass"] * 4, "bury " + " ".join(bury), {0: ["3C"], 1: leads})
    return out, actions


ten_bury = "KH KH 10H 10H 5H 5H KD KD".split()  # 70 points


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
    out, actions = _attacker_sweep(last, ten_bury)
    res = out["result"]
    kitty_pts = _points(ten_bury)
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
    out, _ = _attacker_sweep(["RJ"], bury)
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
    _s, out, _a = _scripted_deal(lay, bids, "bury " + kitty, {dealer: leads})
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
    _s, out, actions = _scripted_deal(
        lay, ["pass"] * 4, "bury " + " ".join(lay["kitty"]),
        {0: ["3C"], 1: ["9S"] + rest + ["3H"]}, avoid={2: {"AH"}})
    last = actions[-4:]
    assert last[0] == "3H" and last[1] == "AH"
    res = out["result"]
    assert res["kitty_bonus"] == 0
    assert res["attack_points"] == 200 - 10 - _points(last)


def _band(total: int) -> tuple[str, int]:
    """T-27 read literally: (team that goes up, levels)."""
    if total == 0:
        return "def", 3
    if 5 <= total <= 35:
        return "def", 2
    if 40 <= total <= 75:
        return "def", 1
    if 80 <= total <= 115:
        return "att", 0
    return "att", (total - 80) // 40


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_T27_every_band_boundary_and_D1_past_A(dealer):
    """0, 5, 35, 40, 75, 80, 115, 120, 155, 160, 195, 200, ... 400 (with kitty bonuses the
    attackers can pass 200), at levels where the promotion stays below, reaches, or passes A."""
    for lv in [(0, 0), (9, 11), (11, 12), (12, 10), (12, 12)]:
        for total in range(0, 405, 5):
            s = promote(total, dealer, lv)
            who, steps = _band(total)
            team = dealer % 2 if who == "def" else 1 - dealer % 2
            want = list(lv)
            want[team] += steps
            assert s.levels_after == tuple(want), (total, dealer, lv)
            assert s.next_dealer == ((dealer + 2) % 4 if who == "def" else (dealer + 1) % 4)
            assert s.match_winner == (team if want[team] > 12 else None), (total, lv)
            assert s.attack_points == total


def test_T27_result_json_at_each_boundary_and_A_shown_past_A():
    """deal_result over a finished deal with the attackers' total set to each boundary."""
    _out, actions = _attacker_sweep(["RJ"], "3S 3S 4S 7S 7S 6S 6S 4S".split())
    lay = _sweep_layout("3S 3S 4S 7S 7S 6S 6S 4S".split())
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


# -- bidding: T-8..T-11, D-2 ---------------------------------------------------------------------
def _run(lay: dict[str, Any], actions: list[str]) -> tuple[int, dict[str, Any]]:
    return replay(record(lay, actions))


def _ok(lay: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    status, out = _run(lay, actions)
    assert status == 0, out
    return out


def _rule(lay: dict[str, Any], actions: list[str]) -> str:
    status, out = _run(lay, actions)
    assert status == 1, out
    assert out["error"]["index"] == len(actions) - 1 and out["applied"] == len(actions) - 1
    return out["error"]["rule"]


def test_T10_T11_D2_first_deal_nobody_declares_bid_start_deals_kitty_suit_is_trump():
    lay = layout({}, kitty="RJ BJ RJ BJ 5D 3S 4S 6S", dealer=None, bid_start=2)
    for n in range(4):
        out = _ok(lay, ["pass"] * n)
        assert out["phase"] == "declare" and out["to_act"] == (2 + n) % 4
    out = _ok(lay, ["pass"] * 4)
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
    out = _ok(lay, acts)
    assert out["phase"] == "declare" and out["to_act"] == 1
    out = _ok(lay, acts + ["pass"])
    assert out["phase"] == "bury" and out["to_act"] == 0  # seat 0 declared first
    state = GAME.from_layout(lay, 0)
    for text in acts + ["pass"]:
        state.apply(GAME.parse_action(text))
    assert state.trump == 4 and state.level == 0  # no-trump by the Black-Joker pair (T-8)


def test_T10_passes_before_a_declaration_do_not_count_towards_three():
    lay = layout({3: "2C"}, dealer=1, levels=("3", "2"))
    acts = ["pass", "pass", "declare 2C", "pass", "pass"]  # seats 1, 2, 3, 0, 1
    assert _ok(lay, acts)["phase"] == "declare"
    out = _ok(lay, acts + ["pass"])
    assert out["phase"] == "bury" and out["to_act"] == 1  # a known dealer stays the dealer


def test_T10_a_passer_may_overcall_later_and_passes_restart():
    lay = layout({0: "2D 2D", 1: "2H"}, dealer=0)
    acts = ["pass", "declare 2H", "pass", "pass", "declare 2D 2D", "pass", "pass"]
    assert _ok(lay, acts)["phase"] == "declare"
    out = _ok(lay, acts + ["pass"])
    assert out["phase"] == "bury" and out["to_act"] == 0
    state = GAME.from_layout(lay, 0)
    for text in acts + ["pass"]:
        state.apply(GAME.parse_action(text))
    assert state.trump == 3


def test_T9_after_a_red_joker_pair_only_pass_is_legal_and_equal_strength_is_refused():
    lay = layout({0: "RJ RJ 2S", 1: "BJ BJ 2H 2H", 2: "2C", 3: "2D 2D"}, dealer=0)
    assert _ok(lay, ["declare RJ RJ"])["legal"] == ["pass"]
    assert _rule(lay, ["declare 2S", "declare 2H"]) == "T-9"
    assert _rule(lay, ["pass", "declare 2H 2H", "pass", "declare 2D 2D"]) == "T-9"
    assert _rule(lay, ["pass", "declare BJ BJ", "pass", "declare 2D 2D"]) == "T-9"
    assert _rule(lay, ["declare 2S", "declare 2H 2H", "pass", "pass", "declare 2S"]) == "T-9"
    out = _ok(lay, ["declare 2S"])
    assert out["legal"] == ["declare 2H 2H", "declare BJ BJ", "pass"]


def test_T7_T8_level_rank_is_the_dealer_teams_level():
    lay = layout({0: "5H 3H", 1: "3S 5S"}, dealer=1, levels=("3", "5"))
    assert _rule(lay, ["declare 3S"]) == "T-8"
    out = _ok(lay, ["declare 5S"])
    assert out["to_act"] == 2
    lay0 = layout({0: "5H 3H", 1: "3S 5S"}, dealer=0, levels=("3", "5"))
    assert _rule(lay0, ["declare 5H"]) == "T-8"
    assert _ok(lay0, ["declare 3H"])["to_act"] == 1


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


# -- T-28 / records.md check order when several rules break at once ----------------------------
def _play_layout() -> dict[str, Any]:
    return layout({0: "2S 9H 9H 10H 10H 3C", 1: "5H 6H 6H 3D", 2: "RJ RJ", 3: "2S 3D"},
                  exclude={0: "S", 1: "H"})


BIDS = ["declare 2S", "pass", "pass", "pass"]


@pytest.mark.parametrize(("actions", "rule"), [
    # declaring: turn, form (T-8), held, strength (T-9)
    (["9H"], "turn"), (["bury 9H"], "turn"), (["declare RJ BJ"], "T-8"),
    (["declare 2S 2S"], "held"), (["declare 3S"], "T-8"), (["declare RJ"], "T-8"),
    (["declare 2S", "declare 2S"], "held"),  # seat 1 has no 2S: held before strength
    (["declare 2S", "pass", "declare RJ"], "T-8"),
    # burying: turn, form (T-15), held
    (BIDS + ["pass"], "turn"), (BIDS + ["9H"], "turn"), (BIDS + ["declare 2S"], "turn"),
    (BIDS + ["bury RJ"], "T-15"), (BIDS + ["bury 9H 9H 10H 10H 3C 2S 3C 3C 3C"], "T-15"),
    (BIDS + ["bury RJ 9H 9H 10H 10H 3C 2S 2D"], "held"),
])
def test_T28_check_order_bidding_and_burial(actions, rule):
    assert _rule(_play_layout(), actions) == rule


def _after_lead(lead: str) -> list[str]:
    lay = _play_layout()
    return BIDS + ["bury " + " ".join(lay["kitty"]), lead]


@pytest.mark.parametrize(("play", "rule"), [
    ("pass", "turn"), ("declare 2S", "turn"), ("bury 9H 9H 10H 10H 3C 2S 3C 3C", "turn"),
    ("9H 10H", "T-16"), ("KC QC", "T-16"), ("RJ RJ RJ", "T-16"), ("9H 9H 9H 9H", "T-16"),
    ("RJ RJ", "held"), ("9H 9H 10H 10H 10H 10H", "T-16"), ("3C 3C", "held"),
])
def test_T28_lead_format_before_held(play, rule):
    lay = _play_layout()
    acts = BIDS + ["bury " + " ".join(lay["kitty"]), play]
    assert _rule(lay, acts) == rule


@pytest.mark.parametrize(("follow", "rule"), [
    ("5H 6H 6H", "T-18"), ("RJ RJ RJ", "T-18"), ("RJ", "T-18"),
    ("RJ RJ", "held"), ("3D 3D", "held"), ("5H 5H", "held"),
    ("5H 3D", "T-19"), ("3D 6H", "T-19"),
    ("5H 6H", "T-20"),
    ("pass", "turn"), ("bury 5H 6H", "turn"), ("declare 2S", "turn"),
])
def test_T28_follow_checks_count_held_suit_pairs(follow, rule):
    lay = _play_layout()
    assert _rule(lay, _after_lead("9H 9H") + [follow]) == rule
    assert _ok(lay, _after_lead("9H 9H") + ["6H 6H"])["to_act"] == 2


def test_records_keys_in_order_and_an_action_after_the_end_is_turn():
    out, actions = _attacker_sweep(["RJ"], ten_bury)
    assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count", "result"]
    assert list(out["result"]) == ["trump", "dealer", "attack_points", "kitty_bonus",
                                   "levels_after", "next_dealer", "match_winner"]
    lay = _sweep_layout(ten_bury)
    for extra in ["pass", "RJ", "bury 2S 2S 2S 2S 2S 2S 2S 2S", "declare RJ RJ"]:
        status, bad = _run(lay, actions + [extra])
        assert status == 1
        assert list(bad) == ["ok", "applied", "error", "to_act", "legal"]
        assert list(bad["error"]) == ["index", "action", "rule", "message"]
        assert bad["ok"] is False and bad["applied"] == len(actions)
        assert bad["error"]["rule"] == "turn" and bad["error"]["action"] == extra
        assert bad["to_act"] is None and bad["legal"] == []
        assert isinstance(bad["error"]["message"], str) and bad["error"]["message"]


# -- `legal` against an independent reading of T-16..T-20 --------------------------------------
def _hand_codes(state: Any, seat: int) -> list[str]:
    return [CODES[k] for k, c in enumerate(state.hands[seat]) for _ in range(c)]


def _my_leads(hand: list[str], level: str, trump: str) -> set[str]:
    """T-16/T-17: singles, pairs, and runs of >= 2 pairs at consecutive ranks (D-3)."""
    out = set()
    distinct = sorted(set(hand), key=_kind)
    pairs = [c for c in distinct if hand.count(c) == 2]
    for c in distinct:
        out.add(c)
    for c in pairs:
        out.add(f"{c} {c}")
    for size in range(2, len(pairs) + 1):
        for combo in itertools.combinations(pairs, size):
            grp = sorted(combo, key=lambda c: _strength(c, level, trump)[1])
            if all(_consecutive(level, trump, a, b) for a, b in itertools.pairwise(grp)):
                out.add(" ".join(sorted([c for c in combo for _ in range(2)], key=_kind)))
    return out


def _my_follows(hand: list[str], lead: list[str], level: str, trump: str) -> set[str]:
    """T-18..T-20 read literally, by brute force over every card set of the lead's size."""
    n = len(lead)
    suit = _strength(lead[0], level, trump)[0]
    in_suit = [c for c in hand if _strength(c, level, trump)[0] == suit]
    held_pairs = sum(1 for c in set(in_suit) if in_suit.count(c) == 2)
    need = min(n // 2, held_pairs) if n >= 2 else 0
    out = set()
    for combo in set(itertools.combinations(sorted(hand, key=_kind), n)):
        played = [c for c in combo if _strength(c, level, trump)[0] == suit]
        if len(played) != min(n, len(in_suit)):
            continue
        if sum(1 for c in set(played) if played.count(c) == 2) < need:
            continue
        out.add(" ".join(combo))
    return out


def test_T16_T20_legal_listing_equals_an_independent_brute_force():
    """Random deals at several levels and trumps: every lead and follow listing (sorted as plain
    strings, first 1000, legal_count) equals the rules read literally."""
    rng = random.Random(20261129)
    checked = 0
    for seed in range(6):
        state = GAME.new_deal(seed)
        state.levels = (seed * 2 % 13, seed * 2 % 13)
        state.level = state.levels[0]
        while not state.is_over:
            if state.phase == "play" and rng.random() < 0.5:
                level = RANKS[state.level]
                trump = ALL_TRUMPS[state.trump]
                hand = _hand_codes(state, state.to_act)
                if not state.trick:
                    want = _my_leads(hand, level, trump)
                elif len(state.trick[0]) <= 4 or len(hand) <= 10:
                    lead = [CODES[k] for k in state.trick[0]]
                    want = _my_follows(hand, lead, level, trump)
                else:
                    want = None
                if want is not None:
                    legal, count = GAME.legal_listing(state)
                    assert count == len(want)
                    assert legal == sorted(want)[:1000]
                    checked += 1
            state.apply(state.random_action(rng))
    assert checked > 100


def test_legal_first_1000_of_a_huge_void_follow_with_forced_cards():
    """A 3-pair tractor led into a seat holding one card of the suit: that card is forced and
    any 5 of its other 24 cards complete the play (tens of thousands): `legal` is the first
    1000 of all of them sorted as plain strings, and `legal_count` the full number."""
    lay = layout({0: "3H 3H 4H 4H 5H 5H 2S", 1: "9H"}, exclude={1: "H"})
    acts = ["declare 2S", "pass", "pass", "pass", "bury " + " ".join(lay["kitty"]),
            "3H 3H 4H 4H 5H 5H"]
    out = _ok(lay, acts)
    state = GAME.from_layout(lay, 0)
    for text in acts:
        state.apply(GAME.parse_action(text))
    hand = _hand_codes(state, 1)
    want = _my_follows(hand, "3H 3H 4H 4H 5H 5H".split(), "2", "S")
    assert out["legal_count"] == len(want) > 4000
    assert out["legal"] == sorted(want)[:1000]
    assert all(" 9H" in t or t.startswith("9H") for t in out["legal"])


def test_legal_listing_by_search_with_small_limits_equals_brute_force():
    """The lazy plain-string listing (used when a set is over 4x the limit) with small limits,
    so it runs on follows that must include pairs (T-20), forced short-suit cards and leads."""
    rng = random.Random(7)
    checked = 0
    for seed in range(10, 14):
        state = GAME.new_deal(seed)
        while not state.is_over:
            if state.phase == "play" and state.trick and len(state.trick[0]) <= 4:
                hand = _hand_codes(state, state.to_act)
                lead = [CODES[k] for k in state.trick[0]]
                want = sorted(_my_follows(hand, lead, RANKS[state.level],
                                          ALL_TRUMPS[state.trump]))
                for limit in (1, 3, 10):
                    legal, count = GAME.legal_listing(state, limit)
                    assert legal == want[:limit] and count == len(want)
                checked += 1
            state.apply(state.random_action(rng))
    assert checked > 50


def test_bury_legal_is_the_first_1000_plain_strings_of_every_burial():
    """records.md: `legal` holds the first 1000 of the sorted canonical texts. Every random
    burial of 8 of the dealer's 33 cards that sorts before the 1000th listed text is listed."""
    rng = random.Random(33)
    for seed in (3, 4):
        state = GAME.new_deal(seed)
        while state.phase == "declare":
            state.apply(state.random_action(rng))
        legal, count = GAME.legal_listing(state)
        assert len(legal) == 1000 and legal == sorted(set(legal))
        hand = _hand_codes(state, state.to_act)
        assert len(hand) == 33
        distinct = len(set(hand))
        pairs = len(hand) - distinct
        want = sum(math.comb(distinct - pairs, 8 - 2 * p - s) * math.comb(pairs, p)
                   * math.comb(pairs - p, s)
                   for p in range(5) for s in range(9 - 2 * p) if 8 - 2 * p - s >= 0)
        assert count == want
        listed = set(legal)
        first = legal[0].split()[1]
        after = sorted(c for c in hand if _kind(c) > _kind(first))[:14]
        hits = 0
        for _ in range(3000):
            text = "bury " + " ".join(sorted([first] + rng.sample(after, 7), key=_kind))
            if text <= legal[-1]:
                assert text in listed, text
                hits += 1
        assert hits > 50
        # the smallest burials by construction: the hand's string-smallest codes first
        for text in legal[:20]:
            clone = state.clone()
            clone.apply(GAME.parse_action(text))


# -- malformed records (exit 2, one line) and a seeded fuzz of the replay command line ------------
def _cli(payload: str | bytes) -> tuple[int, str, str]:
    """`python -m engine replay -` in-process: (status, stdout, stderr)."""
    data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli_main(["replay", "-"])
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def _check_contract(status: int, stdout: str, stderr: str) -> dict[str, Any] | None:
    assert status in (0, 1, 2), (status, stderr)
    assert "Traceback" not in stdout + stderr
    if status == 2:
        assert stdout == "" and stderr.endswith("\n") and stderr.count("\n") == 1, stderr
        return None
    assert stderr == "" and stdout.endswith("\n") and stdout.count("\n") == 1
    out = json.loads(stdout)
    if status == 0:
        assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count",
                             "result"]
        assert out["ok"] is True and out["legal_count"] >= len(out["legal"])
        assert (out["to_act"] is None) == (out["phase"] == "over") == (out["result"] is not None)
    else:
        assert list(out) == ["ok", "applied", "error", "to_act", "legal"]
        assert out["ok"] is False and out["applied"] == out["error"]["index"]
    assert out["legal"] == sorted(out["legal"]) and len(out["legal"]) <= 1000
    return out


def _base_record(seed: int, steps: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = GAME.new_deal(seed)
    lay = GAME.layout_of(state)
    actions = []
    for _ in range(steps):
        if state.is_over:
            break
        action = state.random_action(rng)
        actions.append(GAME.format_action(action))
        state.apply(action)
    return {"game": "tractor", "seed": seed, "layout": lay, "actions": actions}


MALFORMED_LAYOUTS = [
    lambda lay: lay["hands"][0].pop(),  # 24 cards
    lambda lay: lay["hands"][1].append("2H"),  # 26 cards
    lambda lay: lay["kitty"].pop(),  # 7
    lambda lay: lay["kitty"].append("RJ"),  # 9
    lambda lay: lay["hands"].pop(),  # 3 hands
    lambda lay: lay["hands"].__setitem__(0, ["RJ"] * 25),  # too many copies
    lambda lay: lay["hands"][2].__setitem__(0, lay["hands"][3][0]),  # 3 copies, one missing
    lambda lay: lay["kitty"].__setitem__(0, "rj"),  # case-sensitive codes
    lambda lay: lay["kitty"].__setitem__(0, "1H"),
    lambda lay: lay["hands"][0].__setitem__(3, 10),
    lambda lay: lay.__setitem__("hands", "x"),
    lambda lay: lay.pop("hands"),
    lambda lay: lay.pop("kitty"),
    lambda lay: lay.__setitem__("levels", ["2"]),
    lambda lay: lay.__setitem__("levels", ["1", "2"]),
    lambda lay: lay.__setitem__("levels", ["3", "2"]),  # dealer null needs 2, 2
    lambda lay: lay.__setitem__("dealer", 4),
    lambda lay: lay.__setitem__("dealer", "0"),
    lambda lay: lay.__setitem__("dealer", True),
    lambda lay: lay.__setitem__("bid_start", 7),
    lambda lay: lay.update(dealer=1, bid_start=2),  # known dealer: bid_start must equal it
]


@pytest.mark.parametrize("mutate", range(len(MALFORMED_LAYOUTS)))
def test_records_malformed_layouts_exit_2_even_after_an_illegal_action(mutate):
    rec = _base_record(1, 0)
    rec["actions"] = ["bury RJ RJ RJ RJ RJ RJ RJ RJ"]  # illegal (turn), but parsing comes first
    MALFORMED_LAYOUTS[mutate](rec["layout"])
    status, stdout, stderr = _cli(json.dumps(rec))
    assert status == 2 and _check_contract(status, stdout, stderr) is None


@pytest.mark.parametrize("text", [
    "", "   ", "declare", "bury", "declare   ", "2h", "rj", "Pass", "PASS", "pass 2H",
    "declare 2h", "bury 2H 2H 2H 2H 2H 2H 2H x", "10", "1H", "11H", "2H,3H", "2H;", "♥2",
    "play 2H", "2HH", "H2", "0S", "JJ", "10 H",
])
def test_records_actions_that_do_not_parse_exit_2_even_after_an_illegal_one(text):
    rec = _base_record(2, 0)
    rec["actions"] = ["RJ RJ RJ", text]  # the first is illegal: the whole record parses first
    status, stdout, stderr = _cli(json.dumps(rec))
    assert status == 2 and _check_contract(status, stdout, stderr) is None


def test_records_spacing_card_order_extra_keys_and_missing_actions():
    rec = _base_record(5, 60)
    status, stdout, _e = _cli(json.dumps(rec))
    want = json.loads(stdout)
    assert status == 0 and want["applied"] == 60
    rng = random.Random(5)
    noisy = []
    for text in rec["actions"]:
        words = text.split()
        head = [words.pop(0)] if words[0] in ("declare", "bury", "pass") else []
        rng.shuffle(words)
        noisy.append("\t " + "  \n".join(head + words) + " ")
    again = dict(rec, actions=noisy, expect={"x": 1}, description="noise")
    status, stdout, _e = _cli(json.dumps(again))
    assert status == 0 and json.loads(stdout) == want
    bare = {k: v for k, v in rec.items() if k != "actions"}
    status, stdout, _e = _cli(json.dumps(bare))
    out = json.loads(stdout)
    assert status == 0 and out["applied"] == 0 and out["phase"] == "declare"


JUNK: list[Any] = [None, True, False, 0, -1, 3, 10**30, -(10**20), 1.5, float("inf"), "", "x",
                   "RJ", "2H 2H", "pass", [], {}, [[["deep"]]], {"a": {"b": [1, None]}},
                   ["RJ"] * 30, "bury", "\u0000", "declare\u00a0RJ RJ", list(range(5))]


def _mutate(rng: random.Random, rec: dict[str, Any]) -> Any:
    rec = json.loads(json.dumps(rec))
    lay, acts = rec["layout"], rec["actions"]
    roll = rng.randrange(12)
    junk = JUNK[rng.randrange(len(JUNK))]
    if roll == 0:
        rec[rng.choice(["game", "seed", "layout", "actions"])] = junk
    elif roll == 1:
        lay[rng.choice(["levels", "dealer", "bid_start", "hands", "kitty"])] = junk
    elif roll == 2:
        hand = lay["hands"][rng.randrange(4)]
        hand[rng.randrange(len(hand))] = junk
    elif roll == 3 and acts:
        acts[rng.randrange(len(acts))] = junk
    elif roll == 4 and acts:
        i = rng.randrange(len(acts))
        acts[i] = acts[i][: rng.randrange(len(acts[i]) + 1)]  # truncated action
    elif roll == 5 and acts:
        del acts[rng.randrange(len(acts))]  # an action missing: usually illegal later
    elif roll == 6:
        a, b = rng.sample(range(4), 2)  # swap cards between hands: still a valid layout
        i, j = rng.randrange(25), rng.randrange(25)
        lay["hands"][a][i], lay["hands"][b][j] = lay["hands"][b][j], lay["hands"][a][i]
    elif roll == 7:
        acts.insert(rng.randrange(len(acts) + 1), rng.choice(CODES) + " " + rng.choice(CODES))
    elif roll == 8:
        text = json.dumps(rec)
        return text[: rng.randrange(len(text))]  # truncated JSON
    elif roll == 9:
        rec["layout"] = None if rng.random() < 0.5 else rec["layout"]
        lay["dealer"] = rng.choice([None, 0, 1, 2, 3])
        lay["levels"] = [rng.choice(RANKS), rng.choice(RANKS)]
        lay.pop("bid_start", None)
    elif roll == 10:
        acts.append(rng.choice(["pass", "declare RJ RJ", "bury " + " ".join(lay["kitty"])]))
    else:
        rec = [rec] if rng.random() < 0.5 else junk
    return rec


def test_fuzz_replay_cli_never_prints_a_traceback():
    """Seeded mutations of real records: exit 0, 1 or 2; JSON on stdout for 0/1; exactly one
    line on stderr for 2; never a traceback (records.md)."""
    rng = random.Random(2026)
    bases = [_base_record(seed, rng.randrange(0, 110)) for seed in range(8)]
    seen = set()
    for i in range(500):
        rec = _mutate(rng, bases[i % len(bases)])
        text = rec if isinstance(rec, str) else json.dumps(rec)
        status, stdout, stderr = _cli(text)
        _check_contract(status, stdout, stderr)
        seen.add(status)
    for raw in (b"\xff\xfe{", b"{\"game\": \"tractor\", \"seed\": 1e400}", b"[" * 50000,
                b"{\"game\": \"tractor\", \"seed\": " + b"9" * 5000 + b"}"):
        _check_contract(*_cli(raw))
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("payload", [
    json.dumps({"game": "tractor", "seed": 3, "actions": ["pass", "pass", "RJ"]}),
    json.dumps({"game": "tractor", "seed": 3, "actions": ["pass", "Pass"]}),
    "{not json",
])
def test_fuzz_replay_subprocess_exit_statuses(payload):
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=payload,
                          capture_output=True, text=True, timeout=60)
    out = _check_contract(proc.returncode, proc.stdout, proc.stderr)
    if out is not None:
        assert proc.returncode == 1 and out["error"]["rule"] in ("turn", "held", "T-8", "T-9")


# -- an independent oracle for whole deals: bidding, trick winners, points, result --------------
def _my_format(cards: list[str], level: str, trump: str) -> tuple[str, int, int] | None:
    """(effective suit, pairs or 0 for a single, top group) if a single/pair/tractor, else None."""
    suits = {_strength(c, level, trump)[0] for c in cards}
    if len(suits) != 1:
        return None
    suit = suits.pop()
    groups = [_strength(c, level, trump)[1] for c in cards]
    if len(cards) == 1:
        return suit, 0, groups[0]
    if len(cards) % 2 or any(cards.count(c) != 2 for c in cards):
        return None
    distinct = sorted(set(cards), key=lambda c: _strength(c, level, trump)[1])
    if all(_consecutive(level, trump, a, b) for a, b in itertools.pairwise(distinct)):
        return suit, len(distinct), max(groups)
    return None


def _my_winner(plays: list[list[str]], leader: int, level: str, trump: str) -> int:
    """T-22, T-23 read literally."""
    lead = _my_format(plays[0], level, trump)
    assert lead is not None
    best, best_key = 0, (lead[0] == "T", lead[2])
    for i, cards in enumerate(plays[1:], start=1):
        f = _my_format(cards, level, trump)
        if f is None or f[1] != lead[1]:
            continue
        if f[0] != lead[0] and not (f[0] == "T" and lead[0] != "T"):
            continue
        key = (f[0] == "T", f[2])
        if key > best_key:
            best, best_key = i, key
    return (leader + best) % 4


def _my_bidding(bids: list[tuple[int, str]], dealer: int | None, bid_start: int,
                kitty: list[str]) -> tuple[int, str]:
    """T-8..T-11 read literally: (dealer, trump) once bidding is over."""
    strength = {"RJ RJ": 4, "BJ BJ": 3}
    first = None
    standing = None
    for seat, text in bids:
        if text == "pass":
            continue
        cards = text.split()[1:]
        first = seat if first is None else first
        standing = (strength.get(" ".join(cards), len(cards)), cards[0])
    if standing is None:
        suit = next(c for c in kitty if c not in ("RJ", "BJ"))[-1]
        return (bid_start if dealer is None else dealer), suit
    trump = "NT" if standing[1] in ("RJ", "BJ") else standing[1][-1]
    return (first if dealer is None else dealer), trump


@pytest.mark.parametrize("seed", range(24))
def test_random_deals_match_an_independent_oracle_of_T10_T11_T22_T27(seed):
    rng = random.Random(1000 + seed)
    lay = GAME.layout_of(GAME.new_deal(seed))
    if seed % 2:  # a later deal: known dealer, any levels
        lay["dealer"] = rng.randrange(4)
        lay["levels"] = [rng.choice(RANKS), rng.choice(RANKS)]
        lay["bid_start"] = lay["dealer"]
    state = GAME.from_layout(lay, seed)
    texts: list[str] = []
    while not state.is_over:
        if state.phase == "declare" and rng.random() < 0.6:
            action = GAME.parse_action("pass")  # more passes: reach every end of bidding
        elif state.phase == "play" and not state.trick and rng.random() < 0.7:
            leads = state.legal_actions()  # lead long: pairs and tractors decide more tricks
            action = max(leads, key=lambda a: (len(a), rng.random()))
        else:
            action = state.random_action(rng)
        texts.append(GAME.format_action(action))
        state.apply(action)
    status, out = replay(record(lay, texts, seed))
    assert status == 0
    res = out["result"]
    n_bids = next(i for i, t in enumerate(texts) if t.startswith("bury"))
    bid_seat = lay["bid_start"] if "bid_start" in lay else state.bid_start
    bids = [((bid_seat + i) % 4, t) for i, t in enumerate(texts[:n_bids])]
    dealer, trump = _my_bidding(bids, lay["dealer"], bid_seat, lay["kitty"])
    assert (res["dealer"], res["trump"]) == (dealer, trump)
    level = lay["levels"][dealer % 2] if lay["dealer"] is not None else "2"
    buried = texts[n_bids].split()[1:]
    plays = texts[n_bids + 1:]
    leader, attack, last_n, last_winner = dealer, 0, 0, -1
    for t in range(0, len(plays), 4):
        trick = [p.split() for p in plays[t:t + 4]]
        winner = _my_winner(trick, leader, level, trump)
        if winner % 2 != dealer % 2:
            attack += sum(_points(p) for p in trick)
        leader, last_n, last_winner = winner, len(trick[0]), winner
    assert len(plays) == 4 * len(state.tricks)
    bonus = _points(buried) * 2 * last_n if last_winner % 2 != dealer % 2 else 0
    assert res["kitty_bonus"] == bonus and res["attack_points"] == attack + bonus
    who, steps = _band(attack + bonus)
    team = dealer % 2 if who == "def" else 1 - dealer % 2
    after = [RANKS.index(v) for v in lay["levels"]]
    after[team] += steps
    assert res["levels_after"] == [RANKS[min(v, 12)] for v in after]
    assert res["match_winner"] == (team if after[team] > 12 else None)
    assert res["next_dealer"] == ((dealer + 2) % 4 if who == "def" else (dealer + 1) % 4)


def _my_rule(state: Any, text: str) -> str | None:
    """The rule records.md / T-28 report for `text` in `state`, read from the rules alone
    (None = legal): turn, form, held, then T-9 / T-19 / T-20."""
    words = text.split()
    verb = words[0] if words[0] in ("pass", "declare", "bury") else None
    cards = words[1:] if verb else words
    if state.phase == "over":
        return "turn"
    hand = _hand_codes(state, state.to_act)
    held = all(cards.count(c) <= hand.count(c) for c in set(cards))
    level = RANKS[state.level]
    if state.phase == "declare":
        if verb == "pass":
            return None
        if verb != "declare":
            return "turn"
        joined = " ".join(cards)
        if joined in ("RJ RJ", "BJ BJ"):
            strength = 4 if joined == "RJ RJ" else 3
        elif len(cards) in (1, 2) and len(set(cards)) == 1 and _rank_suit(cards[0])[0] == level:
            strength = len(cards)
        else:
            return "T-8"
        if not held:
            return "held"
        standing = 0
        for _seat, action in state.bids:
            if action[0] == -2:
                standing = max(standing, {0: 4, 1: 3}.get(action[1], len(action) - 1))
        return None if strength > standing else "T-9"
    if state.phase == "bury":
        if verb != "bury":
            return "turn"
        if len(cards) != 8:
            return "T-15"
        return None if held else "held"
    if verb:
        return "turn"
    trump = ALL_TRUMPS[state.trump]
    if not state.trick:
        if _my_format(cards, level, trump) is None:
            return "T-16"
        return None if held else "held"
    lead = [CODES[k] for k in state.trick[0]]
    n = len(lead)
    if len(cards) != n:
        return "T-18"
    if not held:
        return "held"
    suit = _strength(lead[0], level, trump)[0]
    in_suit = [c for c in hand if _strength(c, level, trump)[0] == suit]
    played = [c for c in cards if _strength(c, level, trump)[0] == suit]
    if len(played) != min(n, len(in_suit)):
        return "T-19"
    need = min(n // 2, sum(1 for c in set(in_suit) if in_suit.count(c) == 2)) if n > 1 else 0
    if sum(1 for c in set(played) if played.count(c) == 2) < need:
        return "T-20"
    return None


def _candidates(state: Any, rng: random.Random) -> list[str]:
    hand = _hand_codes(state, state.to_act) if state.to_act is not None else []
    out = ["pass", "declare RJ RJ", "declare BJ BJ"]
    for _ in range(6):
        size = rng.choice([1, 1, 2, 2, 3, 4, 6, 8])
        pool = hand if hand and rng.random() < 0.8 else list(CODES)
        picked = [rng.choice(pool) for _ in range(size)]
        if rng.random() < 0.4 and picked:
            picked = [picked[0]] * 2 + picked[2:]  # pairs more often
        text = " ".join(picked)
        out += [text, "declare " + text, "bury " + text]
    if hand:
        out.append("bury " + " ".join(rng.sample(hand, min(8, len(hand)))))
        lvl = [c for c in hand if _rank_suit(c)[0] == RANKS[state.level]]
        out += [f"declare {c}" for c in lvl] + [f"declare {c} {c}" for c in lvl]
    if state.phase == "play" and state.trick:  # in-suit singles only: T-20 when pairs are held
        lead = state.trick[0]
        suited = sorted({CODES[k] for k in state.ctx.suit_kinds[state.lead_suit]
                         if state.hands[state.to_act][k]})
        if len(suited) >= len(lead):
            out.append(" ".join(rng.sample(suited, len(lead))))
    legal, _count = GAME.legal_listing(state, 5) if not state.is_over else ([], 0)
    return out + legal


def test_T28_random_actions_get_the_rule_an_independent_check_order_predicts():
    """Thousands of random actions (held or not, any size, any verb) in random positions: the
    engine accepts exactly what the rules accept, reports the rule the records.md order names,
    and leaves the state unchanged when it refuses."""
    rng = random.Random(424242)
    tried = set()
    for seed in range(5):
        state = GAME.new_deal(seed)
        while True:
            for text in _candidates(state, rng):
                want = _my_rule(state, text)
                before = state.snapshot()
                clone = state.clone()
                try:
                    clone.apply(GAME.parse_action(text))
                    got = None
                except IllegalAction as exc:
                    got = exc.rule
                    assert state.snapshot() == before
                assert got == want, (text, state.phase, want, got)
                tried.add(want)
            if state.phase == "declare":  # the listing holds exactly the accepted bids
                lvl = RANKS[state.level]
                bids = ["pass", "declare RJ RJ", "declare BJ BJ"]
                bids += [f"declare {lvl}{s}" for s in SUITS]
                bids += [f"declare {lvl}{s} {lvl}{s}" for s in SUITS]
                want = sorted(b for b in bids if _my_rule(state, b) is None)
                assert GAME.legal_listing(state) == (want, len(want))
            if state.is_over:
                break
            state.apply(state.random_action(rng))
    assert tried >= {None, "turn", "held", "T-8", "T-9", "T-15", "T-16", "T-18", "T-19", "T-20"}


# -- ties and equal trumps decided by play order (T-13, T-22, T-23) ------------------------------
def _first_trick_winner(lay: dict[str, Any], bids: list[str], plays: list[str]) -> int:
    out = _ok(lay, bids + ["bury " + " ".join(lay["kitty"])] + plays)
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
