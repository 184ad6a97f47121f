"""Meri speed figures in CPU time (`time.process_time`), steadier than wall time on a shared machine.

    .venv/bin/python scripts/meri_bench.py [--deals N]

Prints deals per CPU-second for the fast playout (`Game.playout`) and the public path
(`random_action` + `apply`), both including `new_deal(seed)`, then clone and clone+apply cost
at mid-deal, and the traced peak memory of one playout. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from engine import registry


def per_cpu_second(run, n: int) -> float:
    start = time.process_time()
    run(n)
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    args = parser.parse_args()
    game = registry.get("meri")
    rng = random.Random(1)

    def fast(n: int) -> None:
        for i in range(n):
            game.playout(game.new_deal(i), rng)

    def public(n: int) -> None:
        for i in range(n):
            state = game.new_deal(i)
            while not state.is_over:
                state.apply(state.random_action(rng))

    print(f"fast playout   {per_cpu_second(fast, args.deals):9.0f} deals per CPU-second")
    print(f"public apply   {per_cpu_second(public, args.deals):9.0f} deals per CPU-second")
    state = game.new_deal(7)
    for _ in range(40):
        state.apply(state.random_action(rng))
    action = state.legal_actions()[0]
    n = 100_000
    start = time.process_time()
    for _ in range(n):
        state.clone()
    clone_us = (time.process_time() - start) / n * 1e6
    start = time.process_time()
    for _ in range(n):
        state.clone().apply(action)
    print(f"clone          {clone_us:9.2f} us")
    print(f"clone+apply    {(time.process_time() - start) / n * 1e6:9.2f} us")
    tracemalloc.start()
    game.playout(game.new_deal(3), rng)
    print(f"peak traced    {tracemalloc.get_traced_memory()[1] / 1024:9.1f} KiB per playout")
    tracemalloc.stop()


if __name__ == "__main__":
    main()
