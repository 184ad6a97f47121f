"""Figures of the Tractor and Chắn tables in the running app: RSS with the table open, and the
gaps between frames while AI seats think and play a whole deal (every seat a bot).

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/table_bench.py \
        [--game tractor --game chan] [--level normal] [--speed 3] [--size 800x480]

Each game runs `ParlorApp.run()` in its own child process (a whole-app run needs its own process,
platform.md), like `ui.bench` does for Meri. A per-frame Clock callback records the time between
frames; the UI thread only applies actions and animates (the bots think on a worker thread).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def child(game: str, level: str, speed: float, size: tuple[int, int]) -> dict[str, Any]:
    """Inside the child process: run the app, autoplay one deal of `game`, report figures."""
    sys.path.insert(0, str(ROOT))
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.app import ParlorApp
    from ui.bench import gap_figures, rss_mb
    from ui.ports import MemoryStore, NullOutputs, Services

    Window.size = size
    app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs()), seed=11)
    out: dict[str, Any] = {"game": game, "level": level, "speed": speed, "size": list(size)}
    gaps: list[float] = []
    last = [time.perf_counter()]

    def frame(_dt: float) -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    def begin(_dt: float) -> None:
        out["rss_home_mb"] = round(rss_mb(), 1)
        app.ai_level = level
        app.animation_speed = speed
        table = app.root.get_screen(game)
        table.autoplay = True
        app.new_game(game)
        Clock.schedule_interval(frame, 0)

        def watch(_dt: float) -> None:
            if not table.summary_open:
                return
            out.update(
                **gap_figures(gaps),
                actions=len(app.session.record.actions),
                rss_table_mb=round(rss_mb(), 1),
            )
            app.stop()

        Clock.schedule_interval(watch, 0.25)

    app.bind(on_start=lambda *_a: Clock.schedule_once(begin, 0.5))
    app.run()
    return out


def run(game: str, level: str, speed: float, size: str) -> dict[str, Any]:
    env = dict(os.environ)
    for key, value in (("KIVY_NO_ARGS", "1"), ("KIVY_NO_CONSOLELOG", "1"),
                       ("KIVY_NO_FILELOG", "1"), ("KIVY_USE_DEFAULTCONFIG", "1")):
        env.setdefault(key, value)
    proc = subprocess.run(
        [sys.executable, __file__, "--child", game, "--level", level, "--speed", str(speed),
         "--size", size],
        capture_output=True, text=True, env=env, timeout=900,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"table_bench: the {game} run failed ({proc.returncode}): "
                         f"{proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=["tractor", "chan", "meri"])
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--speed", type=float, default=3.0, help="animation speed (0.5 .. 3)")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.split("x"))
    except ValueError:
        print(f"table_bench: bad size {args.size!r} (use WIDTHxHEIGHT)", file=sys.stderr)
        return 2
    if args.child:
        print(json.dumps(child(args.child, args.level, args.speed, (w, h))))
        return 0
    for game in args.game or ["tractor", "chan"]:
        f = run(game, args.level, args.speed, args.size)
        print(f"{game}: one deal, 4 bots at level {f['level']!r}, speed {f['speed']}, {args.size}: "
              f"{f['actions']} actions, {f['frames']} frames; frame gap largest "
              f"{f['max_gap_ms']:.0f} ms, p99 {f['p99_gap_ms']:.0f} ms, median "
              f"{f['median_gap_ms']:.0f} ms; RSS at home {f['rss_home_mb']:.0f} MiB, with the "
              f"table open after the deal {f['rss_table_mb']:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
