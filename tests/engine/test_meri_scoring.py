"""Meri deal results and match standings (engine.meri.scoring, MeriMatch.result): H-2..H-4,
H-12, H-13, H-21, H-24, H-29..H-33, D-2..D-4, D-9, each on an exact position.

Positions are records: the fixture `records/meri/h29_d3_trick_9_combination.json` (a whole deal)
or a `engine.meri.positions.layout` whose trick 1 is played card by card; the rest of such a deal
is a seeded random playout, so only trick 1 and the totals' arithmetic are pinned there.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import registry
from engine.meri import DECLARE, PASS, card_actions, is_card
from engine.meri.cards import CARD_OF, PLAIN_RANK, TRUMP_MASK, TRUMP_RANK
from engine.meri.positions import layout
from engine.meri.scoring import (
    ALL_PASSED,
    COMBINATION,
    COMBINATION_TRICK_9,
    COMBINATION_UNDECLARED,
    DECLARED,
    FACE_DOWN_TRUMPS,
    MERI,
    NOT_DEALT,
    NOT_DECLARED,
    OKIE_IS_ROBAI,
    TEAM_TOTAL,
    TRICK_WON,
)
from engine.records import GameRecord
from engine.result import DealResult, Line, MatchResult

GAME = registry.get("meri")
RECORDS = Path(__file__).parent / "records" / "meri"
TEAMS = ((0, 2, 4, 6), (1, 3, 5, 7))


def weakest(state, keep: set[int]) -> int:
    """The legal action a harmless player takes: a plain card before a trump, the weakest first,
    never a card the test placed if avoidable."""
    tmask = TRUMP_MASK[state.trump]
    return min(state.legal_actions(), key=lambda c: (
        c in keep, bool(tmask >> c & 1), TRUMP_RANK[state.trump][c], PLAIN_RANK[c], c))


def position(hands: dict[int, str], undealt: str, script: list[str | None], dealer: int = 0,
             sinks=None, finish: int = 0):
    """The layout's deal after `script` (action words; None = `weakest`), then played out from
    `random.Random(finish)`. The unplaced trumps go to `sinks` (default: the unplaced seats)."""
    placed = {CARD_OF[w] for text in hands.values() for w in text.split()}
    if sinks is None:
        sinks = [s for s in range(8) if s not in hands]
    record = {"game": "meri", "seed": 0, "actions": [],
              "layout": layout(hands, undealt, dealer=dealer, sinks=sinks)}
    state = GameRecord.from_json(record).state
    for word in script:
        state.apply(weakest(state, placed) if word is None else GAME.parse_action(word))
    GAME.playout(state, random.Random(finish))
    return state


def trick_one(hands: dict[int, str], undealt: str, lead: str, plays: dict[int, str],
              sinks=None):
    """Dealer 0 takes the Okie (all pass), discards its weakest card and leads `lead`;
    `plays[seat]` go to trick 1, the other seats play `weakest`; then a seeded playout."""
    script: list[str | None] = ["pass"] * 8 + [None, lead]
    script += [plays.get(seat) for seat in range(1, 8)]
    state = position(hands, undealt, script, sinks=sinks)
    assert state.result["tricks"][0]["leader"] == 0
    return state


def trick_lines(result: DealResult, number: int) -> list[Line]:
    return [line for line in result.lines if line.args.get("n") == number]


def check_totals(state, result: DealResult) -> None:
    """H-30, H-33: each side's score is its tricks plus the transfers in minus out; sum 9."""
    tricks = state.result["tricks"]
    for team, side in enumerate(result.sides):
        won = sum(1 for t in tricks if t["winner"] & 1 == team)
        moved = sum(t["transfer"] if t["winner"] & 1 == team else -t["transfer"] for t in tricks)
        assert side.seats == TEAMS[team] and side.score == won + moved
        assert side.lines == (Line(TEAM_TOTAL, {"team": team, "tricks": won, "transfers": moved,
                                                "score": won + moved}),)
    a, b = (side.score for side in result.sides)
    assert a + b == 9 and result.winners == ((0,) if a > b else (1,))


