"""The learned Meri leaf value (engine/ai/meri_value.py, meri_search.py, learned.py, train.py;
issue 19 part 3).

Acceptance: the shipped weights load (≤ 1 MB, with the command and seed that made them:
test_ai_learned.py) and are what a horizon playout's leaf is scored with; a playout with the model
stops at the horizon and is priced by `HORIZON_COST`; the bots decide from the observation only
with the model (two deals with one observation, different hidden cards: the same decision); a
missing or corrupt weights file falls back to the playout to the end with one log line, and the
decisions are then exactly those of the no-model path; training is reproducible from its seed.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.ai import bots, learned
from engine.ai.meri_heuristic import MeriHeuristicBot
from engine.ai.meri_search import HORIZON, HORIZON_COST, NO_STOP
from engine.ai.meri_value import FEATURES, base_features, leaf_value, state_features
from engine.ai.search import Budget, SearchBot
from engine.ai.tools import train
from engine.meri.cards import PLAIN_RANK, PLAIN_SUIT_MASK, TRUMP_MASK, TRUMP_ORDER, cards_of
from tests.engine.learned_checks import (
    BAD_FILES,
    check_fallback,
    check_no_peeking,
    check_training_reproducible,
    search_decisions,
    self_play_positions,
)

BUDGET = Budget(playouts=150, max_worlds=6, min_worlds=4)


pytestmark = pytest.mark.usefixtures("fresh_learned_cache")


def _play_positions(count: int, seed: int, boundary: bool = False, last: int = 4) -> list:
    """States of heuristic self-play in the play phase up to trick `last` (0-based) with a
    choice to make (`boundary`: at a trick boundary after the first trick, where a horizon
    playout stops, instead)."""

    def keep(state) -> bool:
        if boundary:
            return state.trick_no > 0 and state.n_played == 0
        return len(state.legal_actions()) > 1

    return self_play_positions(
        "meri", [MeriHeuristicBot(s) for s in range(8)], count, seed,
        lambda state: state.phase == "play" and state.trick_no <= last, 0.15, keep)


def _decisions(model: bool) -> list:
    return search_decisions("meri", _play_positions(5, 3), BUDGET, model)


def test_the_horizon_leaf_is_the_model_on_the_world_features():
    """An unfinished playout: weights · φ for team 0, its negative for team 1; without the model,
    the team points won so far (H-30..H-33)."""
    adapter = bots.make_adapter("meri", 1, model=True)
    plain = bots.make_adapter("meri", 1, model=False)
    model = learned.model("meri", FEATURES)
    assert model is not None and adapter.model() is model and plain.model() is None
    differ = 0
    for state in _play_positions(8, 5, boundary=True):
        x = state_features(state)
        so_far = state.team_scores[0] - state.team_scores[1]
        for seat in range(8):
            sign = 1.0 if seat & 1 == 0 else -1.0
            assert adapter.value(state, seat) == pytest.approx(sign * model(x))
            assert plain.value(state, seat) == sign * so_far
        assert leaf_value(model.weights, state) == pytest.approx(model(x))
        differ += adapter.value(state, 0) != pytest.approx(plain.value(state, 0))
    assert differ >= 6


def test_a_finished_deal_is_scored_by_its_result_model_or_not():
    state = _play_positions(1, 6)[0]
    rng = random.Random(1)
    while not state.is_over:
        state.apply(state.random_action(rng))
    for seat in range(8):
        team = seat & 1
        expected = state.team_scores[team] - state.team_scores[team ^ 1]
        assert bots.make_adapter("meri", 0, model=True).value(state, seat) == expected
        assert bots.make_adapter("meri", 0, model=False).value(state, seat) == expected


def _team_diff(state, cards) -> int:
    """How many of `cards` team 0 holds minus team 1."""
    return sum((1 if s & 1 == 0 else -1) * sum(1 for c in cards if state.hands[s] >> c & 1)
               for s in range(8))


def test_features_of_a_position_count_each_team():
    """The per-team features are team 0's count minus team 1's, from the hands."""
    for state in _play_positions(8, 7, boundary=True):
        phi = dict(zip(FEATURES, state_features(state), strict=True))
        t = state.trump
        trumps = cards_of(TRUMP_MASK[t])
        assert phi["trumps"] == _team_diff(state, trumps)
        for i in range(5):
            assert phi[f"trump{i + 1}"] == _team_diff(state, [TRUMP_ORDER[t][i]])
        live = [c for s in range(8) for c in cards_of(state.hands[s])]
        masters = []
        for suit in range(5):
            plain = [c for c in live if PLAIN_SUIT_MASK[t][suit] >> c & 1]
            if plain:
                masters.append(max(plain, key=PLAIN_RANK.__getitem__))
        assert phi["masters"] == _team_diff(state, masters)
        voids = sum((1 if s & 1 == 0 else -1)
                    * sum(1 for suit in range(5) if suit != t
                          and not state.hands[s] & PLAIN_SUIT_MASK[t][suit])
                    for s in range(8))
        assert phi["voids"] == voids
        assert phi["score_diff"] == state.team_scores[0] - state.team_scores[1]
        assert phi["lead"] == (1.0 if state.leader & 1 == 0 else -1.0)
        left = (9 - state.trick_no) / 9
        assert phi["trumps*left"] == pytest.approx(phi["trumps"] * left)
        assert len(base_features(state)) * 2 == len(FEATURES)


def test_playouts_with_the_model_stop_at_the_horizon_and_are_priced_so():
    """A decision in trick t (0-based) plays out to the start of trick t + HORIZON and costs
    HORIZON_COST[t] of a playout to the end; where the horizon reaches trick 9, outside the play
    and without the model, playouts run to the end at cost 1."""
    model = bots.make_adapter("meri", 0, model=True)
    plain = bots.make_adapter("meri", 0, model=False)
    seen = set()
    for state in _play_positions(30, 4, last=8):
        obs = state.observation(state.to_act)
        t = obs.trick_no
        for adapter in (model, plain):
            adapter.prepare(obs)
            world = state.clone()
            world.apply(state.legal_actions()[0])
            adapter.rollout(world, random.Random(t))
            if adapter is model and t + HORIZON < 8:
                assert adapter.cost(obs) == HORIZON_COST[t] and adapter.horizon(obs) == t + HORIZON
                assert world.trick_no == t + HORIZON and world.n_played == 0
                assert not world.is_over
                seen.add(t)
            else:
                assert adapter.cost(obs) == 1.0 and adapter.horizon(obs) == NO_STOP
                assert world.is_over
    assert len(seen) >= 3
    declare = registry.get("meri").new_deal(5)
    assert model.cost(declare.observation(declare.to_act)) == 1.0


def test_no_peeking_with_the_model():
    """Two deals with one observation but different hidden cards get the same decision from the
    search with the learned leaf value, its playouts stopped at the horizon."""
    states = _play_positions(6, 8)
    assert len(states) == 6
    check_no_peeking("meri", states, _stops_at_the_horizon)


def _stops_at_the_horizon(adapter, obs) -> None:
    assert adapter.horizon(obs) != NO_STOP


def test_the_model_changes_some_decisions():
    """The model really steers the search (else measuring it would compare a bot with itself)."""
    differ = 0
    for i, state in enumerate(_play_positions(20, 11)):
        obs, legal = state.observation(state.to_act), state.legal_actions()
        with_model = SearchBot(bots.make_adapter("meri", i, model=True), i, BUDGET)
        without = SearchBot(bots.make_adapter("meri", i, model=False), i, BUDGET)
        differ += with_model.choose(obs, legal) != without.choose(obs, legal)
    assert differ >= 1


@pytest.mark.parametrize("kind", BAD_FILES)
def test_missing_or_bad_weights_fall_back_with_one_log_line(kind, tmp_path, monkeypatch, caplog):
    check_fallback("meri", FEATURES, kind, _decisions, tmp_path, monkeypatch, caplog)


def test_training_is_reproducible_and_writes_a_loadable_file(tmp_path):
    one = check_training_reproducible(train.train_meri, "meri", FEATURES, 40, tmp_path)
    assert one["training"]["samples_fit"] > 150
    assert one["training"]["mse_model"] < one["training"]["mse_score_so_far"]


def test_training_targets_are_the_final_team_score_difference():
    """Every sample of a deal carries that deal's final team 0 minus team 1 score (H-33), and
    samples sit at trick boundaries after the first trick (seven a deal)."""
    for deal in train.meri_samples(4, 2):
        assert len(deal) == 7 and len({y for _x, y in deal}) == 1
        assert all(len(x) == len(FEATURES) for x, _y in deal)
        assert abs(deal[0][1]) <= 9 + 5 * 9


def test_the_playouts_target_is_the_mean_of_search_playouts_from_the_position():
    """`--target playouts`: each sample's target is the mean final team score difference of
    MERI_PLAYOUTS playouts of the search's policy from that position (so it varies within a
    deal), on the same positions and features as the outcome target."""
    outcome = train.meri_samples(3, 5)
    playouts = train.meri_samples(3, 5, target="playouts")
    for deal_o, deal_p in zip(outcome, playouts, strict=True):
        assert [x for x, _y in deal_o] == [x for x, _y in deal_p]
        assert all(y * train.MERI_PLAYOUTS == round(y * train.MERI_PLAYOUTS) for _x, y in deal_p)
    assert len({y for deal in playouts for _x, y in deal}) > len(playouts)
    assert train.meri_samples(3, 5, target="playouts") == playouts


def test_train_meri_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "w.json"
    assert train.main(["meri", "--deals", "20", "--seed", "3", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["training"]["command"] == ("python -m engine.ai.tools.train meri --deals 20 "
                                           "--seed 3 --holdout 0.2 --l2 1.0")
    assert "wrote" in capsys.readouterr().out
    assert data["training"]["target"] == "outcome"
    assert train.main(["meri", "--deals", "20", "--target", "playouts", "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["training"]["command"].endswith(
        "--target playouts")
    assert train.main(["meri", "--deals", "20", "--target", "win", "--out", str(out)]) == 2
    assert train.main(["chan", "--deals", "20", "--target", "playouts", "--out", str(out)]) == 2
    assert train.main(["tractor", "--deals", "20", "--target", "win", "--out", str(out)]) == 2
