"""Heuristic vs random Tractor bots on duplicate deals, teams swapped: attackers' points and levels.

    .venv/bin/python scripts/tractor_arena.py --deals 300 --a heuristic --b random

Every deal (a first deal of a match, dealt by `new_deal(seed)`) is played twice: side A on seats
0+2, then on seats 1+3, so both sides get the same cards. Printed as mean ± 95% CI over deals:
the attackers' total (T-27, kitty bonus included) when A attacks and when B attacks, and A's
level change minus B's per deal. (The generic `python -m engine arena tractor` prints the
`arena_metrics` headline figures.)
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from engine import registry
from engine.ai.bots import make_bot
from engine.referee import play_out
from engine.tractor.scoring import settle

Z95 = 1.959964


def mean_ci(values: list[float]) -> str:
    n = len(values)
    if n == 0:
        return "n/a"
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return f"{mean:+8.2f} ± {half:5.2f} (n={n})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a", default="heuristic")
    parser.add_argument("--b", default="random")
    args = parser.parse_args(argv)
    game = registry.get("tractor")
    rng = random.Random(args.seed)
    attack_a: list[float] = []
    attack_b: list[float] = []
    levels: list[float] = []
    for index in range(args.deals):
        seed = rng.getrandbits(32)
        diff = 0.0
        for a_team in (0, 1):
            state = game.new_deal(seed)
            bots = [make_bot(game.name, args.a if seat % 2 == a_team else args.b, seed * 8 + seat)
                    for seat in range(4)]
            play_out(state, bots)
            s = settle(state)
            (attack_a if state.attackers == a_team else attack_b).append(s.attack_points)
            if s.team_up >= 0:
                diff += s.steps if s.team_up == a_team else -s.steps
        levels.append(diff / 2)
        if (index + 1) % 100 == 0:
            print(f"  {index + 1} deals", file=sys.stderr)
    print(f"tractor arena: A={args.a} v B={args.b}, {args.deals} duplicate deals x 2 seatings")
    print(f"  attackers' points when A attacks: {mean_ci(attack_a)}")
    print(f"  attackers' points when B attacks: {mean_ci(attack_b)}")
    print(f"  levels, A's gain - B's per deal:  {mean_ci(levels)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
