"""Side-by-side engine speed: random whole-deal playouts of an old commit against the new code.

    .venv/bin/python scripts/engine_speed_compare.py OLD_REV [--new REV] [--rounds 5]
        [--seconds 2] [games...]

OLD_REV's `engine/` (and `--new REV`'s, or else the working tree's) is extracted into a fresh
temporary folder (`git archive`, or a copy of the working tree), and each is measured in its own
child process importing only that folder's engine. Rounds alternate which side goes first, so a
neighbour's load on the shared machine falls on both. Every figure is in this process's CPU time
(`time.process_time`) and counts whole deals per second, dealing (`new_deal`) included:

- `public`: the loop `python -m engine bench` measures for `deals_per_s_public`
  (`state.apply(state.random_action(rng))` until `is_over`, one seeded `random.Random`);
- `listed`: the same through the listing, `legal = state.legal_actions()` then
  `state.apply(legal[rng.randrange(len(legal))])`;
- `fast`: the game's fast playout `Game.playout(state, rng)` (the AI's rollout).

Printed per game and figure: the median over rounds of old and new, and new / old. Everything is
written under the temporary folder, which is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GAMES = ("meri", "tractor", "chan")
FIGURES = ("public", "listed", "fast")

# Run in the child, with the side's folder first on sys.path; prints one JSON object.
CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import engine
from engine import registry
game_name, seconds = sys.argv[2], float(sys.argv[3])
game = registry.get(game_name)
clock = time.process_time

def public(state, rng):
    while not state.is_over:
        state.apply(state.random_action(rng))

def listed(state, rng):
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])

def fast(state, rng):
    game.playout(state, rng)

def rate(run, seconds):
    rng = random.Random(1)
    for _ in range(20):  # warm-up
        run(game.new_deal(rng.getrandbits(32)), rng)
    rng = random.Random(1)
    done, start = 0, clock()
    while True:
        run(game.new_deal(rng.getrandbits(32)), rng)
        done += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed

out = {"engine": engine.__file__}
for name, run in (("public", public), ("listed", listed), ("fast", fast)):
    out[name] = rate(run, seconds)
print(json.dumps(out))
"""


def extract(rev: str | None, dest: Path) -> None:
    """`engine/` of commit `rev` (or of the working tree when None) into `dest`."""
    dest.mkdir()
    if rev is None:
        shutil.copytree(REPO / "engine", dest / "engine",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        return
    proc = subprocess.Popen(["git", "-C", str(REPO), "archive", "--format=tar", rev, "engine"],
                            stdout=subprocess.PIPE)
    assert proc.stdout is not None
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        tar.extractall(dest, filter="data")
    if proc.wait() != 0:
        raise SystemExit(f"error: git archive {rev} failed")


def measure(folder: Path, game: str, seconds: float) -> dict[str, float]:
    """One child process's figures for `game` with the engine of `folder`."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-c", CHILD, str(folder), game, str(seconds)],
                          cwd=folder, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: measuring {game} in {folder} failed:\n{done.stderr}")
    figures = json.loads(done.stdout)
    if not str(figures.pop("engine")).startswith(str(folder)):
        raise SystemExit(f"error: the child did not import the engine of {folder}")
    return figures


def stop_on_sigterm() -> None:
    """A SIGTERM ends the script through SystemExit, so its temporary folders are removed."""
    signal.signal(signal.SIGTERM, _stop)


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def compare_parser(description: str) -> argparse.ArgumentParser:
    """The command line every old-vs-new engine comparison shares: OLD, --new, GAMES."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("old", help="the commit to compare against (e.g. 909fe99)")
    parser.add_argument("--new", default=None, help="the new commit (default: the working tree)")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = compare_parser(__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    args = parser.parse_intermixed_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    stop_on_sigterm()  # a TERM still removes the temporary folder
    tmp = Path(tempfile.mkdtemp(prefix="parlor-speed-"))
    try:
        sides = {"old": tmp / "old", "new": tmp / "new"}
        extract(args.old, sides["old"])
        extract(args.new, sides["new"])
        runs: dict[tuple[str, str, str], list[float]] = {}
        for r in range(args.rounds):
            for game in args.games:
                order = ("old", "new") if r % 2 == 0 else ("new", "old")
                for side in order:
                    for name, value in measure(sides[side], game, args.seconds).items():
                        runs.setdefault((game, name, side), []).append(value)
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    new = args.new or "working tree"
    print(f"deals per CPU second, median of {args.rounds} alternated rounds of "
          f"{args.seconds:g} s: old = {args.old}, new = {new}")
    print(f"{'game':8s} {'figure':7s} {'old':>10s} {'new':>10s} {'ratio':>7s}")
    for game in args.games:
        for name in FIGURES:
            old = statistics.median(runs[(game, name, "old")])
            now = statistics.median(runs[(game, name, "new")])
            print(f"{game:8s} {name:7s} {old:10.1f} {now:10.1f} {now / old:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
