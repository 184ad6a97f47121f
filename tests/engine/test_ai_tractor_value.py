"""The learned Tractor leaf value (engine/ai/tractor_value.py, learned.py, train.py; issue 19
part 3).

Acceptance: the shipped weights load (≤ 1 MB, with the command and seed that made them) and are
what a mid-play playout's leaf is scored with; the bots decide from the observation only with the
model (two deals with one observation, different hidden cards: the same decision); a missing or
corrupt weights file falls back to the card points so far with one log line, and the decisions
are then exactly those of the no-model path; training is reproducible from its seed.
"""

from __future__ import annotations

import random

import pytest

from engine.ai import bots, learned
from engine.ai.search import Budget
from engine.ai.tools import train
from engine.ai.tractor_heuristic import TractorHeuristicBot
from engine.ai.tractor_search import HORIZON, MODEL_COST, MODEL_HORIZON
from engine.ai.tractor_value import FEATURES, base_features, leaf_value, state_features
from engine.tractor.cards import BJ, POINTS, RJ, TRUMP
from tests.engine.learned_checks import (
    BAD_FILES,
    check_fallback,
    check_no_peeking,
    check_training_reproducible,
    search_decisions,
    self_play_positions,
)

BUDGET = Budget(playouts=120, max_worlds=6, min_worlds=4)


pytestmark = pytest.mark.usefixtures("fresh_learned_cache")


def _play_positions(count: int, seed: int) -> list:
    """Mid-play states of heuristic self-play, a trick or more in, with a choice to make."""
    return self_play_positions(
        "tractor", [TractorHeuristicBot(s) for s in range(4)], count, seed,
        lambda state: (state.phase == "play" and bool(state.tricks)
                       and len(state.legal_actions()) > 1), 0.1)


def _decisions(model: bool) -> list:
    return search_decisions("tractor", _play_positions(5, 3), BUDGET, model)


def test_the_horizon_leaf_is_the_model_on_the_world_features():
    """An unfinished playout: weights · φ for the attackers, its negative for the defenders;
    without the model, the card points each team has won so far (T-25)."""
    adapter = bots.make_adapter("tractor", 1, model=True)
    plain = bots.make_adapter("tractor", 1, model=False)
    model = learned.model("tractor", FEATURES)
    assert model is not None and adapter.model() is model and plain.model() is None
    differ = 0
    for state in _play_positions(8, 5):
        x = state_features(state)
        taken = sum(POINTS[k] for _l, plays, _w in state.tricks for c in plays for k in c)
        for seat in range(4):
            sign = 1.0 if seat & 1 == state.attackers else -1.0
            assert adapter.value(state, seat) == pytest.approx(sign * model(x))
            assert leaf_value(model.weights, state) == pytest.approx(model(x))
            assert plain.value(state, seat) == sign * (2 * state.points - taken)
        differ += adapter.value(state, 0) != pytest.approx(plain.value(state, 0))
    assert differ >= 6


def test_a_finished_deal_is_scored_by_its_result_model_or_not():
    state = _play_positions(1, 6)[0]
    rng = random.Random(1)
    while not state.is_over:
        state.apply(state.random_action(rng))
    for seat in range(4):
        assert (bots.make_adapter("tractor", 0, model=True).value(state, seat)
                == bots.make_adapter("tractor", 0, model=False).value(state, seat))


def _team_diff(state, kinds, weights=POINTS) -> int:
    """Cards of `kinds` held (each × `weights[k]`, default its points) by the attackers minus
    the defenders."""
    return sum(state.hands[s][k] * weights[k] * (1 if s & 1 == state.attackers else -1)
               for s in range(4) for k in kinds)


def test_features_of_a_position_count_each_team():
    """The per-team features are the attackers' count minus the defenders', from the hands."""
    for state in _play_positions(6, 7):
        phi = dict(zip(FEATURES, state_features(state), strict=True))
        eff, pos = state.ctx.eff, state.ctx.pos
        trumps = [k for k in range(54) if eff[k] == TRUMP]
        tops = [RJ, BJ] + [k for k in trumps if pos[k] == 13]
        ones = [1] * 54
        assert phi["trumps"] == _team_diff(state, trumps, ones)
        assert phi["top_trumps"] == _team_diff(state, tops, ones)
        assert phi["held_points"] == _team_diff(state, range(54))
        assert phi["kitty_points"] == sum(POINTS[k] for k in state.kitty)
        assert phi["attack_points"] == state.points and phi["bias"] == 1.0
        assert phi["lead"] == (1.0 if state.leader & 1 == state.attackers else -1.0)
        left = sum(state.hands[0]) / 25
        assert phi["trumps*left"] == pytest.approx(phi["trumps"] * left)
        assert len(base_features(state)) * 2 == len(FEATURES)


def test_the_model_prices_its_playouts():
    """The budget stays work: a mid-play playout scored by the model, shorter, costs MODEL_COST
    of a plain one (measured: less than 1)."""
    state = _play_positions(1, 4)[0]
    obs = state.observation(state.to_act)
    assert bots.make_adapter("tractor", 0, model=True).cost(obs) == MODEL_COST < 1.0
    assert bots.make_adapter("tractor", 0, model=False).cost(obs) == 1.0


def test_the_model_looks_fewer_tricks_ahead():
    """A mid-play playout stops HORIZON tricks on, MODEL_HORIZON with the learned leaf value."""
    for state in _play_positions(4, 5):
        for model, horizon in ((False, HORIZON), (True, MODEL_HORIZON)):
            world = state.clone()
            bots.make_adapter("tractor", 0, model=model).rollout(world, random.Random(1))
            stop = len(state.tricks) + horizon
            assert len(world.tricks) == stop or (world.is_over and len(world.tricks) < stop)


def test_no_peeking_with_the_model():
    """Two deals with one observation but different hidden cards get the same decision from the
    search with the learned leaf value."""
    states = _play_positions(6, 8)
    assert len(states) == 6
    check_no_peeking("tractor", states)


@pytest.mark.parametrize("kind", BAD_FILES)
def test_missing_or_bad_weights_fall_back_with_one_log_line(kind, tmp_path, monkeypatch, caplog):
    check_fallback("tractor", FEATURES, kind, _decisions, tmp_path, monkeypatch, caplog)


def test_training_is_reproducible_and_writes_a_loadable_file(tmp_path):
    one = check_training_reproducible(train.train_tractor, "tractor", FEATURES, 30, tmp_path)
    assert one["training"]["samples_fit"] > 200


def test_training_targets_are_the_attackers_final_score():
    """Every sample of a deal carries that deal's final attackers' card points + 20 × levels."""
    for deal in train.tractor_samples(4, 2):
        assert deal and len({y for _x, y in deal}) == 1
        assert all(len(x) == len(FEATURES) for x, _y in deal)
