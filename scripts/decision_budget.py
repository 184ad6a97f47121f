"""Each level's decision time against its budget, with the machine's speed measured beside it.

    .venv/bin/python scripts/decision_budget.py [games...] [--levels normal,hard] [--deals 4]
        [--seed 1] [--rounds 3] [--seconds 1]

A level's budget (`engine.ai.search.Budget`) is an amount of work, sized so that its p95
decision took at most 0.23 s (normal) or 0.55 s (hard) of one core of the development machine.
That machine is shared and its speed moves from day to day (on 2026-12-07 it ran the same code
2.1–2.8× slower than on the days the budgets were sized), so a p95 in milliseconds says as
much about the day as about the engine. This script measures both:

1. the machine: the `fast` playout rate (whole deals per CPU second, `engine_speed_compare`'s
   figure) of the engine the budgets were sized with, `SIZING_REV`, today — against the rate
   the same commit measured then (`SIZING_RATE`, the README's table). Their ratio is today's
   slowdown, per game (the games stress the interpreter differently);
2. every level's decisions: `engine.bench.decision_times` at seat 0 against heuristic bots, in
   CPU time, `--deals` deals from `--seed`, with no safety net (`PARLOR_SEARCH_CLOCK=off`), so
   every decision does its whole budget's work even on a slow day.

The machine's speed is measured before and after the decisions; printed per game and level:
the p95 today, the slowdown (the mean of the two), the p95 at the sizing day's machine speed
(today's divided by the slowdown) and the budget, and a note where the two speeds differ by more
than 15 %. A slower engine shows as a p95 that stays high after the division; a slower machine
does not. Run it on an otherwise idle machine: a neighbour's load slows CPU-time rates too, and
falls unevenly on the two measurements.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine_speed_compare as speed  # noqa: E402  (a sibling script)

#: The engine the budgets were sized with, and its `fast` rates then (whole deals per CPU
#: second, median of 5 rounds of 2 s: the README's `engine_speed_compare.py 909fe99 --new
#: 617d565` table). Both these rates and the p95s the budgets were sized by (`Budget`'s table)
#: were measured on the machine loaded by other work, so the slowdown is against that machine.
SIZING_REV = "617d565"
SIZING_RATE = {"meri": 11083.0, "tractor": 2888.0, "chan": 5698.0}
#: Each level's budget: its p95 decision time on one core of the sizing day's machine, seconds.
BUDGET_S = {"normal": 0.23, "hard": 0.55}


def slowdowns(folder: Path, games: list[str], rounds: int, seconds: float) -> dict[str, float]:
    """Per game: the sizing rate over today's rate of `SIZING_REV`'s engine, extracted in
    `folder` (2.0 = half as fast)."""
    rates: dict[str, list[float]] = {game: [] for game in games}
    for _ in range(rounds):
        for game in games:
            rates[game].append(speed.measure(folder, game, seconds)["fast"])
    return {game: SIZING_RATE[game] / statistics.median(rates[game]) for game in games}


def at_sizing_speed(p95_ms: float, slowdown: float) -> float:
    """Today's p95 as the sizing day's machine would have taken it."""
    return p95_ms / slowdown


def row(game: str, level: str, p95_ms: float, slowdown: float) -> str:
    """One line of the table: the figures and whether the level is within its budget."""
    scaled = at_sizing_speed(p95_ms, slowdown)
    budget_ms = BUDGET_S[level] * 1000.0
    verdict = "within" if scaled <= budget_ms else "OVER"
    return (f"{game:8s} {level:7s} {p95_ms:9.0f} {slowdown:9.2f}x {scaled:10.0f} "
            f"{budget_ms:9.0f}  {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(speed.GAMES))
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the machine's speed")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds per round of the machine's speed")
    args = parser.parse_args(argv)
    levels = [level for level in args.levels.split(",") if level]
    unknown = [g for g in args.games if g not in SIZING_RATE]
    unknown += [level for level in levels if level not in BUDGET_S]
    if unknown:
        parser.error(f"unknown game or level: {', '.join(unknown)} (games: "
                     f"{', '.join(SIZING_RATE)}; levels: {', '.join(BUDGET_S)})")
    if args.deals < 1 or args.rounds < 1 or args.seconds <= 0:
        parser.error("--deals and --rounds must be at least 1, --seconds positive")
    os.environ["PARLOR_SEARCH_CLOCK"] = "off"  # read when a search bot is made
    from engine.bench import decision_times

    speed.stop_on_sigterm()  # a TERM still removes the temporary folder
    tmp = Path(tempfile.mkdtemp(prefix="parlor-budget-"))
    try:
        folder = tmp / "sizing"
        speed.extract(SIZING_REV, folder)  # once: measured before and after the decisions
        before = slowdowns(folder, args.games, args.rounds, args.seconds)
        p95 = {(game, level): decision_times(game, level, args.deals, args.seed,
                                             sys.stderr)["cpu_p95_ms"]
               for game in args.games for level in levels}
        after = slowdowns(folder, args.games, args.rounds, args.seconds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"p95 decision CPU time, one core, seat 0 vs heuristic bots, {args.deals} deals from "
          f"seed {args.seed}; slowdown: {SIZING_REV}'s fast playouts, then / today (the mean "
          "of its measures before and after the decisions)")
    print(f"{'game':8s} {'level':7s} {'p95 ms':>9s} {'slowdown':>10s} {'at sizing':>10s} "
          f"{'budget':>9s}")
    for game in args.games:
        for level in levels:
            print(row(game, level, p95[game, level], (before[game] + after[game]) / 2))
    for game in args.games:
        if not moved(before[game], after[game]):
            continue
        print(f"note: {game}'s slowdown moved from {before[game]:.2f}x to {after[game]:.2f}x "
              "during the run: the machine's load changed, read its rows with care")
    return 0


def moved(before: float, after: float, tolerance: float = 0.15) -> bool:
    """Whether the machine's speed changed by more than `tolerance` during the run."""
    return abs(after - before) > tolerance * min(before, after)


if __name__ == "__main__":
    raise SystemExit(main())
