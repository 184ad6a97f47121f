"""`python -m engine`: replay a record, simulate matches, benchmark, and run the bot arena.

`replay` is a contract (records.md): one JSON object on stdout; exit 0 when every action applied,
1 with the rule id on an illegal action, 2 with a one-line message on a malformed record. No
subcommand ever prints a Python traceback for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine import registry
from engine.errors import EngineError, MalformedRecord

GAMES = registry.names()


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8-sig", errors="strict")
    with open(path, encoding="utf-8-sig") as fh:  # a byte-order mark from an editor is fine
        return fh.read()


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.records import replay

    try:
        text = _read(args.record)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    try:
        status, out = replay(text)
    except MalformedRecord as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return status


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import simulate

    simulate(args.game, deals=args.deals, seed=args.seed, bots=args.bots, out=sys.stdout,
             delay=args.delay, show_actions=args.actions)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from engine.bench import bench

    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        print(f"error: unknown game {unknown[0]!r} (known: {', '.join(GAMES)})", file=sys.stderr)
        return 2
    for game in args.games or GAMES:
        bench(game, seconds=args.seconds, seed=args.seed, out=sys.stdout)
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from engine.ai.arena import run_arena

    return run_arena(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="apply a record's actions and print the contract JSON")
    p.add_argument("record", help="record file, or - for standard input")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play bots against each other and print each deal")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--deals", type=int, default=None, help="deals to play (default: one match)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="heuristic",
                   help="one bot kind for every seat, or a comma list by seat")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause between tricks")
    p.add_argument("--actions", action="store_true", help="also print every action")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("bench", help="random-playout speed, clone/apply cost, peak memory")
    p.add_argument("games", nargs="*", default=[], help="games to measure (default: all)")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("arena", help="duplicate-deal match between two bot kinds")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # an engine bug: still one line, never a traceback (records.md)
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3
