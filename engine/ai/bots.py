"""The one place that builds bots: per game, which heuristic and search adapter it uses, and the
bot of every kind and level.

Kinds: `random`, `heuristic`, and the levels players choose — `easy` (the heuristic with a
little randomness), `normal` (determinized Monte Carlo search, also called `search`) and `hard`
(a bigger budget plus inference weighting of the sampled worlds). A game knows nothing of bots;
its profile here names its heuristic bot and its search adapter (sampler, candidates, playout
policy, value, and any override margin of its own).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.ai.base import Bot, RandomBot
from engine.ai.chan_heuristic import ChanHeuristicBot
from engine.ai.chan_search import ChanAdapter
from engine.ai.kinds import DEFAULT_LEVEL, KINDS, LEVELS
from engine.ai.meri_heuristic import MeriHeuristicBot
from engine.ai.meri_search import MeriAdapter
from engine.ai.search import HARD, NORMAL, BaseAdapter, Budget, EasyBot, SearchBot
from engine.ai.tractor_heuristic import TractorHeuristicBot
from engine.ai.tractor_search import TractorAdapter

__all__ = ["DEFAULT_LEVEL", "KINDS", "LEVELS", "PROFILES", "Profile", "make_adapter", "make_bot",
           "make_search_bot", "search_clock"]



@dataclass(frozen=True)
class Profile:
    """What the AI of one game is made of."""

    heuristic: Callable[[int], Any]  # seed -> the game's rule-based bot
    adapter: Callable[[Any, int], BaseAdapter]  # (game, seed) -> its search adapter


PROFILES: dict[str, Profile] = {
    "meri": Profile(MeriHeuristicBot, MeriAdapter),
    "tractor": Profile(TractorHeuristicBot, TractorAdapter),
    "chan": Profile(ChanHeuristicBot, ChanAdapter),
}


def search_clock() -> Callable[[], float]:
    """The clock search deadlines use: wall-clock (the appliance), or with
    `PARLOR_SEARCH_CLOCK=cpu` this process's CPU time — for measuring strength on a shared,
    overloaded machine, where wall-clock budgets would be eaten by other processes."""
    value = os.environ.get("PARLOR_SEARCH_CLOCK", "wall")
    if value == "cpu":
        return time.process_time
    if value != "wall":
        raise ValueError(f"PARLOR_SEARCH_CLOCK must be 'wall' or 'cpu', not {value!r}")
    return time.perf_counter


def make_adapter(game_name: str, seed: int) -> BaseAdapter:
    """The search adapter of `game_name` (sampler, candidates, playout policy, value)."""
    return _profile(game_name).adapter(registry.get(game_name), seed)


def make_search_bot(game_name: str, seed: int, budget: Budget = NORMAL) -> SearchBot:
    """A search bot for `game_name` with `budget` (its deadline on `search_clock()`)."""
    return SearchBot(make_adapter(game_name, seed), seed, budget, clock=search_clock())


def make_bot(game_name: str, kind: str, seed: int) -> Bot:
    """A bot of `kind` for `game_name`; `KeyError` for an unknown game or kind."""
    if kind == "random":  # any game, even one without a profile
        return RandomBot(seed)
    profile = _profile(game_name)
    if kind == "heuristic":
        return profile.heuristic(seed)
    if kind == "easy":
        return EasyBot(profile.heuristic(seed), seed)
    if kind in ("normal", "search"):
        return make_search_bot(game_name, seed, NORMAL)
    if kind == "hard":
        bot = make_search_bot(game_name, seed, HARD)
        bot.name = "hard"
        return bot
    raise KeyError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)})")


def _profile(game_name: str) -> Profile:
    try:
        return PROFILES[game_name]
    except KeyError:
        raise KeyError(f"no AI for game {game_name!r} (known: {', '.join(PROFILES)})") from None
