"""`python -m engine arena --levels [GAME...]`: every player level against every other, per game.

One table per game: a row per level a player picks (`LEVELS`), a column per level and per
reference bot (`REFERENCES`: the heuristic and random bots), each cell the row's *win share*
against the column and the game's own figure per deal, both with a 95% confidence interval over
deals. Every pair plays the same duplicate deals of the arena (`engine.ai.tools.arena`: dealt from
the seed, one game per seating), so the table is the same for the same seed, whatever `--jobs`.

The win share counts head-to-head comparisons of a row seat with a column seat in a deal: 1 when
the row's side is among the deal's winners (`Game.deal_result(state).winners`) and the column's
is not, 0 the other way round, 1/2 otherwise (a draw, or in Chắn a deal won by a third seat).
So it is the share of Meri and Tractor deals the row's team wins (a Meri deal won on points, a
Tractor deal held by the defenders or taken over by the attackers, T-27) and in Chắn — one row
seat against three column seats — 50% for two equal levels, whoever wins.

Games whose seatings swap the teams (the complement of each is also a seating) play each pair
once and read the mirrored cell from the same deals (1 − share, −figure); the others (Chắn: one
seat against three) play both orders.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any, TextIO

from engine import registry
from engine.ai.kinds import LEVELS
from engine.ai.tools.arena import play_deals
from engine.measure import mean_ci

REFERENCES = ("heuristic", "random")
#: A short run (the intervals are wide: --deals for narrower): every pair's deals take a few
#: minutes per game on two desktop cores, most of it the hard level's search.
DEFAULT_DEALS = 6
#: Each game's own figure per deal (a key of its `arena_metrics`) and how the table names it:
#: its descriptor's `figure` (`engine.info.<game>`).
FIGURES = {name: ai.figure for name, ai in registry.ai_infos().items()}


def figure_of(game_name: str) -> tuple[str, str]:
    """(arena metric, label) of a game's own figure; another game's headline arena metric."""
    if game_name in FIGURES:
        return FIGURES[game_name]
    return "", "figure/deal"


def level_metrics(game: Any, state: Any, a_seats: frozenset[int]) -> dict[str, float]:
    """A finished deal from side A's view: `win` (the head-to-head share, module docstring) and
    every arena metric of the game."""
    result = game.deal_result(state)
    won = set(result.winners)
    b_seats = [s for s in range(game.players) if s not in a_seats]
    score = 0.0
    for a in a_seats:
        a_won = result.side_of(a) in won
        for b in b_seats:
            b_won = result.side_of(b) in won
            score += 1.0 if a_won and not b_won else 0.0 if b_won and not a_won else 0.5
    figures = {"win": score / (len(a_seats) * len(b_seats))}
    figures.update(game.arena_metrics(state, a_seats))
    return figures


def mirrored(seatings: list[frozenset[int]], players: int) -> bool:
    """Whether a pair's seatings are also its mirror's (every seating's complement is one)."""
    everyone = frozenset(range(players))
    return all(everyone - s in seatings for s in seatings)


def _cell(wins: list[float], figures: list[float]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, values in (("win", wins), ("figure", figures)):
        mean, lo, hi = mean_ci(values)
        out[key] = {"mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    return out


def level_table(game_name: str, deals: int, seed: int, jobs: int = 1, workers: int = 1,
                rows: Sequence[str] | None = None, references: Sequence[str] | None = None
                ) -> dict[str, Any]:
    """One game's table as its `--json` object: the cells by row and column kind (rows:
    `LEVELS` and columns those and `REFERENCES` unless given)."""
    game = registry.get(game_name)
    seatings = list(game.arena_seatings())
    metric, label = figure_of(game_name)
    rows = tuple(LEVELS if rows is None else rows)
    columns = rows + tuple(REFERENCES if references is None else references)
    cells: dict[str, dict[str, Any]] = {row: {} for row in rows}
    once = mirrored(seatings, game.players)
    start = time.perf_counter()
    for row in rows:
        for col in columns:
            if col == row or col in cells[row]:
                continue
            results, _ = play_deals(game_name, row, col, deals, seed, jobs, workers,
                                    metrics=level_metrics)
            key = metric or next(k for k in results[0].metrics if k != "win")
            wins = [r.metrics["win"] for r in results]
            figures = [r.metrics[key] for r in results]
            cells[row][col] = _cell(wins, figures)
            if once and col in cells:
                cells[col][row] = _cell([1.0 - w for w in wins], [-f for f in figures])
    return {"game": game_name, "deals": deals, "seed": seed, "seatings": len(seatings),
            "rows": list(rows), "columns": list(columns), "figure": label, "cells": cells,
            "seconds": round(time.perf_counter() - start, 1)}


def _text(fig: dict[str, Any], percent: bool) -> str:
    mean, (lo, hi) = fig["mean"], fig["ci95"]
    half = (hi - lo) / 2
    if percent:
        return f"{100 * mean:3.0f}%±{100 * half:<3.0f}"
    return f"{mean:+.2f}±{half:.2f}"


def _cell_text(cell: dict[str, Any] | None) -> str:
    """`58%±11 +0.40±0.30`: win share and figure, each ± half its interval; `—` on the diagonal."""
    if cell is None:
        return "—"
    return f"{_text(cell['win'], True)} {_text(cell['figure'], False)}"


def print_table(table: dict[str, Any], out: TextIO) -> None:
    """The human-readable table: a row per level, a column per opponent, a note what it says."""
    t = table
    print(f"{t['game']}: row level vs column, {t['deals']} duplicate deals per pair x "
          f"{t['seatings']} seatings, seed {t['seed']} ({t['seconds']:.0f} s)", file=out)
    texts = {row: {col: _cell_text(t["cells"][row].get(col)) for col in t["columns"]}
             for row in t["rows"]}
    width = max([len(col) for col in t["columns"]]
                + [len(text) for cols in texts.values() for text in cols.values()])
    head = max(len(row) for row in t["rows"])
    print(f"  {'':<{head}}  " + "  ".join(f"{col:>{width}}" for col in t["columns"]), file=out)
    for row in t["rows"]:
        print(f"  {row:<{head}}  " + "  ".join(f"{texts[row][col]:>{width}}"
                                              for col in t["columns"]), file=out)
    print(f"  cell: the row's win share ± half its 95% CI, then its {t['figure']} ± the same",
          file=out)


def run_levels(games: list[str], deals: int, seed: int, jobs: int, workers: int,
               as_json: bool, out: TextIO) -> int:
    """The `arena --levels` option (wired in `engine.cli`): one table per game."""
    if not as_json:
        print(f"arena --levels: a short run of {deals} duplicate deals per pair (--deals N for "
              f"narrower intervals); win share: the row's side wins a deal the column's loses "
              f"(1), the other way round (0), else 1/2", file=out)
    tables = []
    for name in games:
        tables.append(level_table(name, deals, seed, jobs, workers))
        if not as_json:
            print_table(tables[-1], out)
            out.flush()
    if as_json:
        print(json.dumps({"seed": seed, "deals": deals, "tables": tables}, ensure_ascii=False),
              file=out)
    return 0
