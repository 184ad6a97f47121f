"""UI figures: start-up time to the home screen, memory next to an empty Kivy app's, and the
frame gaps while bots play a table.

    python -m ui.bench                          # start-up, then one deal of every game
    python -m ui.bench --game tractor --game chan --speed 3 --size 800x480
    python -m ui.bench --deal-level hard        # the frame-gap deals with the strongest bots

(`make bench-ui` runs it under xvfb-run.) Each measurement runs `ParlorApp.run()` in a child
process (a whole-app run must have its own process, platform.md), under the current display (use
xvfb-run on a headless machine). A frame-gap run lets bots play every seat of one deal on the
game's table, with the table's own pacing (the bots think in a child process), while a per-frame
Clock callback records the time between frames and the part of it not spent in GL work (drawing,
buffer swap, card faces). Percentiles and memory come from engine/measure.py, as in every bench.

Memory is the peak resident set (VmHWM) and is printed next to a baseline: an empty Kivy `App`
(its `build` returns a bare `Widget`) run in a child process of its own, in the same environment
and at the same window size, for as many frames as it takes Parlor to reach its home screen and
then one second more. The difference is what Parlor itself costs. The bot process's peak (the
child that thinks for the bots, `ui.table.botproc`) is read from its /proc status just before the
table ends it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from engine import registry
from engine.measure import percentiles, rss_mb, status_mb

BASELINE_SECONDS = 1.0  # the empty app runs this long after its first frame, then reports


def gap_figures(gaps: list[float], name: str = "gap") -> dict[str, Any]:
    """Frame count and max / p99 / median of the per-frame `gaps` (seconds) in ms, keyed
    `max_<name>_ms` etc. (the first five, start-up frames, left out)."""
    ms = [1000 * gap for gap in gaps[5:]]
    p = percentiles(ms, ("p50", "p99", "max"), digits=1)
    return {"frames": len(ms), f"max_{name}_ms": p["max"], f"p99_{name}_ms": p["p99"],
            f"median_{name}_ms": p["p50"]}


def _child(mode: str, started: float, level: str, speed: float, game: str = "meri",
           size: tuple[int, int] | None = None) -> dict[str, Any]:
    """Runs inside the child process: the app, then one JSON line of figures on stdout."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services

    if size is not None:
        Window.size = size
    out: dict[str, Any] = {"mode": mode, "game": game}
    app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs()), seed=11)

    def home_drawn(_dt: float) -> None:
        out["rss_home_mb"] = round(rss_mb(), 1)
        out["peak_home_mb"] = round(status_mb("VmHWM"), 1)
        if mode == "startup":
            smoke()
        else:
            deal()

    def smoke() -> None:
        # Esc must never quit, and events from other threads must arrive.
        out["esc_consumed"] = bool(Window.dispatch("on_key_down", 27, 0, None, []))
        import threading

        threading.Thread(target=app.post_input, args=("RIGHT",)).start()

        def check(_dt: float) -> None:
            out["still_running"] = app.root is not None and app.root.current == "home"
            out["input_log"] = list(app.input_log)
            app.stop()

        Clock.schedule_once(check, 0.5)

    def deal() -> None:
        gaps: list[float] = []
        work: list[float] = []  # per frame: the gap minus GL drawing and buffer swap
        last = [time.perf_counter()]
        drawing = [0.0]
        original_draw, original_flip = Window.on_draw, Window.flip

        def timed(fn: Any) -> Any:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                begin = time.perf_counter()
                try:
                    return fn(*args, **kwargs)
                finally:
                    drawing[0] += time.perf_counter() - begin

            return wrapper

        Window.on_draw = timed(original_draw)
        Window.flip = timed(original_flip)
        import ui.cards.render as card_render  # card faces are drawn by GL (a short-lived Fbo each)

        card_render.render = timed(card_render.render)

        def frame(_dt: float) -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            work.append(now - last[0] - drawing[0])
            drawing[0] = 0.0
            last[0] = now

        app.ai_level = level
        app.animation_speed = speed
        table = app.root.get_screen(game)
        table.autoplay = True
        app.new_game(game)
        Clock.schedule_interval(frame, 0)

        def watch(_dt: float) -> None:
            if table.summary_open:
                out.update(gap_figures(work, "work"))
                out.update(
                    level=level,
                    speed=speed,
                    **gap_figures(gaps),
                    actions=len(app.session.record.actions),
                    rss_deal_mb=round(rss_mb(), 1),
                )
                out.update(memory_figures(table))
                app.stop()

        Clock.schedule_interval(watch, 0.25)

    def first_frame(*_args: Any) -> None:
        # The first frame drawn (on_flip comes after on_draw) with home shown and the keys bound.
        if app.root is None or app.root.current != "home":
            return
        Window.unbind(on_flip=first_frame)
        out["startup_s"] = round(time.time() - started, 3)
        out["startup_cpu_s"] = round(time.process_time(), 3)  # this process's CPU time so far
        Clock.schedule_once(home_drawn, 0)

    app.bind(on_start=lambda *_a: Window.bind(on_flip=first_frame))
    app.run()
    return out


def memory_figures(table: Any) -> dict[str, Any]:
    """Peak RSS (MiB) of this process and of the table's bot process (NaN: none ran)."""
    driver = getattr(table, "driver", None)
    process = getattr(driver, "process", None)
    bot = process.peak_rss_mb() if process is not None else float("nan")
    return {"peak_deal_mb": round(status_mb("VmHWM"), 1),
            "bot_peak_mb": round(bot, 1), "bot_answered": getattr(process, "answered", 0)}