def test_H29_D3_H32_whole_deal_result_from_the_record_fixture() -> None:
    """Trick 9's KSu over KUn transfers 5 (H-29, D-3, H-32); team 1 wins -3 to 12 (H-33)."""
    record = json.loads((RECORDS / "h29_d3_trick_9_combination.json").read_text())
    state = GameRecord.from_json(record).state
    result = GAME.deal_result(state)
    assert [s.seats for s in result.sides] == list(GAME.teams) == list(TEAMS)  # H-2
    assert [s.score for s in result.sides] == [-3, 12] and result.winners == (1,)
    assert result.sides[0].lines == (
        Line(TEAM_TOTAL, {"team": 0, "tricks": 2, "transfers": -5, "score": -3}),)
    assert result.sides[1].lines == (
        Line(TEAM_TOTAL, {"team": 1, "tricks": 7, "transfers": 5, "score": 12}),)
    won = [(4, "K6"), (7, "K2"), (5, "KRe"), (7, "KSo"), (4, "KRo"), (3, "ORe"), (3, "OUn"),
           (3, "OSu"), (1, "KSu")]
    down = {1: 4, 2: 4, 3: 3, 4: 2, 5: 1}  # H-24: trumps on the plain leads of tricks 1-5
    expected = [Line(ALL_PASSED, {"seat": 0}), Line(NOT_DECLARED, {"card": "KRo"})]  # H-12, H-13
    for n, (seat, card) in enumerate(won, start=1):
        expected.append(Line(TRICK_WON, {"n": n, "seat": seat, "card": card, "team": seat & 1}))
        if n in down:
            expected.append(Line(FACE_DOWN_TRUMPS, {"n": n, "count": down[n]}))
    expected.append(Line(COMBINATION_TRICK_9, {"n": 9, "w": "KSu", "y": "KUn", "points": 5,
                                               "loser": 0, "team": 1}))
    assert list(result.lines) == expected
    assert expected[-1].render() == (
        "Combination KSu over KUn in trick 9: 5 points from team 0 to team 1")
    assert expected[-1].render(side_name=lambda t: ["Us", "Them"][t]) == (
        "Combination KSu over KUn in trick 9: 5 points from Us to Them")
    check_totals(state, result)


def test_deal_result_refuses_a_deal_in_progress() -> None:
    state = GAME.new_deal(3)
    with pytest.raises(ValueError):
        GAME.deal_result(state)
    assert GAME.result_json(state) is None


@pytest.mark.parametrize(
    ("y", "w", "points", "text"),
    [
        ("KUn", "KSu", 2, COMBINATION),  # H-31 Sun–Un, H-32: 2 points
        ("KRo", "KSo", 5, COMBINATION_UNDECLARED),  # H-32: undeclared native Robai, 5 points
        ("KRe", "KRo", 5, COMBINATION_UNDECLARED),
        ("K9", "K8", 2, COMBINATION),  # round trump suit: 8–9
    ],
)
def test_H31_H32_H24_a_trick_1_combination_and_its_face_down_trumps(y, w, points, text) -> None:
    state = trick_one({0: "GSu", 1: y, 2: w}, "K5", "GSu", {1: y, 2: w})
    result = GAME.deal_result(state)
    assert list(result.lines[:2]) == [Line(ALL_PASSED, {"seat": 0}),
                                      Line(NOT_DECLARED, {"card": "KRo"})]
    assert trick_lines(result, 1) == [
        Line(TRICK_WON, {"n": 1, "seat": 2, "card": w, "team": 0}),
        Line(FACE_DOWN_TRUMPS, {"n": 1, "count": 2}),
        Line(text, {"n": 1, "w": w, "y": y, "points": points, "loser": 1, "team": 0}),
    ]
    assert state.result["tricks"][0]["transfer"] == points
    check_totals(state, result)


