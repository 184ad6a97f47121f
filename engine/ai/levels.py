"""Bot kinds by name, for every game: `random`, `heuristic`, `easy`, `normal` (= `search`), `hard`.

`random` and `heuristic` come from the game's own `make_bot`; the levels are built here:
easy = the heuristic with a little randomness, normal = determinized Monte Carlo search,
hard = a bigger budget plus inference weighting of the sampled worlds. Each game's `make_bot`
falls back to this module for the kinds it does not know.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from typing import Any

from engine import registry
from engine.ai.search import HARD, NORMAL, Budget, EasyBot, SearchBot

KINDS = ("random", "heuristic", "easy", "normal", "search", "hard")
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"

# The module holding each game's search adapter: `make_adapter(game, seed) -> Adapter`.
_ADAPTERS = {
    "meri": "engine.ai.meri_search",
    "tractor": "engine.ai.tractor_search",
    "chan": "engine.ai.chan_search",
}


def make_adapter(game_name: str, seed: int) -> Any:
    """The search adapter of `game_name` (sampler, candidates, playout policy, value)."""
    module = importlib.import_module(_ADAPTERS[game_name])
    return module.make_adapter(registry.get(game_name), seed)


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


def make_search_bot(game_name: str, seed: int, budget: Budget = NORMAL) -> SearchBot:
    """A search bot for `game_name` with `budget` (the deadline is wall-clock and configurable)."""
    return SearchBot(make_adapter(game_name, seed), seed, budget, clock=search_clock())


def make_bot(game_name: str, kind: str, seed: int) -> Any:
    """A bot of `kind` for `game_name`; `KeyError` for an unknown kind."""
    game = registry.get(game_name)
    if kind in ("random", "heuristic"):
        return game.make_bot(kind, seed)
    if kind == "easy":
        bot = EasyBot(game.make_bot("heuristic", seed), seed)
        return bot
    if kind in ("normal", "search"):
        return make_search_bot(game_name, seed, NORMAL)
    if kind == "hard":
        bot = make_search_bot(game_name, seed, HARD)
        bot.name = "hard"
        return bot
    raise KeyError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)})")
