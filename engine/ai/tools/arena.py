"""`python -m engine arena GAME --a BOT --b BOT`: two bot kinds on duplicate deals.

Every deal is dealt from one seed and played once per seating of `game.arena_seatings()` (teams
swapped, or seats rotated), side A's bots taking the seats of that seating and side B's the rest,
so the luck of the cards cancels out. The unit of the statistics is the deal: its figures are the
mean over its seatings, and the headline metric (the first key of `game.arena_metrics`) is given
as mean ± a 95% confidence interval over deals. Each deal is played through the headless table
(`engine.table`, bot seats on a bare deal); decision times are measured around each bot's
`choose` call (`TimedSeat`); peak memory is `ru_maxrss` (with `--jobs`, the largest over the job processes;
with `--workers`, over their search workers' too); both figures come from engine/measure.py,
like every bench's. `--workers K` splits each search decision's worlds over K processes
(`engine.ai.pool`, one pool per job process): the same decisions, other decision times.

Deals are split across worker processes by index and merged back in index order, and every bot
is built from a seed derived from (run seed, deal, seating, seat), and a search level is an amount
of work, so the result depends neither on `--jobs` nor on the machine or its load (unless a
decision hits the search's wall-clock safety net, which is logged).

With `--out FILE.jsonl` every deal is appended to a log as it finishes
(`engine.ai.tools.arena_log`): the same command run again plays only the deals the log lacks, and
`--summary` reports the deals logged so far without playing any, so a run cut short still gives its
figures and CI.

Other tables built on these matches (`engine.ai.tools.levels`, `engine.ai.tools.tractor_share`)
pass their own seatings and their own figures of a finished deal (a module-level `Metrics`
function, so that job processes can be handed it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engine import registry
from engine.ai.bots import KINDS, make_bot
from engine.ai.kinds import is_kind
from engine.ai.parts import PartSource
from engine.ai.pool import SearchPool
from engine.ai.tools import arena_log
from engine.measure import format_percentiles, mean_ci, peak_rss_mb, percentiles
from engine.table import Answer, BotSeat, DealPosition, Request, Table

#: The decision-time figures of the report and its `--json` object.
DECISION_RANKS = ("p50", "p95", "max")

#: A finished deal's figures from side A's view: (game, state, A's seats) -> {name: value}.
Metrics = Callable[[Any, Any, frozenset[int]], dict[str, float]]
Seatings = Sequence[frozenset[int]]


@dataclass
class DealResult:
    """Figures of one duplicate deal, averaged over its seatings, plus the raw decision times."""

    index: int
    metrics: dict[str, float]
    ms_a: list[float] = field(default_factory=list)
    ms_b: list[float] = field(default_factory=list)


def deal_seed(run_seed: int, index: int) -> int:
    """The seed that deals duplicate deal `index` of a run (independent of how deals are split)."""
    return random.Random(run_seed * 1_000_003 + index).getrandbits(32)


def play_deal(game_name: str, kind_a: str, kind_b: str, run_seed: int, index: int,
              pool: PartSource | None = None, seatings: Seatings | None = None,
              metrics: Metrics | None = None) -> DealResult:
    """Play deal `index` once per seating and average side A's metrics over the seatings (the
    search bots' worlds split across `pool`, if given; `seatings` and `metrics` default to the
    game's `arena_seatings()` and `arena_metrics`)."""
    game = registry.get(game_name)
    seed = deal_seed(run_seed, index)
    totals: dict[str, float] = {}
    result = DealResult(index, {})
    if seatings is None:
        seatings = game.arena_seatings()
    for turn, a_seats in enumerate(seatings):
        state = game.new_deal(seed)
        seats = [
            TimedSeat(make_bot(game_name, kind_a if seat in a_seats else kind_b,
                               (seed * 31 + turn) * 16 + seat, pool),
                      result.ms_a if seat in a_seats else result.ms_b)
            for seat in range(game.players)
        ]
        Table(DealPosition(state), seats).run()
        figures = (game.arena_metrics(state, a_seats) if metrics is None
                   else metrics(game, state, a_seats))
        for key, value in figures.items():
            totals[key] = totals.get(key, 0.0) + float(value)
    result.metrics = {key: value / len(seatings) for key, value in totals.items()}
    return result


