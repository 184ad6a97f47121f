"""Root-parallel search (engine/ai/pool.py, issue 19 part 2).

Acceptance: the same decisions for any worker count (1, 2, 3) on fixed positions of every game,
at both levels' shapes (hard infers); the workers start once and are reused across decisions and
bots; a worker that dies — between decisions or in the middle of one — or hangs costs the
decision nothing but time: the same choice, one log line, no hang. Budgets are tiny so this runs
quickly; no test times anything.
"""

from __future__ import annotations

import functools
import logging
import os
import random
import signal
import time

import pytest

from engine import registry
from engine.ai import bots
from engine.ai.meri_search import MeriAdapter
from engine.ai.pool import SearchPool
from engine.ai.search import Budget, SearchBot
from engine.ai.workers import worker_count
from tests.engine.midgame import positions

GAMES = ["meri", "tractor", "chan"]

#: Small budgets of both levels' shapes: enough worlds to split and to stop early.
NORMAL = Budget(playouts=90, max_worlds=14, min_worlds=4)
HARD = Budget(playouts=90, max_worlds=10, min_worlds=4, world_cost=2.0, inference=True)


def _positions(game_name: str, count: int, seed: int) -> list:
    """`count` mid-deal states of random legal play where the search has a choice to make."""
    return positions(game_name, count, seed, lambda state: len(bots.make_adapter(
        game_name, 1).candidates(state.observation(state.to_act), state.legal_actions(),
                                 random.Random(1))) > 1)


def _decide(game_name: str, budget: Budget, states: list, pool: SearchPool | None,
            seed: int = 7, model: bool | None = None) -> list:
    """One bot's decisions (and work) over `states` in turn, its worlds split across `pool`
    (`model`: with or without the learned evaluation, `bots.make_adapter`)."""
    bot = SearchBot(bots.make_adapter(game_name, seed, model), seed, budget, pool=pool,
                    factory=functools.partial(bots.make_adapter, game_name, seed, model))
    out = []
    for state in states:
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        out.append((action, bot.last_worlds, bot.last_playouts))
    return out


@pytest.fixture(scope="module")
def pools():
    with SearchPool(2) as two, SearchPool(3) as three:
        yield {2: two, 3: three}


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("budget", [NORMAL, HARD], ids=["normal", "hard"])
def test_same_decisions_for_any_worker_count(game_name, budget, pools):
    """K = 1, 2 and 3 searching processes make the same decisions with the same work (worlds
    sampled, playouts counted), the early stop included."""
    states = _positions(game_name, 5, 3)
    alone = _decide(game_name, budget, states, None)
    assert _decide(game_name, budget, states, pools[2]) == alone
    assert _decide(game_name, budget, states, pools[3]) == alone
    assert any(worlds > 1 for _, worlds, _ in alone)


@pytest.mark.parametrize("budget", [NORMAL, HARD], ids=["normal", "hard"])
def test_same_decisions_for_any_worker_count_with_the_learned_value(budget, pools):
    """The learned Chắn leaf value (off in the levels) loads in the workers too: the same
    decisions and work for K = 1, 2 and 3 as this process alone scoring every world with it."""
    states = _positions("chan", 5, 3)
    alone = _decide("chan", budget, states, None, model=True)
    assert _decide("chan", budget, states, pools[2], model=True) == alone
    assert _decide("chan", budget, states, pools[3], model=True) == alone


def test_workers_start_once_and_serve_every_decision(pools):
    """The same worker processes answer every decision of every bot, and do take worlds off this
    process (it samples fewer worlds than the decisions used)."""
    pool = pools[3]
    pids = pool.pids
    assert len(pids) == 2 and all(pids)
    here = {"sampled": 0}

    class Counting(MeriAdapter):
        def sample(self, observation, rng):
            here["sampled"] += 1
            return super().sample(observation, rng)

    states = _positions("meri", 6, 11)
    budget = Budget(playouts=200, max_worlds=30, stop=0.0)  # no early stop: every world
    worlds = 0
    for seed in (1, 2):
        bot = SearchBot(Counting(registry.get("meri"), seed), seed, budget, pool=pool,
                        factory=functools.partial(bots.make_adapter, "meri", seed))
        for state in states:
            bot.choose(state.observation(state.to_act), state.legal_actions())
            worlds += bot.last_worlds
    assert pool.pids == pids and pool.restarts == 0
    assert here["sampled"] < worlds
    assert all(rss > 0 for rss in pool.peak_rss_mb())


