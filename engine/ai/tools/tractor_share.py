"""`python -m engine arena tractor --share --a normal`: one bot's team against three other bots.

The figure published Tractor bots are compared by: the share of deals in which the team of one
bot of kind A, its partner and both opponents being bots of kind B (read literally: "the normal
bot's team against three random bots"), *gains levels* — as attackers by a total of 120 or more,
as defenders by holding the attackers below 80 (T-27; defenders who hold always go up). Beside
it, the share of deals it *does not lose*: also counting the attackers' take-over at 80–115,
which gains no level (the deal's winners in `engine.tractor.scoring.deal_result`).

Duplicate deals as in the arena (`engine.ai.tools.arena`): every deal is played four times, A in
each seat in turn, the other three seats B; a deal's figure is the mean over its four seatings and
the 95% confidence interval is over deals. One table row per B kind (by default random, then
heuristic), on the same deals.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from engine.ai.tools.arena import play_deals
from engine.measure import mean_ci
from engine.tractor.scoring import settle

GAME = "tractor"
#: A's one seat, in turn each of the four.
SEATINGS = tuple(frozenset({seat}) for seat in range(4))
DEFAULT_B = ("random", "heuristic")
#: The figures of a deal, in report order: name -> what it means.
FIGURES = {
    "levels_up": "gains levels (attackers 120+, or defenders holding them below 80)",
    "not_lost": "does not lose (also the attackers' take-over at 80-115)",
    "a_attacked": "share of deals it attacked",
}


def share_metrics(game: Any, state: Any, a_seats: frozenset[int]) -> dict[str, float]:
    """A finished Tractor deal from the team of A's seat: `levels_up` 1 when that team goes up
    (T-27), `not_lost` 1 when it is among the deal's winners, `a_attacked` 1 when it attacked."""
    team = min(a_seats) % 2
    result = game.deal_result(state)
    return {
        "levels_up": 1.0 if settle(state).team_up == team else 0.0,
        "not_lost": 1.0 if team in result.winners else 0.0,
        "a_attacked": 1.0 if state.attackers == team else 0.0,
    }


def share_row(kind_a: str, kind_b: str, deals: int, seed: int, jobs: int = 1,
              workers: int = 1) -> dict[str, Any]:
    """One B kind's row: every figure's mean and 95% CI over `deals` duplicate deals."""
    results, _ = play_deals(GAME, kind_a, kind_b, deals, seed, jobs, workers,
                            seatings=SEATINGS, metrics=share_metrics)
    row: dict[str, Any] = {"b": kind_b}
    for key in FIGURES:
        mean, lo, hi = mean_ci([r.metrics[key] for r in results])
        lo, hi = max(lo, 0.0), min(hi, 1.0)  # a share's (the normal approximation overshoots)
        row[key] = {"mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    return row


def shares(kind_a: str, kinds_b: tuple[str, ...], deals: int, seed: int, jobs: int = 1,
           workers: int = 1, out: TextIO | None = None) -> dict[str, Any]:
    """The `--json` object: a row per B kind, on the same deals; with `out`, the text table
    printed there as it goes (a row as soon as it is played: a long run shows its first rows)."""
    summary: dict[str, Any] = {"game": GAME, "a": kind_a, "deals": deals, "seed": seed,
                               "seatings": len(SEATINGS), "rows": []}
    width = max(len(kind) for kind in kinds_b)
    if out is not None:
        print_header(summary, width, out)
    for kind_b in kinds_b:
        summary["rows"].append(share_row(kind_a, kind_b, deals, seed, jobs, workers))
        if out is not None:
            print_row(summary["rows"][-1], width, out)
    return summary


def print_header(summary: dict[str, Any], width: int, out: TextIO) -> None:
    """What the table is, what each figure means and the column names."""
    s = summary
    print(f"tractor share: the team of one {s['a']} bot (partner and opponents the B bots), "
          f"{s['deals']} duplicate deals x {s['seatings']} seats, seed {s['seed']}", file=out)
    for key, text in FIGURES.items():
        print(f"  {key}: {text}", file=out)
    header = "  ".join(f"{key:>21}" for key in FIGURES)
    print(f"  {'B':<{width + 8}}{header}", file=out)
    out.flush()


def print_row(row: dict[str, Any], width: int, out: TextIO) -> None:
    """One B kind's line: each figure in percent with its 95% CI."""
    cells = "  ".join(_percent(row[key]) for key in FIGURES)
    print(f"  vs 3 x {row['b']:<{width}} {cells}", file=out)
    out.flush()


def _percent(fig: dict[str, Any]) -> str:
    lo, hi = fig["ci95"]
    return f"{100 * fig['mean']:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def run_share(kind_a: str, kinds_b: tuple[str, ...], deals: int, seed: int, jobs: int,
              workers: int, as_json: bool) -> int:
    """The `arena tractor --share` option (wired in `engine.cli.cmd_arena`)."""
    summary = shares(kind_a, kinds_b, deals, seed, jobs, workers,
                     None if as_json else sys.stdout)
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
    return 0