def test_D4_the_beaten_trumps_team_pays() -> None:
    state = trick_one({0: "GSu", 1: "KSu", 2: "KUn"}, "K5", "GSu", {1: "KSu", 2: "KUn"})
    result = GAME.deal_result(state)
    assert trick_lines(result, 1)[-1] == Line(COMBINATION, {
        "n": 1, "w": "KSu", "y": "KUn", "points": 2, "loser": 0, "team": 1})
    check_totals(state, result)


def test_H12_H13_H32_a_declared_robai_is_said_and_its_combination_transfers_2() -> None:
    """Seat 1 declares KRo (H-12) and takes the Okie (H-13); seat 2 wins trick 1 with PSu and
    leads P2; seat 4's KSo beats seat 1's KRo: Sota–Robai, declared, 2 points (H-32)."""
    state = position({1: "KRo P1", 2: "PSu P2", 4: "KSo"}, "K5",
                     ["declare", None, "P1", "PSu"] + [None] * 6
                     + ["P2", None, "KSo", None, None, None, None, "KRo"], sinks=[3, 5, 6, 7])
    result = GAME.deal_result(state)
    assert result.lines[0] == Line(DECLARED, {"seat": 1, "card": "KRo"})
    assert result.lines[1] == Line(TRICK_WON, {"n": 1, "seat": 2, "card": "PSu", "team": 0})
    assert trick_lines(result, 2) == [
        Line(TRICK_WON, {"n": 2, "seat": 4, "card": "KSo", "team": 0}),
        Line(FACE_DOWN_TRUMPS, {"n": 2, "count": 2}),
        Line(COMBINATION, {"n": 2, "w": "KSo", "y": "KRo", "points": 2, "loser": 1, "team": 0}),
    ]
    check_totals(state, result)


def test_D9_an_okie_robai_counts_as_declared() -> None:
    state = trick_one({0: "GSu"}, "KRo", "GSu", {})
    assert list(GAME.deal_result(state).lines[:2]) == [
        Line(OKIE_IS_ROBAI, {"card": "KRo"}), Line(ALL_PASSED, {"seat": 0})]


def test_H12_an_undealt_native_robai_is_not_dealt() -> None:
    state = trick_one({0: "GSu"}, "K5 KRo", "GSu", {})
    assert list(GAME.deal_result(state).lines[:2]) == [
        Line(ALL_PASSED, {"seat": 0}), Line(NOT_DEALT, {"card": "KRo"})]


def test_H21_D2_a_meri_says_no_combination_and_has_no_face_down_trump() -> None:
    """An all-trump receiver leads KKa in trick 1 (D-2): a Meri (H-21); seat 1 must follow
    with a trump (H-25) and plays its weakest, K9; KKa wins it; no combination (H-31)."""
    state = trick_one({0: "KSu KUn KSo KRo KRe KKa K1 K2 K3"}, "K5", "KKa", {}, sinks=[1])
    assert state.result["tricks"][0]["meri"]
    assert state.result["tricks"][0]["cards"][1] == "K9"
    result = GAME.deal_result(state)
    assert trick_lines(result, 1) == [
        Line(TRICK_WON, {"n": 1, "seat": 0, "card": "KKa", "team": 0}),
        Line(MERI, {"n": 1}),
    ]
    check_totals(state, result)


@pytest.mark.parametrize("seed", range(12))
def test_H30_H33_every_trick_is_explained_on_random_deals(seed: int) -> None:
    state = GAME.new_deal(seed)
    GAME.playout(state, random.Random(seed))
    result = GAME.deal_result(state)
    check_totals(state, result)
    for n, trick in enumerate(state.result["tricks"], start=1):
        lines = trick_lines(result, n)
        assert lines[0] == Line(TRICK_WON, {"n": n, "seat": trick["winner"],
                                            "card": trick["cards"][trick["winner"]],
                                            "team": trick["winner"] & 1})
        texts = [line.text for line in lines[1:]]
        if trick["meri"]:
            assert texts == [MERI]
        combos = [line for line in lines if "points" in line.args]
        assert [line.args["points"] for line in combos] == ([trick["transfer"]]
                                                            if trick["transfer"] else [])


