"""`python -m engine bench [GAME...]`: random-playout speed, clone/apply/legality cost, memory.

Figures, not assertions: run it and report what it prints. Each game may offer a fast playout
(`Game.playout(state, rng)`) used by the AI; the public `apply` path is measured as well.
"""

from __future__ import annotations

import random
import resource
import time
import timeit
import tracemalloc
from typing import TextIO

from engine import registry
from engine.game import State


def _public_playout(state: State, rng: random.Random) -> None:
    while not state.is_over:
        state.apply(state.random_action(rng))


def _deals_per_second(game_name: str, seconds: float, seed: int, fast: bool) -> float:
    game = registry.get(game_name)
    rng = random.Random(seed)
    playout = getattr(game, "playout", None) if fast else None
    run = playout if playout is not None else _public_playout
    done, start = 0, time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        run(game.new_deal(rng.getrandbits(32)), rng)
        done += 1
    return done / (time.perf_counter() - start)


def _mid_deal(game_name: str, seed: int) -> State:
    """A state about half-way through a random deal."""
    game = registry.get(game_name)
    rng = random.Random(seed)
    probe = game.new_deal(seed)
    length = 0
    while not probe.is_over:
        probe.apply(probe.random_action(rng))
        length += 1
    state = game.new_deal(seed)
    rng = random.Random(seed)
    for _ in range(length // 2):
        state.apply(state.random_action(rng))
    return state


def _per_call_us(fn, number: int = 20000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def bench(game_name: str, seconds: float, seed: int, out: TextIO) -> dict[str, float]:
    """Measure one game and print the figures; returns them too."""
    game = registry.get(game_name)
    figures: dict[str, float] = {}
    figures["deals_per_s_public"] = _deals_per_second(game_name, seconds, seed, fast=False)
    if getattr(game, "playout", None) is not None:
        figures["deals_per_s_fast"] = _deals_per_second(game_name, seconds, seed, fast=True)
    state = _mid_deal(game_name, seed)
    action = state.legal_actions()[0]
    figures["clone_us"] = _per_call_us(state.clone)
    figures["clone_apply_us"] = _per_call_us(lambda: state.clone().apply(action))
    figures["legal_actions_us"] = _per_call_us(state.legal_actions, 5000)
    tracemalloc.start()
    rng = random.Random(seed)
    for _ in range(50):
        _public_playout(game.new_deal(rng.getrandbits(32)), rng)
    figures["traced_peak_kb"] = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    figures["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{game_name}:", file=out)
    for key, value in figures.items():
        print(f"  {key:22s} {value:12.1f}", file=out)
    return figures
