"""The learned Chắn leaf value (engine/ai/learned.py, chan_value.py, train.py; issue 19 part 3),
and what every game's learned value shares (the shipped files, the levels and arena kinds; the
Tractor and Meri values' own tests: test_ai_tractor_value.py, test_ai_meri_value.py).

Acceptance: the shipped weights load (≤ 1 MB, with the command and seed that made them) and are
what the search's leaf value computes; a missing, corrupt or mismatched weights file falls back to
the heuristic value with one log line per process, and the decisions are then exactly those of the
no-model path; training is reproducible from its seed and its solver recovers a known linear
model. (That the bots decide from the observation only, model or not: test_ai_search.py.)
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random

import pytest

from engine.ai import bots, learned
from engine.ai.chan_heuristic import exposed_pairs, hand_value
from engine.ai.chan_search import HAND_WEIGHT, MODEL_COST
from engine.ai.chan_value import FEATURES, leaf_value, seat_features, state_features
from engine.ai.search import Budget
from engine.ai.tools import train
from engine.chan.cards import FACES
from tests.engine.learned_checks import (
    BAD_FILES,
    check_fallback,
    check_training_reproducible,
    search_decisions,
)
from tests.engine.midgame import positions

BUDGET = Budget(playouts=200, max_worlds=6, min_worlds=4)


pytestmark = pytest.mark.usefixtures("fresh_learned_cache")


def _positions(count: int, seed: int) -> list:
    """Mid-deal Chắn states where the search has a choice (random legal play)."""
    return positions("chan", count, seed)


def _decisions(model: bool) -> list:
    return search_decisions("chan", _positions(6, 3), BUDGET, model)


@pytest.mark.parametrize("game", ["chan", "tractor", "meri"])
def test_shipped_weights_load_and_are_small(game):
    """Every game's weights: at most 1 MB, with the command and seed that reproduce them, and
    read with the features its code computes today."""
    from engine.ai import meri_value, tractor_value

    features = {"chan": FEATURES, "tractor": tractor_value.FEATURES,
                "meri": meri_value.FEATURES}[game]
    path = learned.weights_path(game)
    assert path.stat().st_size <= learned.MAX_BYTES
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["training"]["command"].startswith(f"python -m engine.ai.tools.train {game}")
    assert isinstance(data["training"]["seed"], int)
    assert learned.model(game, features) is not None


def test_the_leaf_value_is_the_model_on_the_world_features():
    """Unfinished leaf: weights · (φ(seat) − mean φ(others)); without the model, the heuristic."""
    adapter = bots.make_adapter("chan", 1, model=True)
    plain = bots.make_adapter("chan", 1, model=False)
    model = learned.model("chan", FEATURES)
    assert model is not None and adapter.model() is model and plain.model() is None
    differ = 0
    for state in _positions(8, 5):
        seat = state.to_act
        obs = state.observation(seat)
        for a in (adapter, plain):
            a.prepare(obs)
        x = state_features(state, seat, obs.unseen)
        assert adapter.value(state, seat) == pytest.approx(model(x))
        hv = FEATURES.index("hand_value")
        assert plain.value(state, seat) == pytest.approx(HAND_WEIGHT * x[hv])
        differ += adapter.value(state, seat) != pytest.approx(plain.value(state, seat))
    assert differ >= 6


def test_features_agree_with_the_heuristic_and_the_fast_leaf():
    """φ's hand_value is the heuristic's; `leaf` is the model on `state_features`."""
    model = learned.model("chan", FEATURES)
    assert model is not None
    for state in _positions(10, 9):
        obs = state.observation(state.to_act)
        for s in range(4):
            counts = state.counts[s * FACES:(s + 1) * FACES]
            phi = seat_features(counts, state.exposed[s], obs.unseen, 0.3)
            assert phi[0] == pytest.approx(hand_value(counts, *exposed_pairs(state.exposed[s]),
                                                      obs.unseen))
        x = state_features(state, obs.seat, obs.unseen)
        assert leaf_value(model.weights, state, obs.seat, obs.unseen) == pytest.approx(model(x))


def test_the_model_prices_its_playouts():
    """The budget stays work: a playout scored by the model costs MODEL_COST (> 1)."""
    state = _positions(1, 4)[0]
    obs = state.observation(state.to_act)
    assert bots.make_adapter("chan", 0, model=True).cost(obs) == MODEL_COST > 1.0
    assert bots.make_adapter("chan", 0, model=False).cost(obs) == 1.0


def test_features_of_a_hand():
    """Two Chắn, one Cạ (9M+9S), one waiting single (CC) and its live copies."""
    counts = [0] * 25
    counts[0] = 1  # CC
    counts[2] = 2  # 8M pair
    counts[3] = 2  # 7M pair
    counts[1] = counts[9] = 1  # 9M + 9S: a Cạ
    unseen = [2] * 25
    phi = dict(zip(FEATURES, seat_features(counts, (), unseen, 0.5), strict=True))
    assert (phi["chan"], phi["ca"], phi["singles"], phi["waiting"]) == (2, 1, 1, 1)
    assert phi["live_same"] == 2 and phi["waiting_live"] == 2  # CC has no rank partners
    assert phi["red"] == 5  # CC, 8M ×2, 9M, 9S (the red faces: CC, 9M, 8M, 9S, 8S), not 7M
    assert phi["chan*progress"] == 1.0


@pytest.mark.parametrize("kind", BAD_FILES)
def test_missing_or_bad_weights_fall_back_with_one_log_line(kind, tmp_path, monkeypatch, caplog):
    check_fallback("chan", FEATURES, kind, _decisions, tmp_path, monkeypatch, caplog)


def test_no_model_env_switches_it_off(monkeypatch, caplog):
    monkeypatch.setenv("PARLOR_NO_MODEL", "1")
    with caplog.at_level(logging.WARNING, logger="engine.ai.learned"):
        assert bots.make_adapter("chan", 0, model=True).model() is None
    assert not caplog.records  # a deliberate switch, not a fault


@pytest.mark.parametrize("game", ["chan", "tractor", "meri"])
@pytest.mark.parametrize("learned", [True, False])
def test_the_levels_follow_the_profile_and_the_arena_kinds_force_it(game, learned, monkeypatch):
    monkeypatch.setitem(bots.PROFILES, game,
                        dataclasses.replace(bots.PROFILES[game], learned=learned))
    assert {"normal-model", "normal-nomodel"} <= set(bots.KINDS)
    assert not {"normal-model", "normal-nomodel"} & set(bots.LEVELS)
    for kind in ("normal", "hard"):
        assert (bots.make_bot(game, kind, 0).adapter.model() is not None) == learned
    assert bots.make_bot(game, "normal-model", 0).adapter.model() is not None
    assert bots.make_bot(game, "normal-nomodel", 0).adapter.model() is None


def test_training_is_reproducible_and_writes_a_loadable_file(tmp_path):
    one = check_training_reproducible(train.train_chan, "chan", FEATURES, 40, tmp_path)
    assert one["training"]["samples_fit"] > 100


def test_the_win_target_is_the_outcome_at_the_mean_winning_score(tmp_path):
    """`--target win`: +3/−1/0 by outcome, × the mean score of the won deals."""
    raw = train.chan_samples(30, 3, target="win")
    won = [deal[-1][1] for deal in raw if deal[-1][1] > 0]
    mean = sum(won) / len(won)
    settled = train.chan_samples(30, 3)
    for deal, scaled, plain in zip(raw, train.rescale(raw), settled, strict=True):
        assert len(scaled) == len(plain) == len(deal) - 1
        for (x, y), (x2, y2) in zip(scaled, plain, strict=True):
            assert x == x2 and y2 * y >= 0  # same features, same sign as the settlement
            assert y in (3 * mean, -mean, 0.0)
    data = train.train_chan(30, 3, 0.25, 1.0, tmp_path / "w.json", "cmd", "win")
    assert data["training"]["target"] == "win"


def test_ridge_recovers_a_linear_model():
    rng = random.Random(2)
    true_w = [1.5, -2.0, 0.25]
    samples = []
    for _ in range(200):
        x = [rng.uniform(-1, 1) for _ in true_w]
        samples.append((x, sum(w * v for w, v in zip(true_w, x, strict=True))))
    assert train.ridge(samples, 0.0) == pytest.approx(true_w, abs=1e-9)
    assert train.ridge(samples, 1e3)[0] < 1.0  # the penalty shrinks the weights


def test_train_refuses_bad_arguments(capsys):
    assert train.main(["chan", "--deals", "1"]) == 2
    assert "error:" in capsys.readouterr().err