def test_legal_cards_tell_cards_from_declaration_answers() -> None:
    state = GAME.from_layout(layout({1: "KRo"}, "K5", sinks=[2, 3]), 0)
    assert state.legal_actions() == [DECLARE, PASS]
    assert not is_card(DECLARE) and not is_card(PASS) and is_card(0) and is_card(74)
    assert card_actions(state.legal_actions()) == [] == state.observation(1).legal_cards()
    for _ in range(8):
        state.apply(PASS)
    obs = state.observation(0)
    assert obs.legal_cards() == obs.legal_actions() == state.legal_actions() != []


# ---- the match --------------------------------------------------------------------------------
def test_H3_H4_match_result_follows_the_deals() -> None:
    match = GAME.new_match(8)
    start = match.result()
    assert isinstance(start, MatchResult)
    assert (start.deals_played, start.deals_total, start.over, start.winner) == (0, 8, False, None)
    assert [(s.seats, s.score, s.lines) for s in start.sides] == [(TEAMS[0], 0, ()),
                                                                  (TEAMS[1], 0, ())]
    scores: list[list[int]] = []
    while not match.is_over:
        state = match.next_deal()
        GAME.playout(state, random.Random(len(scores)))
        scores.append([side.score for side in GAME.deal_result(state).sides])
        match.finish_deal(state)
    result = match.result()
    totals = [sum(s[0] for s in scores), sum(s[1] for s in scores)]
    assert [s.score for s in result.sides] == totals and sum(totals) == 72
    for team, side in enumerate(result.sides):
        assert side.lines == tuple(Line("Deal {n}: {score}", {"n": n, "score": s[team]})
                                   for n, s in enumerate(scores, start=1))
    winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])  # H-4
    assert (result.deals_played, result.over, result.winner) == (8, True, winner)
    assert result.lines[0] == Line("Match after deal {done} of {deals}: {us} to {them}",
                                   {"done": 8, "deals": 8, "us": totals[0], "them": totals[1]})


def test_H4_match_result_winner_and_draw() -> None:
    data = GAME.new_match(1).to_dict()
    won = GAME.restore_match({**data, "deals_played": 8, "scores": [30, 42],
                              "deal_scores": [[3, 6]] * 8}).result()
    assert (won.over, won.winner, [s.score for s in won.sides]) == (True, 1, [30, 42])
    assert won.lines[-1] == Line("{team} wins the match.", {"team": 1})
    assert won.side_of(5) == 1 and won.side_of(4) == 0
    drawn = GAME.restore_match({**data, "deals_played": 8, "scores": [36, 36],
                                "deal_scores": [[0, 0]] * 8}).result()
    assert (drawn.over, drawn.winner) == (True, None)
    assert drawn.lines[-1] == Line("The match is a draw.")
    going = GAME.restore_match({**data, "deals_played": 3, "scores": [20, 7],
                                "deal_scores": [[5, 4], [9, 0], [6, 3]]}).result()
    assert (going.over, going.winner, going.deals_played) == (False, None, 3)
    assert going.sides[1].lines == (Line("Deal {n}: {score}", {"n": 1, "score": 4}),
                                    Line("Deal {n}: {score}", {"n": 2, "score": 0}),
                                    Line("Deal {n}: {score}", {"n": 3, "score": 3}))
    assert len(going.lines) == 1


def test_registry_entry() -> None:
    assert (GAME.title, GAME.players, GAME.teams) == ("Hachinin Meri", 8, TEAMS)
    assert GAME.match_type is type(GAME.new_match(0))
