"""`python -m engine bench [GAME...]`: engine speed and memory, or a bot level's decision times.

Figures, not assertions: run it and report what it prints (every figure is measured and printed
by engine/measure.py). Per game, by default:

- `deals_per_s_public` / `deals_per_s_fast`: complete random deals per second through the checked
  public `apply`, and through the game's fast playout (`Game.playout`, used by the AI) if it has
  one; both include dealing (`new_deal`).
- `clone_us`, `clone_apply_us`, `legal_actions_us`: their cost at a state half-way through a deal.
- `widest_legal` and the `*_wide_us` / `listing_1000_us` figures: the state with the most legal
  actions met in random deals (Tractor's void follower of a long tractor has millions, held in a
  lazy set), and there the cost of `action in legal`, `len(legal_actions())`, `random_action`
  and records.md's first-1000 listing (`Game.legal_listing`).
- `traced_peak_kb` over 50 public playouts (tracemalloc), and the process's `max_rss_mb`.

`--clock cpu` counts the rates and per-call costs in this process's CPU time, steadier than
wall-clock time on a shared machine. `--decisions LEVEL` measures instead how long a bot of that
level takes to decide: one such bot at seat 0 against heuristic bots, every decision of seat 0
timed in CPU and wall-clock time (on a busy machine the wall figures include waiting for other
processes). For a search level it also gives the search's work rate — the figure later changes
are measured against, and the one its budgets are sized from (`engine.ai.search.Budget`):
`worlds_per_s` and `playouts_per_s` (worlds sampled and candidate playouts run per second of one
core's CPU time, over the decisions that searched), `worlds_mean` per such decision, and
`safety_cuts`, the decisions its wall-clock safety net stopped (0 where the budgets fit).
With `--workers K` (K > 1) the decisions' worlds are split over K processes (`engine.ai.pool`:
the same decisions): the CPU figures are then this process's share only — read the wall-clock
ones — `worker_cpu_s` is the CPU seconds the workers spent in all (its sum with `own_cpu_s`,
the CPU this process spent deciding, against K = 1's is the parallel overhead), and
`worker_max_rss_mb` is the largest peak RSS (VmHWM) of the K - 1 worker processes.

Against an older commit, side by side: `scripts/engine_speed_compare.py REV` runs this public
loop (and the listed loop, `legal_actions()` then `apply`, and the fast playout) for REV and the
working tree in alternated rounds, in CPU time; `scripts/engine_golden.py` writes the outputs a
speed-up must leave byte-identical (replays, simulations, arena runs, a trace of legal lists,
observations and refused actions).
"""

from __future__ import annotations

import random
import tracemalloc
from typing import TextIO

from engine import registry
from engine.ai.bots import make_bot
from engine.ai.pool import SearchPool
from engine.game import State
from engine.measure import (
    Timings,
    cpu_seconds_of,
    peak_rss_mb,
    per_call_us,
    percentiles,
    print_figures,
    rate,
)

#: Random deals searched for the state with the widest legal set.
WIDE_DEALS = 60


def _public_playout(state: State, rng: random.Random) -> None:
    while not state.is_over:
        state.apply(state.random_action(rng))


def _deals_per_second(game_name: str, seconds: float, seed: int, fast: bool, clock: str) -> float:
    game = registry.get(game_name)
    rng = random.Random(seed)
    playout = getattr(game, "playout", None) if fast else None
    run = playout if playout is not None else _public_playout
    return rate(lambda: run(game.new_deal(rng.getrandbits(32)), rng), seconds, clock)


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


def widest_state(game_name: str, seed: int, deals: int = WIDE_DEALS) -> tuple[State, int]:
    """The state with the most legal actions met in `deals` random deals, and that count."""
    game = registry.get(game_name)
    rng = random.Random(seed)
    best: State | None = None
    widest = -1
    for _ in range(deals):
        state = game.new_deal(rng.getrandbits(32))
        while not state.is_over:
            count = len(state.legal_actions())
            if count > widest:
                best, widest = state.clone(), count
            state.apply(state.random_action(rng))
    assert best is not None
    return best, widest


