"""The learned move policy (engine/ai/policy.py, chan_policy.py, tools/imitate.py; issue 32 step 2).

Acceptance: the policy is a proper distribution over the legal moves and its best move is the
highest score; a game's move features come from the observation alone and, weighted by the
heuristic's value alone, choose the heuristic's moves; a missing, corrupt or mismatched weights
file gives no policy with one log line (the `policy` kind then plays the heuristic); labelling is
the same for any number of processes and resumes from its samples file; the fit is reproducible
and recovers a teacher it can represent. Tiny runs; nothing timed.
"""

from __future__ import annotations

import json
import logging
import math
import random

import pytest

from engine import registry
from engine.ai import bots, policy
from engine.ai.chan_heuristic import ChanHeuristicBot
from engine.ai.chan_policy import FEATURES, move_features
from engine.ai.tools import imitate, policy_fit
from tests.engine.learned_checks import BAD_FILES, bad_content
from tests.engine.midgame import positions


@pytest.fixture(autouse=True)
def fresh_policy_cache():
    policy.clear_cache()
    yield
    policy.clear_cache()


def _weights(**named: float) -> list[float]:
    return [named.get(name, 0.0) for name in FEATURES]


def _decisions(count: int, seed: int) -> list:
    """(observation, legal) of Chắn decisions with a choice, from mostly-heuristic play."""
    game = registry.get("chan")
    out = []
    for d in range(40):
        state = game.new_deal(seed * 100 + d)
        rng = random.Random(d)
        while not state.is_over and len(out) < count:
            obs, legal = state.observation(state.to_act), state.legal_actions()
            if len(legal) > 1:
                out.append((obs, legal))
            state.apply(ChanHeuristicBot(0).choose(obs, legal) if rng.random() < 0.8
                        else rng.choice(legal))
        if len(out) >= count:
            break
    return out


def test_a_policy_is_a_distribution_and_its_best_is_the_top_score():
    model = policy.LinearPolicy([1.0, -2.0])
    rows = [[0.0, 0.0], [3.0, 1.0], [1000.0, 0.0], [1000.0, 0.0]]
    probs = model.probabilities(rows)
    assert sum(probs) == pytest.approx(1.0) and all(p >= 0.0 for p in probs)
    assert model.best(rows) == 2  # the first of two equal top scores
    draws = [model.sample(rows[:2], random.Random(s)) for s in range(400)]
    assert 0.6 < draws.count(1) / 400 < 0.85  # P = e / (1 + e) ≈ 0.73
    assert [model.sample(rows[:2], random.Random(7)) for _ in range(3)] == \
        [model.sample(rows[:2], random.Random(7)) for _ in range(3)]


#: Weights that make each game's policy its heuristic: Chắn's value (claims always taken),
#: Meri's and Tractor's "the heuristic's move".
HEURISTIC_WEIGHTS = {"chan": {"value": 10.0, "win": 100.0, "chiu": 100.0},
                     "meri": {"heuristic": 10.0}, "tractor": {"heuristic": 10.0}}


def _moves(game: str, state) -> tuple:
    """(observation, the search adapter's candidates: the moves a policy weighs) at `state`."""
    obs = state.observation(state.to_act)
    return obs, bots.make_adapter(game, 1).candidates(obs, state.legal_actions(),
                                                      random.Random(1))


def test_every_game_with_ai_names_its_policy_features():
    assert set(HEURISTIC_WEIGHTS) == set(registry.ai_infos())
    for game in HEURISTIC_WEIGHTS:
        assert policy.features_of(game) is not None


@pytest.mark.parametrize("game", sorted(HEURISTIC_WEIGHTS))
def test_rows_one_per_move_from_the_observation_alone(game):
    features = policy.features_of(game)
    for state in positions(game, 8, 4):
        obs, moves = _moves(game, state)
        rows = features.move_features(obs, moves)
        assert len(rows) == len(moves) and all(len(r) == len(features.FEATURES) for r in rows)
        other = bots.make_adapter(game, 1).sample(obs, random.Random(1))  # other hidden cards
        assert other.observation(state.to_act) == obs
        assert _moves(game, other) == (obs, moves)
        assert features.move_features(*_moves(game, other)) == rows


