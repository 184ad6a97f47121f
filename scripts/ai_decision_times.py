"""Decision times of a search level, in CPU time and wall-clock time (a benchmark, not a test).

One search bot (seat 0) plays against heuristic bots; every decision of seat 0 is timed. On a
shared machine the wall-clock figures include waiting for other processes; the CPU figures are
what the bot itself spent. The search deadline is wall-clock unless PARLOR_SEARCH_CLOCK=cpu.

    .venv/bin/python scripts/ai_decision_times.py meri normal --deals 5
"""

from __future__ import annotations

import argparse
import time

from engine import registry
from engine.ai.bots import make_bot


def _summary(values: list[float]) -> str:
    data = sorted(values)
    n = len(data)
    p95 = data[min(n - 1, int(0.95 * n))]
    return f"p50 {data[n // 2]:7.1f}  p95 {p95:7.1f}  max {data[-1]:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=registry.names())
    parser.add_argument("level", choices=("normal", "hard"))
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = registry.get(args.game)
    cpu: list[float] = []
    wall: list[float] = []
    for d in range(args.deals):
        seed = args.seed * 1000 + d
        state = game.new_deal(seed)
        bots = [make_bot(game.name, "heuristic", seed + s) for s in range(game.players)]
        bots[0] = make_bot(args.game, args.level, seed)
        while not state.is_over:
            seat = state.to_act
            obs = state.observation(seat)
            legal = state.legal_actions()
            c0, w0 = time.process_time(), time.perf_counter()
            action = bots[seat].choose(obs, legal)
            if seat == 0:
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
            state.apply(action)
    print(f"{args.game} {args.level}: {len(cpu)} decisions over {args.deals} deals")
    print(f"  cpu   {_summary(cpu)}")
    print(f"  wall  {_summary(wall)}")


if __name__ == "__main__":
    main()