def test_a_pool_of_one_is_this_process_alone():
    with SearchPool(1) as pool:
        assert pool.pids == [] and pool.size == 1
        states = _positions("chan", 2, 5)
        assert _decide("chan", NORMAL, states, pool) == _decide("chan", NORMAL, states, None)


def test_a_worker_killed_between_decisions_is_replaced(caplog):
    """SIGKILL a worker: the next decision is still the one K = 1 makes, the death is logged
    once and the worker replaced."""
    caplog.set_level(logging.WARNING, logger="engine.ai.pool")
    states = _positions("tractor", 4, 9)
    alone = _decide("tractor", NORMAL, states, None)
    with SearchPool(2) as pool:
        assert _decide("tractor", NORMAL, states[:1], pool) == alone[:1]
        (victim,) = pool.pids
        os.kill(victim, signal.SIGKILL)
        _wait_dead(pool)
        assert _decide("tractor", NORMAL, states, pool) == alone
        assert pool.restarts == 1 and pool.pids != [victim]
    died = [r for r in caplog.records if "died" in r.getMessage()]
    assert len(died) == 1 and str(victim) in died[0].getMessage()


def _wait_dead(pool: SearchPool) -> None:
    for worker in pool._workers:
        worker.process.join(5.0)


class DyingAdapter(MeriAdapter):
    """Meri's adapter that, set up for a decision in any process but `home` (the test's), ends
    that process or hangs it."""

    def __init__(self, game, seed: int, home: int, how: str) -> None:
        super().__init__(game, seed)
        self.home, self.how = home, how

    def prepare(self, observation) -> None:
        if os.getpid() != self.home:
            if self.how == "die":
                os._exit(3)
            time.sleep(3600)  # "hang"


def _dying(seed: int, home: int, how: str) -> DyingAdapter:
    return DyingAdapter(registry.get("meri"), seed, home, how)


@pytest.mark.parametrize("how", ["die", "hang"])
def test_a_worker_that_dies_or_hangs_mid_decision_costs_only_time(how, caplog):
    """A worker that dies on its first world (or never answers): every decision completes here,
    the same as K = 1; each death is logged once (the worker is replaced for the next decision,
    and dies again), a hang is not (it is only slow)."""
    caplog.set_level(logging.WARNING, logger="engine.ai.pool")
    states = _positions("meri", 3, 4)
    alone = _decide("meri", NORMAL, states, None)
    factory = functools.partial(_dying, 7, os.getpid(), how)
    with SearchPool(2) as pool:
        bot = SearchBot(_dying(7, os.getpid(), how), 7, NORMAL, pool=pool, factory=factory)
        got = []
        for state in states:
            action = bot.choose(state.observation(state.to_act), state.legal_actions())
            got.append((action, bot.last_worlds, bot.last_playouts))
            if how == "die":
                _wait_dead(pool)  # it dies on its task, however quickly the decision was over
        assert got == alone
    died = [r for r in caplog.records if "died" in r.getMessage()]
    if how == "die":  # (the last death may go unnoticed until the pool closes)
        assert len(states) - 1 <= len(died) <= len(states)
    else:
        assert not died


def test_worker_count_from_the_config_setting():
    """`ai.workers`: "auto" is the cores minus one for the UI, at least 1 (this process alone)."""
    assert worker_count("auto", cores=4) == 3
    assert worker_count("auto", cores=2) == 1
    assert worker_count("auto", cores=1) == 1
    assert worker_count(3) == 3 and worker_count(1) == 1
    with pytest.raises(ValueError, match="positive integer or 'auto'"):
        worker_count("many")


def test_workers_started_in_the_background_join_when_ready():
    """`wait=False`: decisions made before the workers are up are searched here, the same as
    K = 1; once started, the pool has its workers."""
    states = _positions("chan", 3, 12)
    alone = _decide("chan", NORMAL, states, None)
    with SearchPool(2, wait=False) as pool:
        assert _decide("chan", NORMAL, states, pool) == alone
        pool._starter.join(30.0)
        assert pool.started and len(pool.pids) == 1
        assert _decide("chan", NORMAL, states, pool) == alone
