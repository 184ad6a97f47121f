"""UI figures: start-up time to the home screen, memory next to an empty Kivy app's, and the
frame times while bots play a table.

    python -m scripts.bench.ui_bench                    # start-up, then one deal of every game
    python -m scripts.bench.ui_bench --game tractor --game chan --speed 3 --size 800x480
    python -m scripts.bench.ui_bench --deal-level hard  # the deals with the strongest bots

(`make bench-ui` runs it under xvfb-run.) Each measurement runs `ParlorApp.run()` in a child
process (a whole-app run must have its own process, platform.md), under the current display (use
xvfb-run on a headless machine). A frame run lets bots play every seat of one deal on the game's
table, with the table's own pacing (the bots think in a child process), while a per-frame Clock
callback records two figures per frame:

- the gap: wall-clock time between frames (what a player sees; it includes waiting for the CPU
  on a loaded machine);
- Python time: the UI thread's CPU time (`time.thread_time`) since the last frame, less its CPU
  time inside `Window.on_draw` and `Window.flip` (GL drawing of the canvas and the buffer swap),
  except the Label text that Kivy renders (SDL_ttf) lazily inside on_draw, which is counted in.
  It is everything the app itself does in a frame: Clock callbacks, input, layout, property
  events, canvas instruction building, Label text rendering, and card faces drawn into textures
  (`ui.cards.render`: painting in Python, then an Fbo and a pixel read-back), which count because
  they stall the frame they happen in; their share is printed separately. Thread CPU, not wall
  time, so the figure holds on a machine shared with other work. The budget: p99 at most 5 ms
  and max at most 16 ms during bot turns (a Pi 4 core is about 3 times slower: a 60 fps frame
  there). The percentiles cover the frames up to the deal's last action; the frames after it (the
  last trick on show, the summary opening) are counted apart, their largest printed.

Percentiles (p50/p99/max, the first five frames left out) and memory come from engine/measure.py,
as in every bench.

To find what a slow frame did, each table also prints its `--top N` slowest frames of bot turns
(and the two slowest after the last action) with what ran in them (`FrameProbe`): the card
stages drawn (`ui.cards.render`: paint, finish, a new scratch Fbo) and their CPU, the Label
text, the UI thread's garbage collections (generations, CPU, objects freed), the actions
applied, whether a bot thought in the app's process, and the named sources of the frame's time
(`scripts.bench.frame_probe.Sources`: every Clock callback by name, layout passes and widgets built
by class, Label text, card stages, summary, sound, input, gc; exclusive CPU, the unclaimed rest as
`other`), so a frame that drew no card and applied no action still says what it did; then the
run's largest sources, the table build's RSS and the frames that grew RSS most (resident memory
read every frame; with `--memory`, also what it grew in: `scripts.bench.ui_memory`); with
`--sample`, also the UI thread's innermost project functions, sampled every millisecond (which
disturbs the gaps, so the figures of a sampled run are for reading, not for reporting). And one line
per table of the UI thread's collections over the deal.

The window is made at `--size` (Kivy's `KCFG_GRAPHICS_WIDTH/HEIGHT` in the child's environment,
as `device.kivyenv` sets them for the appliance), never resized after it is made: under llvmpipe
a resize after the first frames (Kivy's default 800x600 window made, then set to 800x480) swaps
the window's buffers (4x multisampled colour and depth, 16 bytes a pixel) and, in a quarter of
the table runs here (7 of 27), Mesa kept the old pair (2 x 7.3 MiB) as well: a frame that grew
RSS by ~28 MiB instead of ~11 and a peak 17 MiB higher, which is not Parlor's cost and not the
appliance's.

Memory is the peak resident set (VmHWM) and is printed next to a baseline: an empty Kivy `App`
(its `build` returns a bare `Widget`) run in a child process of its own, in the same environment
and at the same window size, for as many frames as it takes Parlor to reach its home screen and
then one second more. The difference is what Parlor itself costs (Parlor hands its C heap's free
pages back every second, `ui.heap`; its CPU shows among the sources as `ParlorApp._trim_heap`;
under llvmpipe a table's frame also holds about 6 MiB of malloc'd memory from its drawing until
the buffer swap frees it, the GL driver's, measured at the Chắn table; an empty app's bare frame
holds next to none). The bot process's peak (the
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
from scripts.bench import ROOT
from scripts.bench.frame_probe import FrameProbe, Sources, describe_frame
from scripts.bench.ui_memory import describe as describe_memory

__all__ = ["FrameProbe", "Sources", "describe_frame", "gap_figures", "main", "memory_figures"]

BASELINE_SECONDS = 1.0  # the empty app runs this long after its first frame, then reports


def gap_figures(gaps: list[float], name: str = "gap") -> dict[str, Any]:
    """Frame count and max / p99 / median of the per-frame `gaps` (seconds) in ms, keyed
    `max_<name>_ms` etc. (the first five, start-up frames, left out)."""
    ms = [1000 * gap for gap in gaps[5:]]
    p = percentiles(ms, ("p50", "p99", "max"), digits=1)
    return {"frames": len(ms), f"max_{name}_ms": p["max"], f"p99_{name}_ms": p["p99"],
            f"median_{name}_ms": p["p50"]}


def _child(mode: str, started: float, level: str, speed: float, game: str = "meri",
           size: tuple[int, int] | None = None, top: int = 5,
           sample: bool = False, memory: bool = False) -> dict[str, Any]:
    """Runs inside the child process: the app, then one JSON line of figures on stdout."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services

    if size is not None:
        Window.size = size
    out: dict[str, Any] = {"mode": mode, "game": game}
    sources = None
    if mode == "deal":  # named before the app makes its widgets, so their triggers are seen
        sources = Sources()
        sources.watch_clock(Clock)
        sources.watch_kivy(Window)
        sources.watch_parlor()
    memory_probe = None
    if memory:
        from scripts.bench.ui_memory import MemoryProbe

        memory_probe = MemoryProbe()
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
        gaps: list[float] = []  # wall-clock time between frames
        python: list[float] = []  # UI-thread CPU per frame, less the CPU of drawing and swap
        cards: list[float] = []  # the part of `python` spent drawing card faces (in it)
        # Per frame: was the deal over when the frame's work began? The budget is for the frames
        # of bot turns; the ones after the last action (the last trick shown, the summary
        # opening) are reported on their own.
        after_deal: list[bool] = []
        over = [False]
        last = [time.perf_counter(), time.thread_time()]
        excluded = [0.0]  # UI-thread CPU inside Window.on_draw / Window.flip this frame
        rendering = [0.0]  # UI-thread CPU drawing card faces (ui.cards.render) this frame
        texts = [0.0]  # UI-thread CPU of Label textures filled lazily inside on_draw
        text_total = [0.0]
        drawing = [False]  # inside Window.on_draw now

        def timed(fn: Any, into: list[float], flag: list[bool] | None = None) -> Any:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                begin = time.thread_time()
                if flag is not None:
                    flag[0] = True
                try:
                    return fn(*args, **kwargs)
                finally:
                    if flag is not None:
                        flag[0] = False
                    into[0] += time.thread_time() - begin

            return wrapper

        Window.on_draw = timed(Window.on_draw, excluded, drawing)
        Window.flip = timed(Window.flip, excluded)
        import ui.cards.render as card_render  # a card: Python painting, then GL + read-back

        card_render.paint = timed(card_render.paint, rendering)
        card_render.finish = timed(card_render.finish, rendering)
        # A Label's text is laid out when it changes, but its pixels (SDL_ttf) are rendered
        # when the texture is first drawn, inside on_draw: that part is counted back in.
        from kivy.core.text import LabelBase

        fill = LabelBase._texture_fill

        def counted_fill(label: Any, texture: Any) -> None:
            if not drawing[0]:
                return fill(label, texture)
            begin = time.thread_time()
            try:
                return fill(label, texture)
            finally:
                texts[0] += time.thread_time() - begin

        LabelBase._texture_fill = counted_fill

        probe = FrameProbe(sample, sources, memory_probe, keep=top + 5)  # 5: as `top` skips
        probe.watch_cards(card_render)

        def frame(_dt: float) -> None:
            now, cpu = time.perf_counter(), time.thread_time()
            gaps.append(now - last[0])
            python.append(cpu - last[1] - excluded[0] + texts[0])
            cards.append(rendering[0])
            after_deal.append(over[0])
            session = app.session
            over[0] = session is not None and session.state.is_over
            probe.frame(python[-1], rendering[0], texts[0],
                        len(session.record.actions) if session is not None else 0,
                        after_deal[-1])
            text_total[0] += texts[0]
            excluded[0] = rendering[0] = texts[0] = 0.0
            last[0], last[1] = now, cpu

        app.ai_level = level
        app.animation_speed = speed
        if memory_probe is not None:
            memory_probe.frame()
        before = rss_mb(), status_mb("VmHWM")
        table = app.root.get_screen(game)
        table.autoplay = True
        app.new_game(game)
        out["build_mb"] = [round(v, 1) for v in (*before, rss_mb(), status_mb("VmHWM"))]
        if memory_probe is not None:
            out["build_memory"] = memory_probe.frame()
        # The bench's own callbacks are not a source of the frames they measure.
        every = Clock.schedule_interval if sources is None else sources.unwatched[
            "schedule_interval"]
        every(frame, 0)

        def watch(_dt: float) -> None:
            if table.summary_open:
                playing = [t for t, done in zip(python, after_deal, strict=True) if not done]
                ending = [t for t, done in zip(python, after_deal, strict=True) if done]
                out.update(gap_figures(playing, "python"))
                out.update(end_frames=len(ending),
                           max_end_python_ms=round(1000 * max(ending, default=0.0), 1))
                out.update(gap_figures(cards, "cards"))
                out.update(card_frames=sum(1 for t in cards if t > 0),
                           card_total_ms=round(1000 * sum(cards), 1),
                           text_total_ms=round(1000 * text_total[0], 1))
                out.update(
                    level=level,
                    speed=speed,
                    **gap_figures(gaps),
                    actions=len(app.session.record.actions),
                    rss_deal_mb=round(rss_mb(), 1),
                )
                out.update(memory_figures(table))
                out["top_frames"] = probe.top(top, 5, after_deal)
                out.update(probe.gc_figures(5))
                out["source_totals"] = probe.source_totals(top + 5)
                out["grew"] = probe.grew(top)
                probe.close()
                app.stop()

        every(watch, 0.25)

    def first_frame(*_args: Any) -> None:
        # The first frame drawn (on_flip comes after on_draw) with home shown and the keys bound.
        if app.root is None or app.root.current != "home":
            return
        Window.unbind(on_flip=first_frame)
        out["startup_s"] = round(time.time() - started, 3)
        out["startup_cpu_s"] = round(time.process_time(), 3)  # this process's CPU time so far
        Clock.schedule_once(home_drawn, 0) if sources is None else sources.unwatched[
            "schedule_once"](home_drawn, 0)

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


