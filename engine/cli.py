"""`python -m engine`: replay a record, simulate matches, benchmark, run the bot arena, study, and
coach a finished deal.

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
from engine.descriptor import load
from engine.errors import EngineError, MalformedRecord

GAMES = registry.names()


def _worker_counts(text: str) -> list[int]:
    """`--workers`: comma-separated counts of searching processes, each an integer >= 1 or
    `auto` (the cores but one, at least 1)."""
    from engine.ai.workers import worker_count

    counts = []
    for item in text.split(","):
        item = item.strip()
        if item == "auto":
            counts.append(worker_count("auto"))
        elif item.isdigit() and int(item) >= 1:
            counts.append(int(item))
        else:
            raise argparse.ArgumentTypeError(
                f"expected a count of at least 1 or 'auto', not {item!r}")
    return counts


def _worker_count(text: str) -> int:
    counts = _worker_counts(text)
    if len(counts) != 1:
        raise argparse.ArgumentTypeError("expected one count or 'auto'")
    return counts[0]


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8-sig", errors="strict")
    with open(path, encoding="utf-8-sig") as fh:  # a byte-order mark from an editor is fine
        return fh.read()


def _read_or_say(path: str) -> str | None:
    """A record file's text, or None after one line on stderr saying why it cannot be read."""
    try:
        return _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {path}: {exc}", file=sys.stderr)
        return None


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.records import replay

    text = _read_or_say(args.record)
    if text is None:
        return 2
    try:
        status, out = replay(text)
    except MalformedRecord as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return status


def cmd_coach(args: argparse.Namespace) -> int:
    """`coach RECORD --seat S [--json]`: the moments where seat S's choices cost most
    (engine/ai/coach.py); `coach --bench GAME...`: its time per deal."""
    from engine.ai.coach import coach, coach_time, describe

    if args.bench:
        unknown = [g for g in args.bench if g not in GAMES]
        if unknown:
            print(f"error: unknown game {unknown[0]!r} (known: {', '.join(GAMES)})",
                  file=sys.stderr)
            return 2
        if args.deals < 1:
            print("error: --deals must be at least 1", file=sys.stderr)
            return 2
        for game in args.bench:
            coach_time(game, args.deals, args.seed, args.seat, sys.stdout)
        return 0
    if args.record is None:
        print("error: coach needs a RECORD (or --bench GAME...)", file=sys.stderr)
        return 2
    text = _read_or_say(args.record)
    if text is None:
        return 2
    from engine.records import parse_record

    try:
        players = parse_record(text).game.players
    except MalformedRecord as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.seat < players:
        print(f"error: --seat must be 0..{players - 1}", file=sys.stderr)
        return 2
    moments = coach(text, args.seat)  # an illegal action: an EngineError, one line (main)
    if args.json:
        print(json.dumps(moments, ensure_ascii=False))
    elif not moments:
        print("nothing costly this deal")
    else:
        for moment in moments:
            print(describe(moment))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import simulate

    simulate(args.game, deals=args.deals, seed=args.seed, bots=args.bots, out=sys.stdout,
             delay=args.delay, show_actions=args.actions)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from engine.ai.bots import KINDS
    from engine.ai.kinds import is_kind
    from engine.bench import bench, decision_times

    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        print(f"error: unknown game {unknown[0]!r} (known: {', '.join(GAMES)})", file=sys.stderr)
        return 2
    if args.decisions is not None and not is_kind(args.decisions):
        print(f"error: unknown bot {args.decisions!r} (known: {', '.join(KINDS)})",
              file=sys.stderr)
        return 2
    if args.deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    for game in args.games or GAMES:
        if args.decisions:
            for workers in args.workers:
                decision_times(game, args.decisions, args.deals, args.seed, sys.stdout, workers)
        else:
            bench(game, seconds=args.seconds, seed=args.seed, out=sys.stdout, clock=args.clock)
    return 0