@pytest.mark.parametrize("game", sorted(HEURISTIC_WEIGHTS))
def test_the_heuristics_own_reading_plays_the_heuristics_moves(game):
    """Weighted by the heuristic's own reading alone, the policy's best move is the heuristic
    bot's (the adapter's first candidate) at nearly every decision (Chắn: ties between equal
    values aside)."""
    features = policy.features_of(game)
    named = HEURISTIC_WEIGHTS[game]
    model = policy.LinearPolicy([named.get(n, 0.0) for n in features.FEATURES])
    decisions = [_moves(game, s) for s in positions(game, 150, 2)]
    decisions = [(obs, moves) for obs, moves in decisions if len(moves) > 1]
    same = sum(moves[model.best(features.move_features(obs, moves))] == moves[0]
               for obs, moves in decisions)
    assert same / len(decisions) > 0.97


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_weights_file_gives_no_policy_and_one_line(kind, tmp_path, caplog):
    shipped = {"format": policy.FORMAT, "version": 1, "game": "chan", "model": policy.MODEL,
               "features": list(FEATURES), "weights": [0.0] * len(FEATURES)}
    path = tmp_path / "chan-policy.json"
    content = bad_content(kind, shipped)
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="engine.ai.policy"):
        assert policy.policy("chan", path) is None
        assert policy.policy("chan", path) is None  # asked twice: read (and logged) once
    lines = [r for r in caplog.records if r.name == "engine.ai.policy"]
    assert len(lines) == 1 and "policy not used" in lines[0].getMessage()
    bot = policy.PolicyBot("chan", bots.make_adapter("chan", 0), 0, path)
    for obs, legal in _decisions(20, 3):
        assert bot.choose(obs, legal) == ChanHeuristicBot(0).choose(obs, legal)


def test_a_good_file_loads_and_the_policy_kind_plays_it(tmp_path, monkeypatch):
    data = {"format": policy.FORMAT, "version": 1, "game": "chan", "model": policy.MODEL,
            "features": list(FEATURES), "weights": _weights(give_same=-1.0, win=9.0)}
    path = tmp_path / "chan-policy.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    model = policy.policy("chan", path)
    assert model is not None and model.weights == tuple(data["weights"])
    monkeypatch.setattr(policy, "policy_path", lambda game: path)
    bot = bots.make_bot("chan", "policy", 1)
    for obs, legal in _decisions(30, 4):
        scores = dict(zip(legal, model.scores(move_features(obs, legal)), strict=True))
        assert scores[bot.choose(obs, legal)] == max(scores.values())  # a most likely move
    monkeypatch.setenv("PARLOR_NO_MODEL", "1")
    policy.clear_cache()
    assert policy.policy("chan", path) is None