def child_environment(size: str | None, environ: dict[str, str] | None = None
                      ) -> dict[str, str]:
    """A child's environment: `environ` (default: this process's) with Kivy quiet and without
    arguments and, for a `size` (WIDTHxHEIGHT), the window made at that size, as the appliance
    makes it (module docstring: a window resized after it is made can cost 15 MiB). What the
    caller set explicitly stays."""
    env = dict(os.environ if environ is None else environ)
    env.setdefault("KIVY_NO_ARGS", "1")
    env.setdefault("KIVY_NO_CONSOLELOG", "1")
    env.setdefault("KIVY_NO_FILELOG", "1")
    # Kivy's own log mode sends whatever the child writes on stderr to its (silenced) logger:
    # a child that failed said nothing (exit 1, empty stderr). As the appliance does
    # (device.kivyenv), keep stderr the child's, so a failure's traceback reaches the error.
    env.setdefault("KIVY_LOG_MODE", "PYTHON")
    if size is not None:
        width, height = _size(size) or (0, 0)
        env.setdefault("KCFG_GRAPHICS_WIDTH", str(width))
        env.setdefault("KCFG_GRAPHICS_HEIGHT", str(height))
    return env


def run_child(mode: str, level: str = "normal", speed: float = 1.0, game: str = "meri",
              size: str | None = None, top: int = 5, sample: bool = False,
              memory: bool = False) -> dict[str, Any]:
    """Run one measurement (`baseline`, `startup`, or a `deal` of `game`) in a fresh process;
    its figures."""
    env = child_environment(size)
    started = time.time()
    command = [sys.executable, "-m", "scripts.bench.ui_bench", "--child", mode,
               "--started", repr(started), "--deal-level", level, "--speed", str(speed),
               "--game", game]
    if size is not None:
        command += ["--size", size]
    command += ["--top", str(top)] + (["--sample"] if sample else [])
    command += ["--memory"] if memory else []
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900,
                          cwd=ROOT)
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
    parser = argparse.ArgumentParser(prog="python -m scripts.bench.ui_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", choices=["baseline", "startup", "deal"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--started", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--game", action="append", choices=registry.names(),
                        help="a table to measure (repeat for several; default: every game)")
    parser.add_argument("--deal-level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--speed", type=float, default=1.0, help="animation speed (0.5 .. 3)")
    parser.add_argument("--size", help="window size WIDTHxHEIGHT (default: the app's)")
    parser.add_argument("--top", type=int, default=5,
                        help="print the N slowest frames of each table and what ran in them")
    parser.add_argument("--sample", action="store_true",
                        help="also sample the UI thread's stack every ms (for --top; the gaps "
                             "feel the sampler)")
    parser.add_argument("--memory", action="store_true",
                        help="also say what grew in the frames that grew RSS most (mappings by "
                             "kind, malloc, Python; read every frame, so the times feel it)")
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
                                args.speed, game, size, args.top, args.sample, args.memory)))
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
        deal = run_child("deal", args.deal_level, args.speed, game, args.size, args.top,
                         args.sample, args.memory)
        players = registry.get(game).players
        print(f"{game} deal, {players} bots at level {deal['level']!r}, animation speed "
              f"{deal['speed']}{', ' + args.size if args.size else ''}: {deal['actions']} actions, "
              f"{deal['frames']} frames; frame gap largest {deal['max_gap_ms']:.0f} ms, "
              f"p99 {deal['p99_gap_ms']:.0f} ms, median {deal['median_gap_ms']:.0f} ms; "
              f"RSS at home {deal['rss_home_mb']:.0f} MiB, after the deal "
              f"{deal['rss_deal_mb']:.0f} MiB")
        print(f"  Python per frame during bot turns (UI-thread CPU less Window.on_draw and flip, "
              f"text counted in): p50 {deal['median_python_ms']:.1f} ms, "
              f"p99 {deal['p99_python_ms']:.1f} ms, max {deal['max_python_ms']:.1f} ms; after the "
              f"last action (last trick, summary opening) {deal['end_frames']} frames, max "
              f"{deal['max_end_python_ms']:.1f} ms; of it card-face drawing: "
              f"{deal['card_total_ms']:.0f} ms in all over {deal['card_frames']} frames, "
              f"largest frame {deal['max_cards_ms']:.1f} ms; Label text drawn in on_draw "
              f"{deal['text_total_ms']:.0f} ms in all")
        print(f"  garbage collections in the UI thread (generations 0/1/2, the first 5 frames "
              f"left out): "
              f"{'/'.join(str(n) for n in deal['gc_counts'])}, {deal['gc_total_ms']:.0f} ms in "
              f"all, largest share of a frame {deal['gc_max_ms']:.1f} ms")
        if deal.get("source_totals"):
            print("  named sources over the whole run (UI-thread CPU ms, calls): " + ", ".join(
                f"{name} {ms:.0f} ({calls})" for name, ms, calls in deal["source_totals"]))
        for row in deal["top_frames"]:
            print("    " + describe_frame(row))
        rss, peak, built, built_peak = deal["build_mb"]
        print(f"  memory: building the table (get_screen, new_game) took RSS {rss:.0f} -> "
              f"{built:.0f} MiB, peak {peak:.0f} -> {built_peak:.0f} MiB; the frames that "
              f"grew RSS most:")
        if deal.get("build_memory"):
            print(f"    building: {describe_memory(deal['build_memory'])}")
        for row in deal["grew"]:
            print(f"    {describe_frame(row)}")
            if row.get("memory"):
                print(f"      grew: {describe_memory(row['memory'])}")
        memory.append(f"  {game:8s} Parlor peak {deal['peak_deal_mb']:.0f} MiB "
                      f"(baseline {deal['peak_deal_mb'] - base:+.0f} MiB); bot process peak "
                      f"{deal['bot_peak_mb']:.0f} MiB ({deal['bot_answered']} decisions)")
    print(f"peak RSS after one deal, next to the empty Kivy app's {base:.0f} MiB:")
    print("\n".join(memory))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
