"""The typed outcome of a Tractor deal and match (T-25..T-27, D-1): `deal_result` and
`TractorMatch.result()` on built positions, with exact values; the observation's reading helpers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.result import Line, SideScore
from engine.tractor import scoring
from engine.tractor.cards import CODE_TO_KIND, POINTS, TRUMP
from engine.tractor.match import TractorMatch
from engine.tractor.state import TractorState
from tests.engine.test_tractor_support import GAME, layout

FIXTURES = Path(__file__).parent / "records" / "tractor"


def _fixture_state(name: str, **layout_changes) -> TractorState:
    rec = json.loads((FIXTURES / f"t26_last_trick_{name}.json").read_text())
    state = GAME.from_layout(dict(rec["layout"], **layout_changes), rec["seed"])
    for text in rec["actions"]:
        state.apply(GAME.parse_action(text))
    assert state.is_over
    return state


def _lines(result, text: str) -> list[dict]:
    return [dict(line.args) for line in result.lines if line.text == text]


def _check_trick_lines(result, attackers: int, trick_points: int) -> None:
    """The per-trick lines are the attackers' point tricks, and add up to their card points."""
    tricks = _lines(result, scoring.POINT_TRICK)
    assert all(t["seat"] % 2 == attackers for t in tricks)
    assert sum(t["points"] for t in tricks) == trick_points
    for t in tricks:
        assert t["points"] == sum(POINTS[CODE_TO_KIND[c]] for c in t["cards"].split())
    captured = sorted(c for t in tricks for c in t["cards"].split())
    assert sorted(_lines(result, scoring.TRICK_POINTS)[0]["cards"].split()) == captured


def test_T26_T27_pair_fixture_attackers_win_with_a_doubled_kitty_bonus():
    """Last trick a pair won by attacker 0: kitty 20 x 4 = 80 (T-26); 135 + 80 = 215 -> the
    attackers go up (215 - 80) // 40 = 3 levels, 2 -> 5, and seat 2 deals next (T-27)."""
    result = GAME.deal_result(_fixture_state("pair"))
    assert result.sides == (
        SideScore((0, 2), 3, (Line(scoring.SIDE_LEVELS,
                                   {"team": 0, "before": "2", "after": "5", "steps": 3}),)),
        SideScore((1, 3), 0, (Line(scoring.SIDE_LEVELS,
                                   {"team": 1, "before": "2", "after": "2", "steps": 0}),)),
    )
    assert result.winners == (0,) and result.side_of(2) == 0
    assert result.lines[0] == Line(scoring.DEAL, {"trump": "H", "level": "2", "dealer": 1,
                                                  "defenders": 1})
    assert _lines(result, scoring.TRICK_POINTS)[0]["points"] == 135
    _check_trick_lines(result, 0, 135)
    assert _lines(result, scoring.KITTY) == [{"cards": "RJ AS JS KH 6H 6H KC JC", "points": 20}]
    assert _lines(result, scoring.KITTY_BONUS) == [
        {"seat": 0, "points": 20, "multiplier": 4, "bonus": 80}]
    assert result.lines[-3:] == (
        Line(scoring.ATTACK_TOTAL, {"points": 215}),
        Line(scoring.PROMOTION, {"team": 0, "steps": 3, "before": "2", "after": "5"}),
        Line(scoring.NEXT_DEALER, {"seat": 2}),
    )
    assert [line.render() for line in result.lines[-3:]] == [
        "Attackers' total: 215 points.", "Team 0 goes up 3 level(s), from 2 to 5.",
        "Next dealer: seat 2."]


def test_T26_T27_single_fixture_bonus_doubles_and_attackers_take_over():
    """Last trick a single won by attacker 0: kitty 20 x 2 = 40; 75 + 40 = 115 is 80-115: the
    attackers take over without promotion; the player after dealer 3 (seat 0) deals next."""
    result = GAME.deal_result(_fixture_state("single"))
    assert [side.score for side in result.sides] == [0, 0] and result.winners == (0,)
    _check_trick_lines(result, 0, 75)
    assert _lines(result, scoring.KITTY_BONUS) == [
        {"seat": 0, "points": 20, "multiplier": 2, "bonus": 40}]
    assert [line.render() for line in result.lines[-3:]] == [
        "Attackers' total: 115 points.", "Team 0 take over as defenders without promotion.",
        "Next dealer: seat 0."]


def test_T26_def_fixture_the_kitty_scores_nothing_for_the_defenders():
    """Defender 1 takes the last trick: the kitty (10 points) scores nothing; 95 still takes over."""
    result = GAME.deal_result(_fixture_state("def"))
    assert result.lines[0].render() == "Trump NT, level 2: seat 3 dealt, team 1 defended."
    assert _lines(result, scoring.KITTY_LOST) == [
        {"seat": 1, "points": 10, "multiplier": 2, "bonus": 0}]
    assert not _lines(result, scoring.KITTY_BONUS)
    assert _lines(result, scoring.ATTACK_TOTAL) == [{"points": 95}]
    _check_trick_lines(result, 0, 95)
    assert result.winners == (0,) and [side.score for side in result.sides] == [0, 0]


