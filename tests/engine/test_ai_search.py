"""Search bots of every game (engine/ai/search.py + engine/ai/<game>_search.py).

Acceptance: sampled worlds never contradict the observation, the bot cannot peek (same observation
→ same decision for the same seed, whatever the hidden cards), it always returns a legal action,
a level is an amount of work (the same seed gives the same decisions whatever the clock does; the
wall-clock safety net only stops a decision that would overrun it, legally and logged), and a tiny
arena runs. No test here times anything: the clocks are fakes.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time

import pytest

from engine import registry
from engine.ai import bots, search
from engine.ai.base import RandomBot
from engine.ai.bots import make_bot
from engine.ai.search import Budget, EasyBot, SafetyLog, SearchBot
from engine.ai.tools import arena
from tests.engine.midgame import twins

GAMES = ["meri", "tractor", "chan"]

#: Budgets small enough for quick tests, with the shipped levels' shape (hard infers).
TINY = Budget(playouts=8, max_worlds=2)
TINY_HARD = Budget(playouts=8, max_worlds=2, inference=True)


def _tiny_levels(monkeypatch, normal: Budget = TINY, hard: Budget = TINY_HARD) -> None:
    """Give every game's normal and hard levels tiny budgets for this test."""
    for name, profile in list(bots.PROFILES.items()):
        monkeypatch.setitem(bots.PROFILES, name,
                            dataclasses.replace(profile, normal=normal, hard=hard))


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


@pytest.mark.parametrize(("game_name", "model"),
                         [(g, m) for g in GAMES for m in (True, False)])
def test_no_peeking_same_observation_same_decision(game_name, model):
    """Two states with one observation but different hidden cards get the same decision, with
    the learned leaf value (every game's, engine/ai/learned.py) and without it (mid-play
    positions with the model: also test_ai_tractor_value.py, test_ai_meri_value.py)."""
    # the model is really in use (or really off)
    assert (bots.make_adapter(game_name, 4, model).model() is not None) == model
    adapter = bots.make_adapter(game_name, 2)
    budget = Budget(playouts=1000, max_worlds=3)
    for state, seat, obs, other in twins(_positions(game_name, 10, 8), adapter.sample, 3):
        one = SearchBot(bots.make_adapter(game_name, 4, model), 9, budget)
        two = SearchBot(bots.make_adapter(game_name, 4, model), 9, budget)
        assert one.choose(obs, state.legal_actions()) == two.choose(
            other.observation(seat), other.legal_actions())


@pytest.mark.parametrize("game_name", ["meri", "chan"])  # the games that ship a policy
def test_no_peeking_with_the_learned_policy_first(game_name):
    """The same with the learned policy's move first (`AiInfo.lead`, Meri's levels): its
    features read the observation alone, so one observation gives one decision."""
    from engine.ai import policy

    assert policy.lead(game_name) is not None  # the shipped weights are really in use
    adapter = bots.make_adapter(game_name, 2)
    budget = Budget(playouts=600, max_worlds=3)
    for state, seat, obs, other in twins(_positions(game_name, 8, 12), adapter.sample, 5):
        one = bots.make_search_bot(game_name, 9, budget, learned_lead=True)
        two = bots.make_search_bot(game_name, 9, budget, learned_lead=True)
        assert one.choose(obs, state.legal_actions()) == two.choose(
            other.observation(seat), other.legal_actions())


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("kind", ["easy", "normal", "hard"])
def test_bots_always_return_a_legal_action(game_name, kind, monkeypatch):
    _tiny_levels(monkeypatch)
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


def test_a_budget_buys_worlds_by_the_work_they_cost():
    """worlds = playouts / (candidates × playout cost + world cost), within [1, max_worlds]."""
    budget = Budget(playouts=600, max_worlds=200, world_cost=1.0)
    assert budget.worlds(5) == 100
    assert budget.worlds(2) == 200  # capped
    assert budget.worlds(5, cost=3.0) == 37
    assert Budget(playouts=10, max_worlds=50, world_cost=45.0).worlds(12) == 1  # at least one


