"""Points, the kitty bonus, promotions, the next dealer and the match (T-2, T-25..T-27, D-1)."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import MalformedRecord
from engine.records import replay
from engine.tractor.cards import POINTS, TOTAL_POINTS
from engine.tractor.match import TractorMatch
from engine.tractor.scoring import level_name, promote
from tests.engine.test_tractor_support import GAME, layout


def _random_deal(lay: dict, seed: int):
    """Play a layout out with random legal actions; returns (state, action texts)."""
    rng = random.Random(seed)
    state = GAME.from_layout(lay, seed)
    texts = []
    while not state.is_over:
        action = state.random_action(rng)
        texts.append(GAME.format_action(action))
        state.apply(action)
    return state, texts


def test_T25_fives_tens_kings_make_200_points():
    assert TOTAL_POINTS == 200
    assert POINTS[GAME.parse_action("5H")[0]] == 5
    assert POINTS[GAME.parse_action("10D")[0]] == 10
    assert POINTS[GAME.parse_action("KS")[0]] == 10
    assert POINTS[GAME.parse_action("QS")[0]] == 0 and POINTS[GAME.parse_action("RJ")[0]] == 0


@pytest.mark.parametrize(
    ("total", "team", "steps", "next_dealer"),
    [
        (0, 0, 3, 2), (5, 0, 2, 2), (35, 0, 2, 2), (40, 0, 1, 2), (75, 0, 1, 2),
        (80, 1, 0, 1), (115, 1, 0, 1), (120, 1, 1, 1), (155, 1, 1, 1), (160, 1, 2, 1),
        (195, 1, 2, 1), (200, 1, 3, 1), (235, 1, 3, 1), (240, 1, 4, 1), (600, 1, 13, 1),
    ],
)
def test_T27_promotion_bands_and_next_dealer(total, team, steps, next_dealer):
    s = promote(total, 0, (4, 6))  # dealer 0: team 0 defends
    gained = [s.levels_after[0] - 4, s.levels_after[1] - 6]
    assert gained[team] == steps and gained[1 - team] == 0
    assert s.next_dealer == next_dealer
    s3 = promote(total, 3, (4, 6))  # dealer 3: team 1 defends, the dealer's partner is 1
    assert s3.next_dealer == (1 if total < 80 else 0)


def test_D1_T2_a_promotion_past_A_wins_the_match_at_once():
    s = promote(0, 1, (3, 11))  # team 1 (at K) defends and goes up 3: past A
    assert s.match_winner == 1 and s.levels_after == (3, 14)
    s = promote(75, 1, (3, 11))  # K -> A: not past A
    assert s.match_winner is None
    s = promote(120, 0, (3, 12))  # attackers at A go up one: past A
    assert s.match_winner == 1


def test_T26_kitty_bonus_doubles_per_card_when_attackers_win_the_last_trick():
    seen = set()
    for seed in range(300):
        state = GAME.new_deal(seed)
        GAME.playout(state, random.Random(seed))
        leader, last, winner = state.tricks[-1]
        kitty_points = sum(POINTS[k] for k in state.kitty)
        trick_points = sum(POINTS[k] for _l, plays, w in state.tricks if w % 2 == state.attackers
                           for cards in plays for k in cards)
        result = state.result
        if winner % 2 == state.attackers:
            assert result["kitty_bonus"] == kitty_points * 2 * len(last[0])
            seen.add(("attackers", len(last[0]), kitty_points > 0))
        else:
            assert result["kitty_bonus"] == 0
            seen.add(("defenders",))
        assert result["attack_points"] == trick_points + result["kitty_bonus"]
    assert ("defenders",) in seen and ("attackers", 1, True) in seen
    assert any(key[0] == "attackers" and key[1] >= 2 and key[2] for key in seen)


def test_T27_result_follows_the_attackers_total():
    for seed in range(60):
        state = GAME.new_deal(seed)
        rng = random.Random(seed)
        GAME.playout(state, rng)
        result = GAME.result_json(state)
        s = promote(result["attack_points"], state.dealer, state.levels)
        assert result["next_dealer"] == s.next_dealer
        assert result["levels_after"] == [level_name(v) for v in s.levels_after]
        assert result["dealer"] == state.dealer and result["trump"] in ("S", "H", "C", "D", "NT")


def test_D1_match_ends_when_a_team_passes_A_and_shows_A():
    for seed in range(200):
        lay = layout(levels=("A", "7"), dealer=0)
        state, texts = _random_deal(lay, seed)
        if state.points + state.bonus < 80:
            break
    else:
        pytest.fail("no defender win found")
    out = replay({"game": "tractor", "seed": seed, "layout": lay, "actions": texts})[1]
    assert out["result"]["levels_after"][0] == "A" and out["result"]["match_winner"] == 0
    match = TractorMatch(random.Random(1), levels=(12, 5), dealer=0)
    match.finish_deal(state)
    result = match.result()
    assert match.is_over and result.over and result.winner == 0
    assert result.sides[0].lines[0].args["level"] == "A"
    with pytest.raises(ValueError):
        match.next_deal()


def test_match_rotates_dealer_and_levels_and_resumes_from_json():
    match = GAME.new_match(5)
    fresh = match.result()
    assert [side.lines[0].args["level"] for side in fresh.sides] == ["2", "2"]
    assert match.dealer is None and fresh.lines == ()  # no dealer named before the first deal
    assert (fresh.deals_played, fresh.over, fresh.winner) == (0, False, None)
    first = match.next_deal()
    assert first.deal == GAME.new_deal(5).deal  # the first deal of new_match(seed) is new_deal(seed)
    GAME.playout(first, random.Random(0))
    match.finish_deal(first)
    result = first.result
    assert match.dealer == result["next_dealer"]
    assert [side.lines[0].args["level"] for side in match.result().sides] == result["levels_after"]
    saved = json.loads(json.dumps(match.to_dict()))
    restored = GAME.restore_match(saved)
    a, b = match.next_deal(), restored.next_deal()
    assert a.deal == b.deal and a.bid_start == b.bid_start == match.dealer
    assert a.level == a.levels[match.dealer % 2]  # T-7
    with pytest.raises(MalformedRecord):
        GAME.restore_match({"levels": [0]})


def test_T27_whole_match_terminates_with_a_winner():
    match = GAME.new_match(3)
    rng = random.Random(3)
    while not match.is_over and match.deals < 400:
        state = match.next_deal()
        GAME.playout(state, rng)
        match.finish_deal(state)
    assert match.is_over and match.winner in (0, 1)


FIXTURES = __import__("pathlib").Path(__file__).parent / "records" / "tractor"


@pytest.mark.parametrize("name", ["single", "pair", "def"])
def test_T26_T27_fixture_deals_kitty_bonus_and_promotion(name):
    """Whole recorded deals: the bonus is the buried kitty's points x 2 x cards per player in the
    last trick when the attackers take it (0 when the defenders do), and T-27 applies to the total."""
    rec = json.loads((FIXTURES / f"t26_last_trick_{name}.json").read_text())
    status, out = replay(rec)
    assert status == 0 and out["phase"] == "over" and out["to_act"] is None
    bury = next(a for a in rec["actions"] if a.startswith("bury "))
    kitty_points = sum(POINTS[GAME.parse_action(c)[0]] for c in bury.split()[1:])
    last_cards = len(rec["actions"][-1].split())
    result = out["result"]
    assert kitty_points == rec["expect"]["kitty_points"] > 0
    if name == "def":
        assert result["kitty_bonus"] == 0
    else:
        assert result["kitty_bonus"] == kitty_points * 2 * last_cards
        assert last_cards == (2 if name == "pair" else 1)
    s = promote(result["attack_points"], result["dealer"], (0, 0))
    assert result["levels_after"] == [level_name(v) for v in s.levels_after]
    assert result["next_dealer"] == s.next_dealer
    assert result == rec["expect"]["result"]
