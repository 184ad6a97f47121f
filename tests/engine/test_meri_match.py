"""Meri matches (H-3, H-4, D-1), persistence, simulate, and the baseline bots."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine import registry
from engine.ai.base import RandomBot
from engine.ai.bots import make_bot
from engine.ai.meri_heuristic import MeriHeuristicBot
from engine.errors import MalformedRecord
from engine.meri.legal import DECLARE, PASS
from engine.meri.positions import layout
from engine.records import GameRecord
from engine.referee import play_out
from engine.session import Session
from engine.simulate import simulate

GAME = registry.get("meri")


def test_H3_H4_a_match_of_eight_deals_accumulates_scores() -> None:
    match = GAME.new_match(8)
    total = [0, 0]
    while not match.is_over:
        state = match.next_deal()
        GAME.playout(state, random.Random(1))
        total[0] += state.team_scores[0]
        total[1] += state.team_scores[1]
        match.finish_deal(state)
    result = match.result()
    assert result.deals_played == 8 and result.deals_total == 8 and result.over
    assert [side.score for side in result.sides] == total and sum(total) == 72
    assert result.winner == (None if total[0] == total[1] else int(total[1] > total[0]))
    with pytest.raises(ValueError):
        match.next_deal()


def test_match_persistence_resumes_identically() -> None:
    match = GAME.new_match(21)
    for _ in range(3):
        state = match.next_deal()
        GAME.playout(state, random.Random(2))
        match.finish_deal(state)
    saved = json.loads(json.dumps(match.to_dict()))
    restored = GAME.restore_match(saved)
    assert restored.result() == match.result()
    a, b = match.next_deal(), restored.next_deal()
    assert GAME.layout_of(a) == GAME.layout_of(b)


@pytest.mark.parametrize("data", [
    {}, {"dealer": 9, "deals_played": 0, "scores": [0, 0], "deal_scores": [], "rng": [3, [], None]},
    "nonsense",
])
def test_bad_saved_match_is_malformed(data) -> None:
    with pytest.raises(MalformedRecord):
        GAME.restore_match(data)


def test_session_autosaves_and_resumes_a_meri_match() -> None:
    saved: list[str] = []
    session = Session.new("meri", 4, save=saved.append)
    rng = random.Random(4)
    for _ in range(20):
        session.apply(session.state.random_action(rng))
    resumed = Session.from_json(saved[-1])
    assert GAME.layout_of(resumed.state) == GAME.layout_of(session.state)
    assert resumed.state.observation(0) == session.state.observation(0)


def test_simulate_prints_tricks_and_scores() -> None:
    out = io.StringIO()
    records = simulate("meri", deals=2, seed=3, bots="heuristic", out=out)
    text = out.getvalue()
    assert len(records) == 2 and text.count("trick 9:") == 2 and "deal score" in text
    for record in records:
        again = GameRecord.from_json(record.to_json())
        assert again.state.result == record.state.result


def test_make_bot_kinds() -> None:
    assert isinstance(make_bot(GAME.name, "random", 1), RandomBot)
    assert isinstance(make_bot(GAME.name, "heuristic", 1), MeriHeuristicBot)
    with pytest.raises(KeyError):
        make_bot(GAME.name, "nonsense", 1)


def test_heuristic_bot_declares_by_its_rule() -> None:
    """Conceal the native Robai (H-12) only when also holding the trump Sota."""
    plain = GAME.from_layout(layout({1: "KRo KSu KUn"}, "K5", sinks=[2, 3, 4, 5, 6, 7]), 0)
    sota = GAME.from_layout(layout({1: "KRo KSo"}, "K5", sinks=[2, 3, 4, 5, 6, 7]), 0)
    bot = MeriHeuristicBot(0)
    assert bot.choose(plain.observation(1), plain.legal_actions()) == DECLARE
    assert bot.choose(sota.observation(1), sota.legal_actions()) == PASS


def test_heuristic_bot_does_not_overtake_its_partner() -> None:
    # Seat 0 leads GSu (unbeatable in Guru, no trump played yet); partner seat 2 holds GUn, a
    # small Guru card and a trump, and must spend neither the GUn nor the trump.
    state = GAME.from_layout(layout({0: "GSu P1", 2: "GUn G9 K9"}, "K5", sinks=[3, 4, 5, 6, 7]), 0)
    for action in ["pass"] * 8 + ["P1", "GSu", "P2"]:
        state.apply(GAME.parse_action(action))
    assert state.to_act == 2
    choice = MeriHeuristicBot(0).choose(state.observation(2), state.legal_actions())
    assert GAME.format_action(choice) not in ("GUn", "K9")


def test_bots_play_legal_moves_and_heuristic_beats_random() -> None:
    """A smoke version of the arena (the 500-deal figure is a benchmark, see the report)."""
    diff = 0
    for deal in range(40):
        for heuristic_team in (0, 1):
            bots = [MeriHeuristicBot(deal) if s % 2 == heuristic_team else RandomBot(deal)
                    for s in range(8)]
            state = play_out(GAME.new_deal(deal), bots)
            a = state.team_scores[heuristic_team] - state.team_scores[heuristic_team ^ 1]
            diff += a
    assert diff / 40 > 0.5