def _baseline_child(started: float, size: tuple[int, int] | None = None) -> dict[str, Any]:
    """Runs inside the child process: an empty Kivy App (its root a bare Widget), then one JSON
    line with its start-up time and peak RSS on stdout."""
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.widget import Widget

    if size is not None:
        Window.size = size
    out: dict[str, Any] = {"mode": "baseline"}

    class EmptyApp(App):
        def build(self) -> Widget:
            return Widget()

    app = EmptyApp()

    def report(_dt: float) -> None:
        out["rss_mb"] = round(rss_mb(), 1)
        out["peak_mb"] = round(status_mb("VmHWM"), 1)
        app.stop()

    def first_frame(*_args: Any) -> None:
        Window.unbind(on_flip=first_frame)
        out["startup_s"] = round(time.time() - started, 3)
        out["startup_cpu_s"] = round(time.process_time(), 3)
        out["peak_first_frame_mb"] = round(status_mb("VmHWM"), 1)
        Clock.schedule_once(report, BASELINE_SECONDS)

    app.bind(on_start=lambda *_a: Window.bind(on_flip=first_frame))
    app.run()
    return out


def run_child(mode: str, level: str = "normal", speed: float = 1.0, game: str = "meri",
              size: str | None = None) -> dict[str, Any]:
    """Run one measurement (`baseline`, `startup`, or a `deal` of `game`) in a fresh process;
    its figures."""
    env = dict(os.environ)
    env.setdefault("KIVY_NO_ARGS", "1")
    env.setdefault("KIVY_NO_CONSOLELOG", "1")
    env.setdefault("KIVY_NO_FILELOG", "1")
    started = time.time()
    command = [sys.executable, "-m", "ui.bench", "--child", mode, "--started", repr(started),
               "--deal-level", level, "--speed", str(speed), "--game", game]
    if size is not None:
        command += ["--size", size]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"child {mode} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(lines[-1])


def _size(text: str | None) -> tuple[int, int] | None:
    """`WIDTHxHEIGHT` as a pair; `ValueError` if it is not one."""
    if text is None:
        return None
    width, height = (int(v) for v in text.lower().split("x"))
    return width, height


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", choices=["baseline", "startup", "deal"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--started", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--game", action="append", choices=registry.names(),
                        help="a table to measure (repeat for several; default: every game)")
    parser.add_argument("--deal-level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--speed", type=float, default=1.0, help="animation speed (0.5 .. 3)")
    parser.add_argument("--size", help="window size WIDTHxHEIGHT (default: the app's)")
    args = parser.parse_args(argv)
    try:
        size = _size(args.size)
    except ValueError:
        print(f"error: bad size {args.size!r} (use WIDTHxHEIGHT)", file=sys.stderr)
        return 2
    if args.child == "baseline":
        print(json.dumps(_baseline_child(args.started or time.time(), size)))
        return 0
    if args.child:
        game = args.game[0] if args.game else "meri"
        print(json.dumps(_child(args.child, args.started or time.time(), args.deal_level,
                                args.speed, game, size)))
        return 0
    baseline = run_child("baseline", size=args.size)
    base = baseline["peak_mb"]
    print(f"baseline, an empty Kivy app: first frame {baseline['startup_s']:.2f} s "
          f"({baseline['startup_cpu_s']:.2f} s CPU), peak RSS {base:.0f} MiB")
    startup = run_child("startup", size=args.size)
    print(f"start-up to the home screen: {startup['startup_s']:.2f} s "
          f"({startup['startup_cpu_s']:.2f} s CPU; process start to the first frame drawn with "
          f"home shown and input bound), "
          f"RSS {startup['rss_home_mb']:.0f} MiB, peak {startup['peak_home_mb']:.0f} MiB "
          f"(baseline {startup['peak_home_mb'] - base:+.0f} MiB)")
    memory: list[str] = []
    for game in args.game or registry.names():
        deal = run_child("deal", args.deal_level, args.speed, game, args.size)
        players = registry.get(game).players
        print(f"{game} deal, {players} bots at level {deal['level']!r}, animation speed "
              f"{deal['speed']}{', ' + args.size if args.size else ''}: {deal['actions']} actions, "
              f"{deal['frames']} frames; frame gap largest {deal['max_gap_ms']:.0f} ms, "
              f"p99 {deal['p99_gap_ms']:.0f} ms, median {deal['median_gap_ms']:.0f} ms; "
              f"RSS at home {deal['rss_home_mb']:.0f} MiB, after the deal "
              f"{deal['rss_deal_mb']:.0f} MiB")
        print(f"  UI-thread time per frame without GL work (screen, swap, card drawing): "
              f"largest {deal['max_work_ms']:.0f} ms, p99 {deal['p99_work_ms']:.0f} ms")
        memory.append(f"  {game:8s} Parlor peak {deal['peak_deal_mb']:.0f} MiB "
                      f"(baseline {deal['peak_deal_mb'] - base:+.0f} MiB); bot process peak "
                      f"{deal['bot_peak_mb']:.0f} MiB ({deal['bot_answered']} decisions)")
    print(f"peak RSS after one deal, next to the empty Kivy app's {base:.0f} MiB:")
    print("\n".join(memory))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