# -- labelling and fitting -----------------------------------------------------------------------
def test_labels_are_the_same_for_any_number_of_processes_and_resume(tmp_path):
    one = imitate.collect("chan", "heuristic", "easy", 5, 4, 2, 1, tmp_path / "one.jsonl")
    two = imitate.collect("chan", "heuristic", "easy", 5, 4, 2, 2, tmp_path / "two.jsonl")
    assert one == two and sum(map(len, one)) > 10
    grown = imitate.collect("chan", "heuristic", "easy", 5, 6, 2, 1, tmp_path / "one.jsonl")
    assert grown[:4] == one and len(grown) == 6
    lines = (tmp_path / "one.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 6  # the header, then each deal once


def test_a_samples_file_of_another_run_is_refused_and_a_cut_line_dropped(tmp_path):
    path = tmp_path / "s.jsonl"
    imitate.collect("chan", "heuristic", "easy", 5, 2, 2, 1, path)
    with pytest.raises(imitate.SamplesError, match="another run"):
        imitate.collect("chan", "heuristic", "easy", 6, 2, 2, 1, path)
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n", encoding="utf-8")
    with pytest.raises(imitate.SamplesError, match="not a samples file"):
        imitate.collect("chan", "heuristic", "easy", 5, 2, 2, 1, other)
    assert other.read_text(encoding="utf-8") == "my notes\n"  # untouched
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"deal": 2, "positions": [[[0')
    again = imitate.collect("chan", "heuristic", "easy", 5, 2, 2, 1, path)
    assert path.read_bytes() == whole and len(again) == 2


def test_the_fit_recovers_a_teacher_it_can_represent_and_is_reproducible():
    """Labels drawn from a known policy over real rows: the fit finds weights that choose
    like it, and the same positions give the same weights."""
    truth = policy.LinearPolicy(_weights(value=2.0, give_same=-0.8, capture_ca=-1.0))
    rng = random.Random(3)
    data = []
    for obs, legal in _decisions(400, 5):
        rows = move_features(obs, legal)
        data.append((rows, truth.sample(rows, rng), 0, [None] * len(rows)))
    weights = policy_fit.fit(data[:300], l2=0.1)
    assert policy_fit.fit(data[:300], l2=0.1) == weights
    test = data[300:]
    assert policy_fit.log_loss(weights, test) < policy_fit.log_loss(truth.weights, test) + 0.05
    assert (policy_fit.agreement(test, weights)
            >= policy_fit.agreement(test, list(truth.weights)) - 0.05)
    assert weights[FEATURES.index("value")] > 1.0


def test_soft_targets_take_their_share_from_the_teachers_values():
    rows = [[0.0], [1.0], [2.0]]
    assert policy_fit.targets((rows, 1, 0, [None, None, None]), 0.5, 1.0) == [0.0, 1.0, 0.0]
    soft = policy_fit.targets((rows, 1, 0, [0.0, 2.0, None]), 0.5, 1.0)
    assert sum(soft) == pytest.approx(1.0) and soft[2] == 0.0
    assert soft[0] == pytest.approx(0.5 / (1 + math.e ** 2))
    assert soft[1] == pytest.approx(0.5 + 0.5 * math.e ** 2 / (1 + math.e ** 2))
    # A teacher whose choice is always the first move but whose values prefer the second:
    # with the values' share the fitted policy leans toward the second.
    data = [([[0.0], [1.0]], 0, 0, [0.0, 1.0])] * 20
    hard = policy_fit.fit(data, l2=1.0)
    mixed = policy_fit.fit(data, l2=1.0, mix=1.0, temperature=0.5)
    assert hard[0] < 0.0 < mixed[0]


def test_the_command_writes_a_policy_the_bots_read(tmp_path, capsys):
    out = tmp_path / "chan-policy.json"
    assert imitate.main(["chan", "--deals", "4", "--teacher", "heuristic", "--players", "easy",
                         "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["training"]["command"].startswith("python -m engine.ai.tools.imitate chan")
    assert data["training"]["agree_model"] >= data["training"]["agree_played"]
    assert policy.policy("chan", out) is not None
    assert imitate.main(["chan", "--deals", "1"]) == 2
    assert imitate.main(["chan", "--teacher", "nobody"]) == 2
    assert "wrote" in capsys.readouterr().out


def test_the_search_keeps_the_policys_move_first(tmp_path, monkeypatch):
    """`normal-policy`: the policy's move is the search's first candidate (the one it keeps
    unless another is clearly better); without a policy the kind decides as normal does."""
    from engine.ai.search import Budget

    budget = Budget(playouts=60, max_worlds=4, min_worlds=2)
    decisions = _decisions(12, 6)
    monkeypatch.setattr(policy, "policy_path", lambda game: tmp_path / "none.json")
    plain = [bots.make_search_bot("chan", 3, budget).choose(o, m) for o, m in decisions]
    assert [bots.make_search_bot("chan", 3, budget, learned_lead=True).choose(o, m)
            for o, m in decisions] == plain
    data = {"format": policy.FORMAT, "version": 1, "game": "chan", "model": policy.MODEL,
            "features": list(FEATURES), "weights": _weights(give_same=3.0, win=9.0)}
    path = tmp_path / "chan-policy.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(policy, "policy_path", lambda game: path)
    policy.clear_cache()
    best = policy.lead("chan")
    assert best is not None
    led = bots.make_bot("chan", "normal-policy", 3)
    moved = 0
    for obs, legal in decisions:
        led.choose(obs, legal)
        weighing = led.last_weighing
        if weighing is not None:
            cands = led._candidates(obs, legal)
            moved += cands[0] != bots.make_search_bot("chan", 3)._candidates(obs, legal)[0]
            assert cands[0] == best(obs, cands)
    assert moved > 0


def test_a_games_lead_switch_gives_its_levels_the_policys_move_first(monkeypatch):
    """`AiInfo.lead`: the levels' (and the coach's) search keeps the policy's move first; the
    `-nopolicy` kinds keep the heuristic's whatever the switch says, `-policy` the policy's."""
    import dataclasses

    for lead in (False, True):
        profile = dataclasses.replace(bots.PROFILES["meri"], lead=lead)
        monkeypatch.setitem(bots.PROFILES, "meri", profile)
        for level in ("normal", "hard"):
            assert (bots.make_bot("meri", level, 1).lead is not None) == lead
            assert bots.make_bot("meri", f"{level}-nopolicy", 1).lead is None
            assert bots.make_bot("meri", f"{level}-policy", 1).lead is not None
        assert (bots.make_search_bot("meri", 1).lead is not None) == lead


# -- the policy as the tree search's prior -------------------------------------------------------
def test_puct_spreads_its_weight_by_the_policys_probabilities():
    """A fresh node tries the likeliest move first; a move the policy gives nothing still gets
    its even share of the rest (and the probabilities of moves not legal here are dropped)."""
    from engine.ai.ismcts_tree import _select_puct

    node: dict = {}
    probs = {"a": 0.1, "b": 0.7, "c": 0.2, "gone": 5.0}
    move, _edge = _select_puct(node, ["a", "b", "c"], 1.0, 0.5, probs)
    assert move == "b"
    node = {}
    move, _edge = _select_puct(node, ["a", "z"], 1.0, 0.5, {"a": 0.0, "z": 0.0})
    assert move == "a"  # no weight anywhere: even, the first on ties


@pytest.mark.parametrize("game", sorted(HEURISTIC_WEIGHTS))
def test_the_tree_search_with_a_learned_prior_plays_legally_and_by_seed(game, tmp_path,
                                                                        monkeypatch):
    import dataclasses
    import time

    from engine.ai.ismcts import IsmctsBot
    from engine.ai.ismcts_games import make_tree_game

    features = policy.features_of(game)
    named = {**HEURISTIC_WEIGHTS[game], "give_same": -0.5, "trump_rank": 1.0}
    data = {"format": policy.FORMAT, "version": 1, "game": game, "model": policy.MODEL,
            "features": list(features.FEATURES),
            "weights": [named.get(n, 0.0) for n in features.FEATURES]}
    path = tmp_path / f"{game}-policy.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(policy, "policy_path", lambda g: path)
    tree_game = make_tree_game(game, 2, learned_prior=True)
    assert tree_game.policy is not None
    budget = dataclasses.replace(bots.PUCT_BUDGETS[game], iterations=60)
    states = positions(game, 4, 9)
    runs = []
    for _ in range(2):
        bot = IsmctsBot(make_tree_game(game, 2, True), 2, budget, clock=time.process_time)
        run = []
        for state in states:
            legal = state.legal_actions()
            action = bot.choose(state.observation(state.to_act), legal)
            assert action in legal
            run.append((action, bot.last_weighing))
        runs.append(run)
    assert runs[0] == runs[1]
    assert bots.make_bot(game, "puct-policy", 1).game.policy is not None


def test_a_rounds_samples_are_tied_to_the_policy_its_teacher_read(tmp_path, monkeypatch):
    path = tmp_path / "chan-policy.json"
    monkeypatch.setattr(policy, "policy_path", lambda game: path)
    assert "policy_sha256" not in imitate.samples_header("chan", "normal", "heuristic", 1, 1)
    before = imitate.samples_header("chan", "normal-policy", "heuristic", 1, 1)
    path.write_text("{}", encoding="utf-8")
    after = imitate.samples_header("chan", "normal-policy", "heuristic", 1, 1)
    assert before["policy_sha256"] == "" and after["policy_sha256"] != ""


def test_shipped_policies_load_and_say_how_they_were_made():
    """Each policy file in the repository: at most 1 MB, read with the features its code
    computes today, with the command, teacher and figures of its training."""
    shipped = [game for game in HEURISTIC_WEIGHTS if policy.policy_path(game).exists()]
    for game in shipped:
        path = policy.policy_path(game)
        assert path.stat().st_size <= 1 << 20
        assert policy.policy(game) is not None
        training = json.loads(path.read_text(encoding="utf-8"))["training"]
        assert training["command"].startswith(f"python -m engine.ai.tools.imitate {game} ")
        assert training["agree_model"] > 0 and training["teacher"]