def cmd_study(args: argparse.Namespace) -> int:
    ref = registry.info(args.game).studies
    study = load(ref) if ref is not None else None  # the game's studies module (AI tools)
    studies = ("soak",) + (study.KINDS if study is not None else ())
    if args.kind not in studies:
        print(f"error: {args.game} has no study {args.kind!r} (known: {', '.join(studies)})",
              file=sys.stderr)
        return 2
    soaking = args.kind == "soak"
    deals = args.deals if args.deals is not None else (20000 if soaking else 100)
    seed = args.seed if args.seed is not None else (0 if soaking else 1)
    if deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    if soaking:
        from engine.soak import SoakFailure, soak

        try:
            soak(args.game, deals, seed, sys.stdout)
        except SoakFailure as exc:
            print(f"soak failed: {exc}; record: {exc.record}", file=sys.stderr)
            return 1
        return 0
    study.run(args.kind, deals, seed, sys.stdout, worlds=args.worlds, fair=args.fair)
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    """`arena GAME --a A --b B`; `arena --levels [GAME...]` (engine/ai/tools/levels.py); `arena
    tractor --share --a A [--b B,...]` (engine/ai/tools/tractor_share.py); `arena --paired X Y`
    (engine/ai/tools/arena_paired.py)."""
    from engine.ai.kinds import KINDS, is_kind

    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        print(f"error: unknown game {unknown[0]!r} (known: {', '.join(GAMES)})", file=sys.stderr)
        return 2
    if args.paired is not None:
        if (args.games or args.a or args.b or args.levels or args.share or args.out
                or args.summary):
            print("error: --paired compares two deal logs: no GAME, --a, --b, --levels, "
                  "--share, --out or --summary", file=sys.stderr)
            return 2
        from engine.ai.tools.arena_paired import run_paired

        return run_paired(args.paired[0], args.paired[1], args.json)
    if (args.levels or args.share) and (args.out is not None or args.summary):
        print("error: --out and --summary are for a match of two bot kinds (not --levels or "
              "--share)", file=sys.stderr)
        return 2
    if args.levels:
        if args.share or args.a is not None or args.b is not None:
            print("error: --levels plays every level: no --a, --b or --share", file=sys.stderr)
            return 2
        from engine.ai.tools.levels import DEFAULT_DEALS, run_levels

        deals = DEFAULT_DEALS if args.deals is None else args.deals
        if deals < 1 or args.jobs < 1:
            print("error: --deals and --jobs must be at least 1", file=sys.stderr)
            return 2
        return run_levels(args.games or GAMES, deals, args.seed, args.jobs, args.workers,
                          args.json, sys.stdout)
    if len(args.games) != 1:
        print("error: arena needs one GAME (or --levels)", file=sys.stderr)
        return 2
    args.game = args.games[0]
    if args.a is None:
        print("error: arena needs --a (or --levels)", file=sys.stderr)
        return 2
    if args.share:
        from engine.ai.tools.tractor_share import DEFAULT_B, GAME, run_share

        if args.game != GAME:
            print(f"error: --share is a {GAME} figure (not for {args.game})", file=sys.stderr)
            return 2
        kinds_b = DEFAULT_B if args.b is None else tuple(k.strip() for k in args.b.split(","))
        deals = 200 if args.deals is None else args.deals
        for kind in (args.a, *kinds_b):
            if not is_kind(kind):
                print(f"error: unknown bot {kind!r} (known: {', '.join(KINDS)})",
                      file=sys.stderr)
                return 2
        if deals < 1 or args.jobs < 1:
            print("error: --deals and --jobs must be at least 1", file=sys.stderr)
            return 2
        return run_share(args.a, kinds_b, deals, args.seed, args.jobs, args.workers, args.json)
    if args.b is None:
        print("error: arena needs --b (or --levels)", file=sys.stderr)
        return 2
    if args.deals is None:
        args.deals = 100
    from engine.ai.tools.arena import run_arena

    return run_arena(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="apply a record's actions and print the contract JSON")
    p.add_argument("record", help="record file, or - for standard input")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("coach", help="the moments of a finished deal where a seat's choices "
                                     "cost most by the search's estimate")
    p.add_argument("record", nargs="?", help="record file, or - for standard input")
    p.add_argument("--seat", type=int, default=0, help="the seat coached (default 0)")
    p.add_argument("--json", action="store_true", help="the moments as one JSON list")
    p.add_argument("--bench", nargs="+", metavar="GAME",
                   help="instead: time the coach on bot-played deals of each GAME")
    p.add_argument("--deals", type=int, default=3, help="deals per game for --bench")
    p.add_argument("--seed", type=int, default=1, help="first deal's seed for --bench")
    p.set_defaults(func=cmd_coach)

    p = sub.add_parser("simulate", help="play bots against each other and print each deal")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--deals", type=int, default=None, help="deals to play (default: one match)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="heuristic",
                   help="one bot kind for every seat, or a comma list by seat")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause between tricks")
    p.add_argument("--actions", action="store_true", help="also print every action")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("bench", help="random-playout speed, clone/apply/legality cost, memory; "
                                     "or a bot level's decision times")
    p.add_argument("games", nargs="*", default=[], help="games to measure (default: all)")
    p.add_argument("--seconds", type=float, default=3.0, help="time per playout-rate figure")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="count rates and per-call costs in wall or CPU time")
    p.add_argument("--decisions", metavar="LEVEL",
                   help="instead: time every decision of a LEVEL bot at seat 0 vs heuristic bots")
    p.add_argument("--deals", type=int, default=5, help="deals played for --decisions")
    p.add_argument("--workers", type=_worker_counts, default=[1], metavar="K[,K...]",
                   help="for --decisions: processes searching each decision, one block per "
                        "count (auto = the cores but one); also prints the workers' peak RSS")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("arena", help="duplicate-deal match between two bot kinds; or every "
                                     "level against every other (--levels)")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help=f"one of {', '.join(GAMES)}; with --levels any (default: all)")
    p.add_argument("--a", help="side A's bot kind")
    p.add_argument("--b", help="side B's bot kind (with --share: a comma list, default "
                               "random,heuristic)")
    p.add_argument("--levels", action="store_true",
                   help="one table per game: every player level against every level and the "
                        "heuristic and random bots (a short run by default)")
    p.add_argument("--share", action="store_true",
                   help="tractor: the share of deals the team of one A bot among three B bots "
                        "gains levels or holds")
    p.add_argument("--deals", type=int, default=None,
                   help="duplicate deals (default: 100; per pair with --levels: a few; "
                        "200 with --share)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--workers", type=_worker_count, default=1, metavar="K",
                   help="processes searching each decision (auto = the cores but one)")
    p.add_argument("--out", metavar="FILE.jsonl",
                   help="append each deal to this log as it finishes; run again to play only "
                        "the deals it lacks")
    p.add_argument("--summary", action="store_true",
                   help="with --out: report the deals logged so far, play none")
    p.add_argument("--paired", nargs=2, metavar=("X.jsonl", "Y.jsonl"),
                   help="compare two deal logs of the same game, seed and side B deal by deal "
                        "(X - Y per metric, with its 95%% CI); plays nothing")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("study", help="a long random-playout soak (any game), or a Chắn AI study")
    p.add_argument("game", choices=GAMES)
    p.add_argument("kind", metavar="KIND",
                   help="soak (any game: random deals, every invariant checked, engine/soak.py); "
                        "chan also: oracle, hands, realism, deltas, known, overlap "
                        "(engine/ai/tools/chan_study.py says what each measures)")
    p.add_argument("--deals", type=int, default=None,
                   help="deals (default: 20000 for soak, 100 for a study)")
    p.add_argument("--seed", type=int, default=None, help="default: 0 for soak, 1 for a study")
    p.add_argument("--worlds", type=int, default=40,
                   help="stock shuffles (hands), sampled worlds (overlap)")
    p.add_argument("--fair", action="store_true", help="known: the shipped search itself")
    p.set_defaults(func=cmd_study)
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
