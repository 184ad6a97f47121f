"""Machine instructions per random public deal (callgrind), old commit against the new code.

    .venv/bin/python scripts/engine_callgrind.py OLD_REV [--new REV] [--deals 200] [games...]

A count of instructions does not depend on the machine's load, so on a shared machine it is the
steadier figure beside `engine_speed_compare.py`'s deals per CPU second. Each side's `engine/` is
extracted into a temporary folder (as `engine_speed_compare.py` does) and run under
`valgrind --tool=callgrind` twice: warm-up only, then warm-up plus DEALS public deals
(`state.apply(state.random_action(rng))` until `is_over`, `new_deal` included, the loop of
`python -m engine bench`); the difference divided by DEALS is the figure. Also printed: the
same for dealing alone (`new_deal`). Needs valgrind; everything is removed afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_speed_compare import compare_parser, extract, stop_on_sigterm  # noqa: E402

CHILD = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from engine import registry
game = registry.get(sys.argv[2])
deals, what = int(sys.argv[3]), sys.argv[4]

def public(state, rng):
    while not state.is_over:
        state.apply(state.random_action(rng))

rng = random.Random(1)
for _ in range(20):  # warm-up: imports, tables, specialised bytecode
    public(game.new_deal(rng.getrandbits(32)), rng)
rng = random.Random(1)
for _ in range(deals):
    state = game.new_deal(rng.getrandbits(32))
    if what == "public":
        public(state, rng)
"""


def instructions(folder: Path, game: str, deals: int, what: str) -> int:
    """Instructions callgrind counts for one child run."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}.out",
         sys.executable, "-c", CHILD, str(folder), game, str(deals), what],
        cwd=folder, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"error: callgrind of {game} in {folder} failed:\n{done.stderr}")
    return int(found.group(1))


def per_deal(folder: Path, game: str, deals: int, what: str) -> float:
    return (instructions(folder, game, deals, what) - instructions(folder, game, 0, what)) / deals


def main(argv: list[str] | None = None) -> int:
    parser = compare_parser(__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_intermixed_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if shutil.which("valgrind") is None:
        raise SystemExit("error: valgrind is not installed (apt-get install valgrind)")
    stop_on_sigterm()
    tmp = Path(tempfile.mkdtemp(prefix="parlor-callgrind-"))
    try:
        sides = {"old": tmp / "old", "new": tmp / "new"}
        extract(args.old, sides["old"])
        extract(args.new, sides["new"])
        print(f"instructions per deal (callgrind, {args.deals} deals): old = {args.old}, "
              f"new = {args.new or 'working tree'}")
        print(f"{'game':8s} {'figure':7s} {'old':>10s} {'new':>10s} {'new/old':>8s}")
        for game in args.games:
            for what in ("public", "deal"):
                old = per_deal(sides["old"], game, args.deals, what)
                new = per_deal(sides["new"], game, args.deals, what)
                print(f"{game:8s} {what:7s} {old:10.0f} {new:10.0f} {new / old:7.3f}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