class TimedSeat(BotSeat):
    """A bot's seat that times each decision (its `choose` call only: the observation and the
    legal actions are made before the clock starts), in milliseconds, into `times`."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        super().__init__(bot)
        self.times = times

    def ask(self, request: Request) -> Answer:
        legal = request.legal
        observation = request.observation
        clock = time.perf_counter
        start = clock()
        action = self.bot.choose(observation, legal)
        self.times.append((clock() - start) * 1000.0)
        return Answer(action)


Job = tuple[str, str, str, int, list[int], int, Seatings | None, Metrics | None, Path | None]


def _play_chunk(job: Job) -> tuple[list[DealResult], float]:
    """Job entry: play the given deal indices (search worlds over `workers` processes), each
    appended to the deal log as it finishes if there is one; return their results and the peak
    RSS of this process and its search workers."""
    game_name, kind_a, kind_b, run_seed, indices, workers, seatings, metrics, log = job
    results = []
    with SearchPool(workers) as pool:
        for i in indices:
            result = play_deal(game_name, kind_a, kind_b, run_seed, i, pool, seatings, metrics)
            if log is not None:
                arena_log.append(log, to_line(result))
            results.append(result)
        return results, max([peak_rss_mb()] + pool.peak_rss_mb())


def to_line(result: DealResult) -> dict[str, Any]:
    """One deal as a line of the deal log."""
    return {"index": result.index, "metrics": result.metrics,
            "ms_a": [round(t, 3) for t in result.ms_a], "ms_b": [round(t, 3) for t in result.ms_b]}


def from_line(line: dict[str, Any]) -> DealResult:
    """One deal read back from the deal log."""
    return DealResult(line["index"], {k: float(v) for k, v in line["metrics"].items()},
                      [float(t) for t in line["ms_a"]], [float(t) for t in line["ms_b"]])


def play_deals(
    game_name: str, kind_a: str, kind_b: str, deals: int, run_seed: int, jobs: int = 1,
    workers: int = 1, seatings: Seatings | None = None, metrics: Metrics | None = None,
    indices: Sequence[int] | None = None, log: Path | None = None,
) -> tuple[list[DealResult], float]:
    """Play `deals` duplicate deals (over `jobs` processes, each search decision over `workers`;
    `seatings` and `metrics` as in `play_deal`); results in deal order and peak RSS. `indices`
    plays only those deals of the run; `log` appends each deal to that deal log as it finishes."""
    todo = list(range(deals)) if indices is None else sorted(indices)
    if jobs <= 1 or len(todo) <= 1:
        return _play_chunk((game_name, kind_a, kind_b, run_seed, todo, workers, seatings,
                            metrics, log))
    jobs = min(jobs, len(todo))
    chunks = [todo[k::jobs] for k in range(jobs)]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        parts = pool.map(_play_chunk,
                         [(game_name, kind_a, kind_b, run_seed, c, workers, seatings, metrics,
                           log) for c in chunks])
        # Let the workers exit on their own: leaving the block terminates (SIGTERM) any still
        # alive, and a worker that inherited a SIGTERM handler (SDL's, when a Kivy window exists
        # in the parent) would survive it while the pool waits for it forever.
        pool.close()
        pool.join()
    results = sorted((r for part, _ in parts for r in part), key=lambda r: r.index)
    return results, max([peak_rss_mb()] + [rss for _, rss in parts])


def summarize(
    game_name: str, kind_a: str, kind_b: str, results: list[DealResult], rss: float
) -> dict[str, Any]:
    """The `--json` object: headline mean and CI, every metric's mean and CI, times, memory."""
    keys = list(results[0].metrics) if results else []
    metric = keys[0] if keys else ""
    out: dict[str, Any] = {"game": game_name, "deals": len(results), "a": kind_a, "b": kind_b,
                           "metric": metric}
    mean, lo, hi = mean_ci([r.metrics[metric] for r in results]) if keys else (0.0, 0.0, 0.0)
    out["mean"] = round(mean, 4)
    out["ci95"] = [round(lo, 4), round(hi, 4)]
    others: dict[str, Any] = {}
    for key in keys:
        m, lo_k, hi_k = mean_ci([r.metrics[key] for r in results])
        others[key] = {"mean": round(m, 4), "ci95": [round(lo_k, 4), round(hi_k, 4)]}
    out["metrics"] = others
    win_key = next((k for k in keys if k.startswith("win")), None)
    if game_name == "chan" and win_key is not None:
        out["win_rate_a"] = others[win_key]["mean"]
    out["decision_ms"] = {
        "a": percentiles([t for r in results for t in r.ms_a], DECISION_RANKS),
        "b": percentiles([t for r in results for t in r.ms_b], DECISION_RANKS),
    }
    out["decisions"] = {"a": sum(len(r.ms_a) for r in results),
                        "b": sum(len(r.ms_b) for r in results)}
    out["peak_rss_mb"] = round(rss, 1)
    return out