@pytest.mark.parametrize("game_name", GAMES)
def test_the_worlds_of_a_decision_are_its_budgets(game_name):
    """With a clock that never moves, a decision samples the worlds its budget buys for its
    candidates, or fewer when the early stop settles it — never more."""
    budget = Budget(playouts=40, max_worlds=12)
    full = 0
    for state in _positions(game_name, 30, 13):
        obs = state.observation(state.to_act)
        legal = state.legal_actions()
        bot = SearchBot(bots.make_adapter(game_name, 1), 1, budget, clock=StepClock(0.0))
        bot.choose(obs, legal)
        k = len(bots.make_adapter(game_name, 1).candidates(obs, legal, random.Random(1)))
        planned = budget.worlds(k, bot.adapter.cost(obs)) if k > 1 else 0
        assert bot.last_worlds <= planned and not bot.last_cut
        assert bot.last_playouts <= bot.last_worlds * k
        full += bot.last_worlds == planned
    assert full > 0


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_same_seed_same_decisions_whatever_the_clock(game_name, level):
    """The shipped level's decisions and work are the same with a clock that never moves and
    with one that runs slow (every read 1 ms later) but stays below the safety net."""
    budget = bots.PROFILES[game_name].budget(level)
    positions = _positions(game_name, 3, 31)
    runs = []
    for clock in (StepClock(0.0), StepClock(0.001)):
        bot = SearchBot(bots.make_adapter(game_name, 6), 6, budget, clock=clock)
        run = []
        for state in positions:
            action = bot.choose(state.observation(state.to_act), state.legal_actions())
            run.append((action, bot.last_worlds, bot.last_playouts, bot.last_cut))
        runs.append(run)
    fast, slow = runs
    assert fast == slow
    assert any(worlds for _, worlds, *_ in fast)  # the positions did search
    assert not any(cut for *_, cut in slow)


@pytest.mark.parametrize("game_name", GAMES)
def test_the_safety_net_stops_a_decision_legally_and_says_so(game_name, monkeypatch, caplog):
    """A clock 1 s further on at every read, against a 1.5 s safety net: the decision stops after
    its first world, still plays a legal action, and the log says so once (rate-limited)."""
    monkeypatch.setattr(search, "SAFETY", SafetyLog(interval=3600.0))
    budget = Budget(playouts=10_000, max_worlds=50, seconds=1.5)
    states = [s for s in _positions(game_name, 30, 17)
              if len(bots.make_adapter(game_name, 1).candidates(
                  s.observation(s.to_act), s.legal_actions(), random.Random(1))) > 1][:2]
    assert len(states) == 2
    caplog.set_level(logging.WARNING, logger="engine.ai.search")
    for state in states:
        bot = SearchBot(bots.make_adapter(game_name, 1), 1, budget, clock=StepClock(1.0))
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        state.clone().apply(action)  # raises IllegalAction if it is not legal
        assert bot.last_cut and bot.last_worlds == 1
    lines = [r.getMessage() for r in caplog.records if r.name == "engine.ai.search"]
    assert len(lines) == 1 and "1.50 s safety net" in lines[0]
    assert search.SAFETY.unlogged == 1  # the second hit waits for the next line


@pytest.mark.parametrize("game_name", GAMES)
def test_tiny_arena_smoke(game_name, monkeypatch):
    _tiny_levels(monkeypatch)
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
    game's adapter with the profile's normal and hard budgets — and an unknown kind is
    refused."""
    profile = bots.PROFILES[game_name]
    assert isinstance(make_bot(game_name, "random", 1), RandomBot)
    assert type(make_bot(game_name, "heuristic", 1)) is profile.heuristic
    easy = make_bot(game_name, "easy", 1)
    assert isinstance(easy, EasyBot) and type(easy.heuristic) is profile.heuristic
    for kind, budget, name in (("normal", profile.normal, "search"),
                               ("search", profile.normal, "search"), ("hard", profile.hard, "hard")):
        bot = make_bot(game_name, kind, 1)
        assert isinstance(bot, SearchBot) and isinstance(bot.adapter, profile.adapter)
        assert (bot.budget, bot.name) == (budget, name)
    assert set(bots.LEVELS) <= set(bots.KINDS) and bots.DEFAULT_LEVEL in bots.LEVELS
    with pytest.raises(KeyError, match="genius"):
        make_bot(game_name, "genius", 1)


def test_an_unknown_game_has_no_ai():
    with pytest.raises(KeyError, match="no AI for game 'whist'"):
        make_bot("whist", "heuristic", 1)


def test_search_clock_choices(monkeypatch) -> None:
    """`PARLOR_SEARCH_CLOCK`: wall (default), cpu, off (never moves: no safety net); anything else
    is refused with the choices named."""
    monkeypatch.delenv("PARLOR_SEARCH_CLOCK", raising=False)
    assert bots.search_clock() is time.perf_counter
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "cpu")
    assert bots.search_clock() is time.process_time
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "off")
    still = bots.search_clock()
    assert still() == still() == 0.0
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "sundial")
    with pytest.raises(ValueError, match="'wall', 'cpu' or 'off'"):
        bots.search_clock()
