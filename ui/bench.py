"""UI figures: start-up time to the home screen, RSS, and the largest frame gap during AI turns.

    python -m ui.bench                     # all figures (each run in its own process)
    python -m ui.bench --deal-level hard   # the frame-gap deal with the strongest bots

Each measurement runs `ParlorApp.run()` in a child process (a whole-app run must have its own
process, platform.md), under the current display (use xvfb-run on a headless machine).
The frame-gap run lets bots play every seat of a Meri deal on the table, with the table's own
pacing, while a per-frame Clock callback records the time between frames.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any


def rss_mb() -> float:
    """Resident set size of this process in MiB (Linux /proc)."""
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def gap_figures(gaps: list[float]) -> dict[str, Any]:
    """Frame count and max / p99 / median gap in ms of the frame gaps (the first five, start-up
    frames, left out)."""
    ordered = sorted(gaps[5:])
    return {
        "frames": len(ordered),
        "max_gap_ms": round(1000 * ordered[-1], 1),
        "p99_gap_ms": round(1000 * ordered[int(len(ordered) * 0.99)], 1),
        "median_gap_ms": round(1000 * ordered[len(ordered) // 2], 1),
    }


def _child(mode: str, started: float, level: str, speed: float) -> dict[str, Any]:
    """Runs inside the child process: the app, then one JSON line of figures on stdout."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services

    out: dict[str, Any] = {"mode": mode}
    app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs()), seed=11)

    def home_drawn(_dt: float) -> None:
        out["startup_s"] = round(time.time() - started, 3)
        out["rss_home_mb"] = round(rss_mb(), 1)
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
        table = app.root.get_screen("meri")
        table.autoplay = True
        app.new_game("meri")
        Clock.schedule_interval(frame, 0)

        def watch(_dt: float) -> None:
            if table.summary_open:
                busy = sorted(work[5:])
                out.update(
                    max_work_ms=round(1000 * busy[-1], 1),
                    p99_work_ms=round(1000 * busy[int(len(busy) * 0.99)], 1),
                    level=level,
                    speed=speed,
                    **gap_figures(gaps),
                    actions=len(app.session.record.actions),
                    rss_deal_mb=round(rss_mb(), 1),
                )
                app.stop()

        Clock.schedule_interval(watch, 0.25)

    app.bind(on_start=lambda *_a: Clock.schedule_once(home_drawn, 0))
    app.run()
    return out


def run_child(mode: str, level: str = "normal", speed: float = 1.0) -> dict[str, Any]:
    """Run one measurement in a fresh process and return its figures."""
    env = dict(os.environ)
    env.setdefault("KIVY_NO_ARGS", "1")
    env.setdefault("KIVY_NO_CONSOLELOG", "1")
    env.setdefault("KIVY_NO_FILELOG", "1")
    started = time.time()
    proc = subprocess.run(
        [sys.executable, "-m", "ui.bench", "--child", mode, "--started", repr(started),
         "--deal-level", level, "--speed", str(speed)],
        capture_output=True, text=True, env=env, timeout=600,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"child {mode} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", choices=["startup", "deal"], help=argparse.SUPPRESS)
    parser.add_argument("--started", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--deal-level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--speed", type=float, default=1.0, help="animation speed (0.5 .. 3)")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.started or time.time(), args.deal_level,
                                args.speed)))
        return 0
    startup = run_child("startup")
    print(f"start-up to the home screen: {startup['startup_s']:.2f} s "
          f"(process start to first frame of home), RSS {startup['rss_home_mb']:.0f} MiB")
    deal = run_child("deal", args.deal_level, args.speed)
    print(f"Meri deal, 8 bots at level {deal['level']!r}, animation speed {deal['speed']}: "
          f"{deal['frames']} frames, largest frame gap {deal['max_gap_ms']:.0f} ms, "
          f"p99 {deal['p99_gap_ms']:.0f} ms, median {deal['median_gap_ms']:.0f} ms; "
          f"RSS {deal['rss_deal_mb']:.0f} MiB")
    print(f"  UI-thread time per frame without GL work (screen, swap, card drawing): largest {deal['max_work_ms']:.0f} ms, "
          f"p99 {deal['p99_work_ms']:.0f} ms (bots think in a child process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
