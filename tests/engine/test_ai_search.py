"""Search bots of every game (engine/ai/search.py + engine/ai/<game>_search.py).

Acceptance: sampled worlds never contradict the observation, the bot cannot peek (same observation
→ same decision for the same seed, whatever the hidden cards), it always returns a legal action,
the anytime loop honours its deadline/iteration cap, and a tiny arena runs.
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.ai import arena, bots
from engine.ai.base import RandomBot
from engine.ai.bots import make_bot
from engine.ai.search import HARD, NORMAL, Budget, EasyBot, SearchBot

GAMES = ["meri", "tractor", "chan"]


def _positions(game_name: str, count: int, seed: int):
    """`count` random mid-deal states (random legal play from engine deals), every phase mixed."""
    game = registry.get(game_name)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_deal(rng.getrandbits(32))
        stops = sorted(rng.sample(range(200), 4))
        step = 0
        while not state.is_over and stops:
            if step == stops[0]:
                out.append(state.clone())
                stops.pop(0)
            state.apply(state.random_action(rng))
            step += 1
    return out[:count]


def _legal_set(state) -> set:
    legal = state.legal_actions()
    if len(legal) > 2000:
        return {len(legal)}
    return set(legal)


@pytest.mark.parametrize("game_name", GAMES)
def test_sampled_worlds_are_consistent_with_the_observation(game_name):
    """determinize(obs, sample).observation(seat) == obs, with the same legal actions."""
    adapter = bots.make_adapter(game_name, 1)
    rng = random.Random(11)
    tried = failed = 0
    for state in _positions(game_name, 40, 5):
        seat = state.to_act
        obs = state.observation(seat)
        for _ in range(3):
            tried += 1
            try:
                world = adapter.sample(obs, rng)
            except ValueError:  # no consistent world found (rare; the bot then plays its rule)
                failed += 1
                continue
            assert world.observation(seat) == obs
            assert world.to_act == seat and world.phase == state.phase
            assert _legal_set(world) == _legal_set(state)
    assert failed <= tried // 20


@pytest.mark.parametrize("game_name", GAMES)
def test_no_peeking_same_observation_same_decision(game_name):
    """Two states with one observation but different hidden cards get the same decision."""
    adapter = bots.make_adapter(game_name, 2)
    rng = random.Random(3)
    budget = Budget(seconds=60.0, max_worlds=3)
    for state in _positions(game_name, 10, 8):
        seat = state.to_act
        obs = state.observation(seat)
        try:
            other = adapter.sample(obs, rng)  # a different hidden deal, same observation
        except ValueError:  # rare (random play can leave hidden-only constraints): skip
            continue
        assert other.observation(seat) == obs
        one = SearchBot(bots.make_adapter(game_name, 4), 9, budget)
        two = SearchBot(bots.make_adapter(game_name, 4), 9, budget)
        assert one.choose(obs, state.legal_actions()) == two.choose(
            other.observation(seat), other.legal_actions())


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("kind", ["easy", "normal", "hard"])
def test_bots_always_return_a_legal_action(game_name, kind, monkeypatch):
    monkeypatch.setattr(bots, "NORMAL", Budget(seconds=60.0, max_worlds=2))
    monkeypatch.setattr(bots, "HARD", Budget(seconds=60.0, max_worlds=2, inference=True))
    for i, state in enumerate(_positions(game_name, 12, 21)):
        bot = make_bot(game_name, kind, i)
        legal = state.legal_actions()
        action = bot.choose(state.observation(state.to_act), legal)
        state.clone().apply(action)  # raises IllegalAction if it is not legal


class StepClock:
    """A fake clock that advances `step` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("game_name", GAMES)
def test_deadline_and_iteration_cap_are_honoured(game_name):
    """With each clock read costing 10 ms and a 50 ms budget, only a couple of worlds run;
    with an instant clock the iteration cap stops the loop."""
    for state in _positions(game_name, 30, 13):
        obs = state.observation(state.to_act)
        legal = state.legal_actions()
        slow = SearchBot(bots.make_adapter(game_name, 1), 1, Budget(0.05, 10_000),
                         clock=StepClock(0.01))
        slow.choose(obs, legal)
        assert slow.last_worlds <= 3
        capped = SearchBot(bots.make_adapter(game_name, 1), 1, Budget(1e9, 4),
                           clock=StepClock(0.0))
        capped.choose(obs, legal)
        assert capped.last_worlds <= 4


@pytest.mark.parametrize("game_name", GAMES)
def test_tiny_arena_smoke(game_name, monkeypatch):
    monkeypatch.setattr(bots, "NORMAL", Budget(seconds=0.005, max_worlds=2))
    results, rss = arena.play_deals(game_name, "normal", "heuristic", 1, 0)
    summary = arena.summarize(game_name, "normal", "heuristic", results, rss)
    assert summary["deals"] == 1 and summary["decisions"]["a"] > 0
    assert summary["metric"] in results[0].metrics


def _heuristic_positions(game_name: str, deals: int, every: int):
    """(observation, true state) pairs from deals the heuristic bots play against each other."""
    game = registry.get(game_name)
    bots = [make_bot(game.name, "heuristic", s) for s in range(game.players)]
    out = []
    for d in range(deals):
        state = game.new_deal(1000 + d)
        step = 0
        while not state.is_over:
            seat = state.to_act
            obs = state.observation(seat)
            if step % every == every - 1:
                out.append((obs, state.clone()))
            state.apply(bots[seat].choose(obs, state.legal_actions()))
            step += 1
    return out


@pytest.mark.parametrize("game_name", GAMES)
def test_inference_weights_the_true_world_above_random_worlds(game_name):
    """Hard level: against heuristic players, the real deal explains their plays better than a
    random consistent deal does, so it gets a higher weight on average."""
    adapter = bots.make_adapter(game_name, 5)
    rng = random.Random(4)
    true_w, sampled_w = [], []
    for obs, state in _heuristic_positions(game_name, 3, 5):
        true_w.append(adapter.weight(obs, state, rng))
        try:
            sampled_w.append(adapter.weight(obs, adapter.sample(obs, rng), rng))
        except ValueError:
            continue
    assert len(sampled_w) >= 5
    assert sum(true_w) / len(true_w) > sum(sampled_w) / len(sampled_w)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_kind_is_the_bot_it_names(game_name):
    """engine.ai.bots builds, for every game, the bot each kind names: random and heuristic as
    they are, easy wrapping this game's heuristic, normal/search and hard as search bots on this
    game's adapter with the NORMAL and HARD budgets — and an unknown kind is refused."""
    profile = bots.PROFILES[game_name]
    assert isinstance(make_bot(game_name, "random", 1), RandomBot)
    assert type(make_bot(game_name, "heuristic", 1)) is profile.heuristic
    easy = make_bot(game_name, "easy", 1)
    assert isinstance(easy, EasyBot) and type(easy.heuristic) is profile.heuristic
    for kind, budget, name in (("normal", NORMAL, "search"), ("search", NORMAL, "search"),
                               ("hard", HARD, "hard")):
        bot = make_bot(game_name, kind, 1)
        assert isinstance(bot, SearchBot) and isinstance(bot.adapter, profile.adapter)
        assert (bot.budget, bot.name) == (budget, name)
    assert set(bots.LEVELS) <= set(bots.KINDS) and bots.DEFAULT_LEVEL in bots.LEVELS
    with pytest.raises(KeyError, match="genius"):
        make_bot(game_name, "genius", 1)


def test_an_unknown_game_has_no_ai():
    with pytest.raises(KeyError, match="no AI for game 'whist'"):
        make_bot("whist", "heuristic", 1)
