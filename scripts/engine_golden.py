"""Golden outputs of the engine, to prove a speed-up changed nothing a player, a bot or a record sees.

    .venv/bin/python scripts/engine_golden.py OUT [--rev REV]
    diff OLD_OUT NEW_OUT   # byte-identical, or the change is a bug

Writes to the file OUT, for the engine of commit REV (default: the working tree), extracted into
a temporary folder (removed afterwards) and run there in child processes:

- `python -m engine replay` of every record fixture under the working tree's tests/ (exit code,
  stdout, stderr);
- `python -m engine simulate --actions` per game with random, heuristic and search bots;
- `python -m engine arena --json` short runs (decision times and memory dropped: they vary);
- a trace of random public-API deals per game: at every decision the phase, the seat, every legal
  action in `legal_actions()` order (sampled by index where the lazy set is huge), the observation
  of the seat to act, the rule id and message of every refused probe action, and at the end the
  result and the deal's typed result; from some decisions a fast playout of a clone too.

The search's safety net counts CPU time (`PARLOR_SEARCH_CLOCK=cpu`) so a loaded machine cannot
cut a search short and change a bot's choice.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_speed_compare import REPO, extract  # noqa: E402

GAMES = ("meri", "tractor", "chan")
SIMULATE = [(game, bots, seed, deals) for game in GAMES
            for bots, seed, deals in (("random", 0, 3), ("random", 1, 3), ("heuristic", 0, 3),
                                      ("heuristic", 2, 3), ("easy", 3, 2), ("normal", 0, 1),
                                      ("hard", 4, 1))]
ARENA = [(game, a, b, deals) for game in GAMES
         for a, b, deals in (("random", "heuristic", 6), ("normal", "heuristic", 1))]
UNSTABLE = ("decision_ms", "peak_rss_mb")  # timing and memory figures of the arena's JSON
TRACE_DEALS = 25

TRACE = r"""
import random, sys
from engine import registry
from engine.errors import IllegalAction
game = registry.get(sys.argv[1])
name = game.name
out = sys.stdout.write

def listing(legal):
    n = len(legal)
    if n <= 300:
        return f"{n}: " + " | ".join(game.format_action(a) for a in legal)
    step = max(1, n // 97)
    picks = [legal[i] for i in range(0, n, step)] + [legal[n - 1]]
    return f"{n} (every {step}th): " + " | ".join(game.format_action(a) for a in picks)

def probes(state, legal, rng):
    # Actions to try that may be refused, by game: every id (Meri, Chắn) or card tuples (Tractor).
    if name == "tractor":
        hand = state.hands[state.actor]
        held = [k for k in range(54) if hand[k]]
        found = [(-1,), (-2, 0, 0), (-3,) + tuple(held[:8]), ()]
        for size in (1, 2, 4, 8):
            for _ in range(4):
                found.append(tuple(sorted(rng.choice(held or [0]) for _ in range(size))))
                found.append(tuple(sorted(rng.randrange(54) for _ in range(size))))
        return found
    return list(range(77 if name == "meri" else 53)) + [-1, "x", True]

for d in range(int(sys.argv[2])):
    rng = random.Random(d)
    prng = random.Random(1000 + d)
    state = game.new_deal(rng.getrandbits(32))
    step = 0
    out(f"== {name} deal {d}\n")
    while not state.is_over:
        seat = state.to_act
        legal = state.legal_actions()
        out(f"{step} {state.phase} seat {seat} legal {listing(legal)}\n")
        out(f"  obs {state.observation(seat)!r}\n")
        texts, count = game.legal_listing(state, 20)
        out(f"  listing {count} {texts}\n")
        before = repr(state.observation(seat))
        for a in probes(state, legal, prng):
            try:
                probe = state.clone()
                probe.apply(a)
                out(f"  probe {a!r} ok -> {probe.phase} {probe.to_act}\n")
            except IllegalAction as exc:
                out(f"  probe {a!r} {exc.rule}: {exc}\n")
            except Exception as exc:  # bad input must fail the same way too
                out(f"  probe {a!r} {type(exc).__name__}: {exc}\n")
        if step % 9 == 4:
            fast = game.playout(state.clone(), random.Random(step))
            out(f"  fast {game.result_json(fast)}\n")
        assert repr(state.observation(seat)) == before
        action = state.random_action(rng) if step % 2 else legal[rng.randrange(len(legal))]
        out(f"  play {game.format_action(action)}\n")
        state.apply(action)
        step += 1
    out(f"result {game.result_json(state)}\n")
    out(f"deal_result {game.deal_result(state)!r}\n")
    for s in range(game.players):
        out(f"final obs {s} {state.observation(s)!r}\n")
"""


def run(folder: Path, args: list[str], out) -> str:
    """Run `python ARGS` in `folder` and write its exit code, stdout and stderr to `out`."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
               PARLOR_SEARCH_CLOCK="cpu")
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, *args], cwd=folder, env=env, capture_output=True,
                          text=True, check=False)
    out.write(f"### {'trace ' + ' '.join(args[2:]) if args[0] == '-c' else ' '.join(args)}\n")
    out.write(f"exit {done.returncode}\nstderr {done.stderr}\n")
    return done.stdout


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the file to write")
    parser.add_argument("--rev", default=None, help="the commit (default: the working tree)")
    args = parser.parse_args(argv)
    records = sorted((REPO / "tests").rglob("records/**/*.json"))
    signal.signal(signal.SIGTERM, _stop)  # a TERM still removes the temporary folder
    tmp = Path(tempfile.mkdtemp(prefix="parlor-golden-"))
    try:
        folder = tmp / "tree"
        extract(args.rev, folder)
        check = run(folder, ["-c", "import engine; print(engine.__file__)"], open(os.devnull, "w"))
        if not check.startswith(str(folder)):
            raise SystemExit("error: the child did not import the extracted engine")
        with args.out.open("w", encoding="utf-8") as out:
            for path in records:
                out.write(run(folder, ["-m", "engine", "replay", str(path)], out))
            for game, bots, seed, deals in SIMULATE:
                out.write(run(folder, ["-m", "engine", "simulate", game, "--bots", bots,
                                       "--seed", str(seed), "--deals", str(deals), "--actions"],
                              out))
            for game, a, b, deals in ARENA:
                text = run(folder, ["-m", "engine", "arena", game, "--a", a, "--b", b,
                                    "--deals", str(deals), "--seed", "3", "--json"], out)
                data = json.loads(text)
                for key in UNSTABLE:
                    data.pop(key, None)
                out.write(json.dumps(data, sort_keys=True) + "\n")
            for game in GAMES:
                out.write(run(folder, ["-c", TRACE, game, str(TRACE_DEALS)], out))
            print(f"{len(records)} records, {len(SIMULATE)} simulations, {len(ARENA)} arena "
                  f"runs, {len(GAMES)} traces of {TRACE_DEALS} deals written to {args.out}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