def bench(game_name: str, seconds: float, seed: int, out: TextIO,
          clock: str = "wall") -> dict[str, float]:
    """Measure one game and print the figures; returns them too."""
    game = registry.get(game_name)
    figures: dict[str, float] = {}
    figures["deals_per_s_public"] = _deals_per_second(game_name, seconds, seed, False, clock)
    if getattr(game, "playout", None) is not None:
        figures["deals_per_s_fast"] = _deals_per_second(game_name, seconds, seed, True, clock)
    state = _mid_deal(game_name, seed)
    action = state.legal_actions()[0]
    figures["clone_us"] = per_call_us(state.clone, clock=clock)
    figures["clone_apply_us"] = per_call_us(lambda: state.clone().apply(action), clock=clock)
    figures["legal_actions_us"] = per_call_us(state.legal_actions, 5000, clock)
    wide, count = widest_state(game_name, seed)
    legal = wide.legal_actions()
    rng = random.Random(seed)
    pick = wide.random_action(rng)
    figures["widest_legal"] = float(count)
    figures["in_legal_wide_us"] = per_call_us(lambda: pick in legal, 20000, clock)
    figures["len_legal_wide_us"] = per_call_us(lambda: len(wide.legal_actions()), 500, clock)
    figures["random_action_wide_us"] = per_call_us(lambda: wide.random_action(rng), 500, clock)
    figures["listing_1000_us"] = per_call_us(lambda: game.legal_listing(wide, 1000), 5, clock)
    tracemalloc.start()
    rng = random.Random(seed)
    for _ in range(50):
        _public_playout(game.new_deal(rng.getrandbits(32)), rng)
    figures["traced_peak_kb"] = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    figures["max_rss_mb"] = peak_rss_mb()
    print_figures(f"{game_name} ({clock} clock)", figures, out)
    return figures


def decision_times(game_name: str, level: str, deals: int, seed: int,
                   out: TextIO, workers: int = 1) -> dict[str, float]:
    """Time every decision of a `level` bot at seat 0 against heuristic bots over `deals` deals
    (its search over `workers` processes); print and return the count, the CPU and wall-clock
    percentiles in ms and, for a search bot, its work rate (worlds and playouts per CPU second)
    and safety-net cuts, and with workers their peak RSS."""
    with SearchPool(workers) as pool:
        before = sum(cpu_seconds_of(pid) for pid in pool.pids)
        figures = _decision_times(game_name, level, deals, seed, pool)
        if workers > 1:
            figures["worker_cpu_s"] = sum(cpu_seconds_of(pid) for pid in pool.pids) - before
            figures["worker_max_rss_mb"] = max(pool.peak_rss_mb())
    title = f"{game_name} decisions: {level} at seat 0 vs heuristic bots, {deals} deals"
    if workers > 1:
        title += f", {workers} searching processes"
    print_figures(title, figures, out, digits=2)
    return figures


def _decision_times(game_name: str, level: str, deals: int, seed: int,
                    pool: SearchPool) -> dict[str, float]:
    game = registry.get(game_name)
    timings = Timings()
    searched_ms = 0.0  # CPU time of the decisions that sampled worlds
    worlds = playouts = searched = cuts = 0
    search = False
    for d in range(deals):
        deal_seed = seed * 1000 + d
        state = game.new_deal(deal_seed)
        bots = [make_bot(game_name, "heuristic", deal_seed + s) for s in range(game.players)]
        bots[0] = make_bot(game_name, level, deal_seed, pool)
        while not state.is_over:
            seat = state.to_act
            obs = state.observation(seat)
            legal = state.legal_actions()
            if seat == 0:
                action = timings.timed(bots[0].choose, obs, legal)
                done = getattr(bots[0], "last_worlds", None)
                if done is not None:
                    search = True
                    if done:
                        searched += 1
                        worlds += done
                        playouts += bots[0].last_playouts
                        searched_ms += timings.cpu_ms[-1]
                    cuts += bots[0].last_cut
            else:
                action = bots[seat].choose(obs, legal)
            state.apply(action)
    figures: dict[str, float] = {"decisions": float(len(timings.wall_ms))}
    for name, values in (("cpu", timings.cpu_ms), ("wall", timings.wall_ms)):
        for key, value in percentiles(values).items():
            figures[f"{name}_{key}_ms"] = value
    if search:
        seconds = searched_ms / 1000.0
        figures["worlds_per_s"] = worlds / seconds if seconds > 0 else 0.0
        figures["playouts_per_s"] = playouts / seconds if seconds > 0 else 0.0
        figures["worlds_mean"] = worlds / searched if searched else 0.0
        figures["safety_cuts"] = float(cuts)
    figures["max_rss_mb"] = peak_rss_mb()
    figures["own_cpu_s"] = sum(timings.cpu_ms) / 1000.0
    return figures