def test_T27_D1_defenders_hold_the_attackers_under_40_and_pass_A():
    """Dealer 0's team at A holds the attackers to 35 (5-35: up 2, T-27): past A ends the match
    (D-1) and still shows "A"; the dealer's partner deals next."""
    lay = layout(levels=("A", "7"), dealer=0)
    rng = random.Random(0)
    state = GAME.from_layout(lay, 0)
    while not state.is_over:
        state.apply(state.random_action(rng))
    result = GAME.deal_result(state)
    assert result.winners == (0,)
    assert result.sides[0] == SideScore((0, 2), 2, (Line(
        scoring.SIDE_LEVELS, {"team": 0, "before": "A", "after": "A", "steps": 2}),))
    assert result.sides[1].score == 0
    assert result.lines[0].args == {"trump": "C", "level": "A", "dealer": 0, "defenders": 0}
    _check_trick_lines(result, 1, 35)
    assert _lines(result, scoring.KITTY_LOST) == [
        {"seat": 0, "points": 30, "multiplier": 2, "bonus": 0}]
    assert [line.render() for line in result.lines[-4:]] == [
        "Attackers' total: 35 points.", "Team 0 goes up 2 level(s), from A to A.",
        "Next dealer: seat 2.", "Team 0 wins the match."]
    assert GAME.result_json(state)["match_winner"] == 0


def test_deal_result_needs_a_finished_deal():
    with pytest.raises(ValueError):
        GAME.deal_result(GAME.new_deal(1))
    assert GAME.result_json(GAME.new_deal(1)) is None


def test_T2_match_result_of_a_new_match():
    result = GAME.new_match(5).result()
    assert result.sides == (
        SideScore((0, 2), 0, (Line(scoring.SIDE_LEVEL, {"team": 0, "level": "2"}),)),
        SideScore((1, 3), 0, (Line(scoring.SIDE_LEVEL, {"team": 1, "level": "2"}),)),
    )
    assert (result.deals_played, result.deals_total, result.over, result.winner) == (
        0, None, False, None)
    assert result.lines == ()


def test_T27_match_result_after_a_deal_names_levels_and_next_dealer():
    """The pair fixture's outcome carried into a match: team 0 at 5 (index 3), seat 2 deals."""
    match = TractorMatch(random.Random(1), levels=(0, 0), dealer=1)
    match.finish_deal(_fixture_state("pair", dealer=1))
    result = match.result()
    assert [side.score for side in result.sides] == [3, 0]
    assert [side.lines[0].render() for side in result.sides] == ["Team 0: level 5.",
                                                                 "Team 1: level 2."]
    assert (result.deals_played, result.over, result.winner) == (1, False, None)
    assert result.lines == (Line(scoring.NEXT_DEALER, {"seat": 2}),)


def test_D1_match_result_once_a_team_passes_A():
    """Team 0 at Q goes up 3 (215 points): index 13, past A -> the match is over, team 0 won."""
    match = TractorMatch(random.Random(1), levels=(10, 0), dealer=1)
    state = _fixture_state("pair", dealer=1, levels=["Q", "2"])
    assert GAME.deal_result(state).lines[-1] == Line(scoring.MATCH_WON, {"team": 0})
    match.finish_deal(state)
    result = match.result()
    assert [side.score for side in result.sides] == [13, 0]
    assert result.sides[0].lines == (Line(scoring.SIDE_LEVEL, {"team": 0, "level": "A"}),)
    assert (result.deals_played, result.deals_total, result.over, result.winner) == (
        1, None, True, 0)
    assert result.lines == (Line(scoring.MATCH_WON, {"team": 0}),)
    assert result.sides[1].lines == (Line(scoring.SIDE_LEVEL, {"team": 1, "level": "2"}),)
    assert match.dealer == 2


def test_registry_entry():
    assert (GAME.title, GAME.players, GAME.teams) == ("Tractor", 4, ((0, 2), (1, 3)))
    assert GAME.match_type is TractorMatch
    assert GAME.phases == ("declare", "bury", "play", "over")


def test_observation_helpers_effective_suit_and_picked_up_kitty():
    """The table's reading helpers: effective suits once trump is known (T-13, T-14), and the
    kitty the dealer picked up, shown to the dealer alone while it buries (T-15)."""
    rng = random.Random(3)
    state = GAME.new_deal(3)
    obs = state.observation(0)
    assert obs.trump_context() is None and obs.effective_suit(CODE_TO_KIND["AS"]) == -1
    while state.phase == "declare":
        state.apply(state.random_action(rng))
    dealer = state.dealer
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.picked_up == (state.deal[1] if seat == dealer else ())
        ctx = obs.trump_context()
        assert ctx is not None and (ctx.level, ctx.trump) == (state.level, state.trump)
        assert all(obs.effective_suit(k) == state.ctx.eff[k] for k in range(54))
    assert obs.effective_suit(CODE_TO_KIND["RJ"]) == TRUMP
    state.apply(state.random_action(rng))  # the burial
    assert all(state.observation(seat).picked_up == () for seat in range(4))
