"""`parlor`: the appliance's command line (console script `device.cli:main`).

    parlor                         run the app (the default)
    parlor simulate GAME ...       bots play (the engine's simulate), or --autosave: the headless
                                   autosaving runner over the store
    parlor replay FILE [--print]   show a record on the table, or print the engine's replay JSON
    parlor doctor                  check display, inputs, pin factory, serial, backlight, config, store
    parlor install-service         install and enable the systemd unit (--dry-run, --root DIR)
    parlor network-sync            (root, run by parlor-network.path) the service's network
                                   drop-in in step with the Phones switch of the app
    parlor config --doc [--write FILE]  the table of every config key, from the schema (--write:
                                   replace the table in that Markdown page, e.g. docs/config.md)
    parlor --version | --selftest

Bad input gets one line on stderr and a non-zero status, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from engine import registry

GAMES = registry.names()


def version() -> str:
    try:
        return metadata.version("parlor")
    except metadata.PackageNotFoundError:
        from device import __version__

        return __version__


def cmd_run(args: argparse.Namespace) -> int:
    from device.main import run_app

    return run_app(mock_hardware=args.mock_hardware)


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.autosave:
        from device import runner

        if args.db is None:
            from device.main import load_config
            from device.paths import database_path

            db = database_path(load_config().store.path)
        else:
            db = Path(args.db)
        deals = args.deals if args.deals is not None else 10**9
        return runner.main(db, args.game, args.seed, deals, args.bots or "random", args.delay)
    from engine.simulate import simulate

    try:
        simulate(args.game, deals=args.deals, seed=args.seed, bots=args.bots or "heuristic",
                 out=sys.stdout, delay=args.delay, show_actions=args.actions)
    except (KeyError, ValueError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    return 0


def read_record(path: str) -> str:
    """The text of a record file (`-` = standard input); `OSError`/`UnicodeDecodeError` if not.

    The same policy as `python -m engine replay`: UTF-8, a leading byte-order mark (as some
    editors write) is accepted and dropped.
    """
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8-sig")
    return Path(path).read_text(encoding="utf-8-sig")


def cmd_replay(args: argparse.Namespace) -> int:
    import json

    from engine.errors import MalformedRecord
    from engine.records import parse_record, replay

    try:
        text = read_record(args.record)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        print(f"error: cannot read {args.record}: {reason}", file=sys.stderr)
        return 2
    try:
        if args.print:
            status, out = replay(text)
            print(json.dumps(out, ensure_ascii=False))
            return status
        parse_record(text)  # a malformed record is refused before a window opens
    except MalformedRecord as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    from device.main import run_app

    return run_app(replay_record=text, mock_hardware=args.mock_hardware)


def cmd_doctor(args: argparse.Namespace) -> int:
    from device.doctor import doctor

    return doctor(sys.stdout)


def cmd_install_service(args: argparse.Namespace) -> int:
    from device.service import install

    return install(args, sys.stdout)


def cmd_network_sync(args: argparse.Namespace) -> int:
    from device import netsync

    return netsync.main(args.root, args.request)


def cmd_config(args: argparse.Namespace) -> int:
    from device import schema

    if args.write:
        path = Path(args.write)
        try:
            path.write_text(schema.with_doc_table(path.read_text(encoding="utf-8")),
                            encoding="utf-8")
        except (OSError, ValueError) as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            return 2
        print(f"{path}: config table written")
        return 0
    sys.stdout.write(schema.doc_table())
    return 0


def cmd_selftest(args: argparse.Namespace) -> int:
    from device.selftest import selftest

    return selftest(sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlor", description="Parlor card table: run the app (default), simulate, replay, "
        "check this machine, install the boot service.")
    parser.add_argument("--version", action="version", version=f"parlor {version()}")
    parser.add_argument("--selftest", action="store_true",
                        help="open the window offscreen, render the home screen, exit 0")
    parser.add_argument("--mock-hardware", action="store_true",
                        help="use mock input/outputs (a desktop with [input.gpio] enabled)")
    parser.set_defaults(func=cmd_run)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="run the app (the default)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("simulate", help="bots play; --autosave: the headless autosaving runner")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--deals", type=int, default=None, help="deals to play (default: one match)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default=None,
                   help="bot kind for every seat, or a comma list by seat "
                        "(default: heuristic; random with --autosave)")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause between steps")
    p.add_argument("--actions", action="store_true", help="also print every action")
    p.add_argument("--autosave", action="store_true",
                   help="save after every action in the store and resume from it")
    p.add_argument("--db", default=None, help="SQLite file for --autosave (default: the store)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="show a saved record on the table")
    p.add_argument("record", help="record file (JSON), or - for standard input")
    p.add_argument("--print", action="store_true",
                   help="print the engine's replay JSON instead of opening the window")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("doctor",
                       help="check display, inputs, pin factory, serial, backlight, config, store")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("config", help="the config keys: their table for the docs")
    p.add_argument("--doc", action="store_true", help="print the Markdown table of every key")
    p.add_argument("--write", metavar="FILE", default=None,
                   help="replace the table between the markers in this Markdown page")
    p.set_defaults(func=cmd_config)

    p = sub.add_parser("install-service", help="install the systemd unit and enable it")
    p.add_argument("--dry-run", action="store_true", help="say what would be done, change nothing")
    p.add_argument("--root", default="/", help="install under this directory (tests, images)")
    p.add_argument("--user", default="parlor", help="the unprivileged user the service runs as")
    p.add_argument("--exec", dest="exec_path", default=None,
                   help="the parlor command the unit starts (default: this one)")
    p.add_argument("--no-enable", action="store_true", help="install but do not enable")
    p.set_defaults(func=cmd_install_service)

    p = sub.add_parser("network-sync", help="(root) the service's network rules in step with "
                       "the Phones switch of the app (parlor-network.path runs it)")
    p.add_argument("--root", default="/", help="the system's root (tests, images): under another "
                   "root systemd is neither reloaded nor asked to restart Parlor")
    p.add_argument("--request", default=None, help="the request file (default: "
                   "ROOT/var/lib/parlor/phones-request)")
    p.set_defaults(func=cmd_network_sync)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    args = build_parser().parse_args(argv)
    if args.selftest:
        args.func = cmd_selftest
    if getattr(args, "deals", None) is not None and args.deals < 0:
        print("error: --deals must be at least 0", file=sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `parlor ... | head`: stop quietly, also at interpreter exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
