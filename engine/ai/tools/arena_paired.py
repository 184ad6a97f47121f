"""`python -m engine arena --paired X.jsonl Y.jsonl`: two arena deal logs compared deal by deal.

A variant of a bot is judged against what ships by playing both against the same opponent on the
same duplicate deals: the two runs' logs (`arena --out`, same game, seed and side B) share their
deals, and the difference X − Y per deal cancels the deal's luck a second time, so it is far
tighter than the two runs' own intervals. The logs may come from two bot kinds or from one kind
run on two commits (e.g. the shipped `normal` and a worktree's changed `normal`); only the deals
both logs hold are compared, so either may still be running. Read only: the logs are not changed.

Printed per metric: X's and Y's mean with its 95% CI over the common deals, the paired difference
X − Y with its 95% CI, and in how many deals the two differ at all; then both sides' A decision
times.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.ai.tools import arena_log
from engine.ai.tools.arena import DECISION_RANKS
from engine.measure import format_percentiles, mean_ci, percentiles

#: What must match for two logs to be paired: the same duplicate deals against the same side B.
SAME = ("game", "seed", "b")


class PairingError(arena_log.ArenaLogError):
    """Two logs that cannot be compared deal by deal (one line, for the user)."""


def compare(path_x: Path, path_y: Path) -> dict[str, Any]:
    """The `--json` object of the paired comparison of the logs at `path_x` and `path_y`."""
    head_x, deals_x = arena_log.read_log(path_x)
    head_y, deals_y = arena_log.read_log(path_y)
    for key in SAME:
        if head_x.get(key) != head_y.get(key):
            raise PairingError(f"{path_x} and {path_y} are not the same duplicate deals: "
                               f"{key} {head_x.get(key)!r} against {head_y.get(key)!r}")
    by_x = {d["index"]: d for d in deals_x}
    by_y = {d["index"]: d for d in deals_y}
    common = sorted(set(by_x) & set(by_y))
    if not common:
        raise PairingError(f"{path_x} and {path_y} share no finished deal yet")
    keys = [k for k in by_x[common[0]]["metrics"] if k in by_y[common[0]]["metrics"]]
    metrics: dict[str, Any] = {}
    for key in keys:
        xs = [float(by_x[i]["metrics"][key]) for i in common]
        ys = [float(by_y[i]["metrics"][key]) for i in common]
        diffs = [x - y for x, y in zip(xs, ys, strict=True)]
        metrics[key] = {"x": _fig(xs), "y": _fig(ys), "diff": _fig(diffs),
                        "deals_differing": sum(1 for d in diffs if d != 0.0)}
    return {
        "game": head_x["game"], "seed": head_x["seed"], "b": head_x["b"],
        "x": {"log": str(path_x), "a": head_x.get("a")},
        "y": {"log": str(path_y), "a": head_y.get("a")},
        "deals": len(common), "metrics": metrics,
        "decision_ms": {
            "x": percentiles([t for i in common for t in by_x[i]["ms_a"]], DECISION_RANKS),
            "y": percentiles([t for i in common for t in by_y[i]["ms_a"]], DECISION_RANKS),
        },
    }


def _fig(values: list[float]) -> dict[str, Any]:
    mean, lo, hi = mean_ci(values)
    return {"mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def print_report(result: dict[str, Any], out: TextIO) -> None:
    """Human-readable paired comparison."""
    r = result
    print(f"paired arena {r['game']}, seed {r['seed']}, side B {r['b']}: "
          f"{r['deals']} duplicate deals in both logs", file=out)
    for side in ("x", "y"):
        print(f"  {side.upper()} = A {r[side]['a']} in {r[side]['log']}", file=out)
    for key, fig in r["metrics"].items():
        d = fig["diff"]
        lo, hi = d["ci95"]
        print(f"  {key}: X {_show(fig['x'])}  Y {_show(fig['y'])}", file=out)
        print(f"    X − Y {d['mean']:+.3f} ± {(hi - lo) / 2:.3f}  (95% CI [{lo:+.3f}, {hi:+.3f}]; "
              f"differs in {fig['deals_differing']} of {r['deals']} deals)", file=out)
    for side in ("x", "y"):
        print(f"  decision ms A of {side.upper()}: {format_percentiles(r['decision_ms'][side])}",
              file=out)


def _show(fig: dict[str, Any]) -> str:
    lo, hi = fig["ci95"]
    return f"{fig['mean']:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def run_paired(path_x: str, path_y: str, as_json: bool) -> int:
    """The `arena --paired X Y` subcommand (wired in engine/cli.py)."""
    try:
        result = compare(Path(path_x), Path(path_y))
    except arena_log.ArenaLogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print_report(result, sys.stdout)
    return 0