def print_report(summary: dict[str, Any], seatings: int, seed: int, out: TextIO) -> None:
    """Human-readable arena report."""
    s = summary
    print(f"arena {s['game']}: A={s['a']} vs B={s['b']}, {s['deals']} duplicate deals "
          f"x {seatings} seatings, seed {seed}", file=out)
    lo, hi = s["ci95"]
    print(f"  {s['metric']} (A's view, per deal): {s['mean']:+.3f} ± {(hi - lo) / 2:.3f}"
          f"  (95% CI [{lo:+.3f}, {hi:+.3f}])", file=out)
    for key, fig in s["metrics"].items():
        if key == s["metric"]:
            continue
        lo_k, hi_k = fig["ci95"]
        print(f"  {key}: {fig['mean']:+.3f}  (95% CI [{lo_k:+.3f}, {hi_k:+.3f}])", file=out)
    for side in ("a", "b"):
        d = s["decision_ms"][side]
        print(f"  decision ms {side.upper()} ({s[side]}, {s['decisions'][side]} decisions): "
              f"{format_percentiles(d)}", file=out)
    if s["peak_rss_mb"] > 0:
        print(f"  peak RSS {s['peak_rss_mb']:.1f} MB", file=out)
    else:
        print("  peak RSS not measured (every deal read from the log)", file=out)


def run_arena(args: argparse.Namespace) -> int:
    """The `arena` subcommand (wired in engine/cli.py)."""
    for kind in (args.a, args.b):
        if not is_kind(kind):
            print(f"error: unknown bot {kind!r} (known: {', '.join(KINDS)})", file=sys.stderr)
            return 2
    if args.deals < 1 or args.jobs < 1:
        print("error: --deals and --jobs must be at least 1", file=sys.stderr)
        return 2
    game = registry.get(args.game)
    workers = getattr(args, "workers", 1)
    out = getattr(args, "out", None)
    summary_only = getattr(args, "summary", False)
    if out is None:
        if summary_only:
            print("error: --summary reports a deal log: give it with --out", file=sys.stderr)
            return 2
        results, rss = play_deals(args.game, args.a, args.b, args.deals, args.seed, args.jobs,
                                  workers)
    else:
        log = Path(out)
        if summary_only and not log.exists():
            print(f"error: {log} holds no deal yet", file=sys.stderr)
            return 2
        try:
            logged = arena_log.open_log(log, arena_log.header(args.game, args.a, args.b,
                                                              args.seed))
        except arena_log.ArenaLogError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        done = {r.index: r for r in map(from_line, logged) if r.index < args.deals}
        rss = 0.0
        if not summary_only:
            missing = [i for i in range(args.deals) if i not in done]
            if missing:
                played, rss = play_deals(args.game, args.a, args.b, args.deals, args.seed,
                                         args.jobs, workers, indices=missing, log=log)
                done.update((r.index, r) for r in played)
        results = [done[i] for i in sorted(done)]
        if not results:
            print(f"error: {log} holds no deal yet", file=sys.stderr)
            return 2
    summary = summarize(args.game, args.a, args.b, results, rss)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print_report(summary, len(game.arena_seatings()), args.seed, sys.stdout)
    return 0
