"""`python -m scripts.bench.ui_bench`'s figures, without running the app (the whole-app runs are in
test_app_process.py): frame-gap percentiles from engine/measure.py, the window-size argument."""

from __future__ import annotations

import pytest

from scripts.bench import ui_bench as bench


def test_gap_figures_leave_out_the_start_up_frames_and_are_in_ms():
    gaps = [9.0] * 5 + [i / 1000 for i in range(1, 101)]  # five slow start-up frames, then 1..100 ms
    assert bench.gap_figures(gaps) == {"frames": 100, "max_gap_ms": 100.0, "p99_gap_ms": 99.0,
                                       "median_gap_ms": 50.0}
    assert set(bench.gap_figures(gaps, "work")) == {"frames", "max_work_ms", "p99_work_ms",
                                                    "median_work_ms"}


def test_window_size_argument(capsys):
    assert bench._size("800x480") == (800, 480)
    assert bench._size(None) is None
    with pytest.raises(ValueError):
        bench._size("wide")
    assert bench.main(["--size", "wide"]) == 2
    assert capsys.readouterr().err == "error: bad size 'wide' (use WIDTHxHEIGHT)\n"


def test_memory_figures_of_a_table_without_a_bot_process():
    import math
    from types import SimpleNamespace

    from ui.table.botproc import BotProcess

    figures = bench.memory_figures(SimpleNamespace(driver=None))
    assert figures["peak_deal_mb"] > 0 and math.isnan(figures["bot_peak_mb"])
    assert figures["bot_answered"] == 0
    unstarted = SimpleNamespace(driver=SimpleNamespace(process=BotProcess("meri", {})))
    assert math.isnan(bench.memory_figures(unstarted)["bot_peak_mb"])  # no child yet


def test_the_frame_probe_says_what_ran_in_the_slowest_frames():
    """`--top`: per frame, the UI thread's collections, card stages and actions applied, and
    whether a bot thought in the app's process; the slowest frames first, the start-up frames
    left out, the frames after the deal's last action apart."""
    import gc

    import ui.table.driver as driver

    made = driver.local_bot
    probe = bench.FrameProbe()
    try:
        probe.frame(0.050, 0.0, 0.0, 0)  # a start-up frame: left out however slow
        probe.faces.append("paint 40x60")
        gc.collect(1)
        probe.frame(0.009, 0.004, 0.001, 2)
        probe.local_started += 1  # a decision the bot process could not take
        probe.frame(0.002, 0.0, 0.0, 3)
        probe.frame(0.012, 0.0, 0.0, 3)  # after the last action
        rows = probe.top(5, 1, [False, False, False, True])
        figures = probe.gc_figures(1)
    finally:
        probe.close()
    assert driver.local_bot is made and probe._collected not in gc.callbacks
    assert [(r["frame"], r["end"]) for r in rows] == [(1, False), (2, False), (3, True)]
    slow = rows[0]
    assert slow["gc"] == [1] and slow["applied"] == 2 and not slow["local"]
    assert rows[1]["local"] and rows[1]["applied"] == 1
    assert figures["gc_counts"][1] == 1 and figures["gc_max_ms"] == slow["gc_ms"]
    text = bench.describe_frame(slow)
    assert text.startswith("frame 1: 9.0 ms; cards 4.0 ms (paint 40x60); text 1.0 ms; gc ")
    assert "2 action(s) applied" in text
    assert "in the app's process" in bench.describe_frame(rows[1])
    assert "(after the last action)" in bench.describe_frame(rows[2])


def _spin(seconds: float) -> None:
    """Keep the thread busy (CPU, not sleep) for about `seconds` of its CPU time."""
    import time

    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_the_sources_name_a_slow_clock_callback_and_a_layout_pass():
    """`--top` attribution: a frame with no card and no action still says what ran in it. A
    synthetic slow Clock callback appears under its own name, the layout pass it causes under
    the layout's class, the widgets it made under theirs, a collection inside it is `gc`, and
    one unscheduled is not run; closing undoes every patch."""
    import gc

    from kivy.clock import Clock
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    from scripts.bench.frame_probe import Sources

    plain_layout = BoxLayout.do_layout
    BoxLayout().add_widget(Widget())  # the first layout's one-time costs (kv rules, style), run alone
    sources = Sources()
    probe = bench.FrameProbe(sources=sources)
    try:
        sources.watch_clock(Clock)
        sources.watch_kivy(object.__new__(type("FakeWindow", (), {
            "on_draw": lambda self: None, "flip": lambda self: None})))

        class SlowPulse:
            def beat(self, _dt: float) -> None:
                _spin(0.02)  # far above anything else of the tick: listed first
                box = BoxLayout()
                box.add_widget(Widget())
                box.do_layout()
                gc.collect(0)

        pulse = SlowPulse()
        Clock.schedule_once(pulse.beat, 0)
        Clock.tick()
        probe.frame(0.020, 0.0, 0.0, 0)
        Clock.schedule_once(pulse.beat, 0)
        Clock.unschedule(pulse.beat)  # the timed wrapper still answers to its callback
        Clock.tick()
        probe.frame(0.001, 0.0, 0.0, 0)
    finally:
        probe.close()
    assert BoxLayout.do_layout is plain_layout and "schedule_once" not in vars(Clock)
    first, second = probe.records
    shown = {name: (ms, calls) for name, ms, calls in first["sources"]}
    assert shown["clock SlowPulse.beat"][1] == 1  # the slowest source, so among those shown
    names = sources.totals  # every source (the record shows the largest few; widgets other
    # tests left behind may be laid out in the same tick)
    assert "layout BoxLayout" in names and "build BoxLayout" in names and "gc" in names
    assert not any(name.startswith("clock SlowPulse") for name, _ms, _c in second["sources"])
    text = bench.describe_frame(dict(first, frame=7, end=False))
    assert "sources " in text and "clock SlowPulse.beat " in text and ", other " in text
    assert probe.source_totals(3)[0][0] == "clock SlowPulse.beat"


def test_a_clock_callback_of_an_object_gone_is_not_called_and_names_read_well():
    import functools

    from kivy.animation import Animation

    from scripts.bench.frame_probe import Sources, _Callback, callback_name

    sources = Sources()
    try:
        calls = []

        class Owner:
            def step(self, dt: float) -> None:
                calls.append(dt)

        owner = Owner()
        timed = _Callback(sources, owner.step)
        assert timed == owner.step and timed(0.5) is None and calls == [0.5]
        del owner
        assert timed(0.5) is False and calls == [0.5]
        assert callback_name(Animation(x=1, opacity=0)._update) == "Animation (opacity, x)"
        assert callback_name(functools.partial(_spin, 0.0)) == "_spin"
        assert callback_name(lambda _dt: None).endswith("<lambda>")
    finally:
        sources.close()


def test_a_relayed_callback_is_named_with_whose_callback_it_delivers():
    """`Worker.submit` hands a result to the UI thread through local functions: the source
    says whose callback it delivers, not only `<lambda>`."""
    from scripts.bench.frame_probe import callback_name

    class Table:
        def on_move(self, result: object) -> None:
            pass

    def submit(then):
        def finish(result: object) -> None:
            then(result)

        return lambda _dt: finish(None)

    table = Table()
    assert callback_name(submit(table.on_move)).endswith("<lambda> -> Table.on_move")
    seat = 2
    named = callback_name(submit(lambda f: table.on_move((f, seat))))  # as the driver does
    assert named.endswith("<lambda> -> Table.on_move")


def test_a_child_window_is_made_at_the_size_asked_for():
    env = bench.child_environment("800x480", {"PATH": "/bin"})
    assert (env["KCFG_GRAPHICS_WIDTH"], env["KCFG_GRAPHICS_HEIGHT"]) == ("800", "480")
    assert env["KIVY_NO_ARGS"] == "1" and env["PATH"] == "/bin"
    assert "KCFG_GRAPHICS_WIDTH" not in bench.child_environment(None, {})
    mine = bench.child_environment("800x480", {"KCFG_GRAPHICS_WIDTH": "720"})
    assert mine["KCFG_GRAPHICS_WIDTH"] == "720"  # what the caller set stays


def test_the_memory_probe_sorts_mappings_by_kind_and_says_what_grew():
    from scripts.bench import ui_memory as bench_memory

    listing = "\n".join([
        "55d0c0000000-55d0c2000000 rw-p 00000000 00:00 0                          [heap]",
        "Size:              32768 kB", "Rss:                5000 kB",
        "7f0000000000-7f0000400000 rw-p 00000000 00:00 0 ",
        "Rss:                 300 kB",
        "7f0000401000-7f0000500000 rw-p 00000000 00:00 0 ",
        "Rss:                 200 kB",
        "7f1000000000-7f1000100000 r-xp 00000000 08:01 42   /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so",
        "Rss:                 900 kB",
        "7f1000200000-7f1000300000 rw-s 00000000 00:01 7    /SYSV00000000 (deleted)",
        "Rss:                1500 kB",
    ])
    assert bench_memory.smaps(listing) == {"brk heap": 5000, "thread arenas": 300, "anon": 200,
                                           "file swrast_dri": 900, "shm": 1500}
    probe = bench_memory.MemoryProbe()
    assert probe.frame() == {} or set(probe.frame()) <= set(probe.totals())
    import mmap

    fresh = mmap.mmap(-1, 8 * 2**20)  # 8 MiB of new shared anonymous pages, touched: resident
    for offset in range(0, len(fresh), 4096):
        fresh[offset] = 1
    grew = probe.frame()
    fresh.close()
    assert grew["shm"] >= 8 * 1024 - 512
    text = bench_memory.describe(grew)
    assert text.startswith("shm +8.0 MiB"), text


def test_the_probe_keeps_whole_only_the_records_it_can_still_report():
    """With `keep`, a long run's frame records are cut to a few figures once they can no longer
    be among the slowest or most grown frames (a whole record per frame grew the measured app
    by MiB): what `top`, `grew` and `gc_figures` report is the same as with every record whole."""
    import gc
    import random

    import ui.table.driver as driver

    plain_bot = driver.local_bot
    rng = random.Random(5)
    frames = 600
    figures = [(rng.random() / 50, round(rng.random() * 4 - 1, 1)) for _ in range(frames)]
    after = [i >= frames - 30 for i in range(frames)]
    probes = [bench.FrameProbe(), bench.FrameProbe(keep=4 + 5)]
    gc.disable()  # no collection recorded by one probe and not the other
    try:
        for probe in probes:
            rss = [100.0]

            def scripted(rss: list[float] = rss) -> float:
                return rss[0]

            probe._rss = scripted
            for i, (seconds, grow) in enumerate(figures):
                rss[0] += grow
                probe.frame(seconds, 0.0, 0.0, i, end=after[i])
    finally:
        gc.enable()
        for probe in reversed(probes):  # each undoes its patches to what it found: last first
            probe.close()
    whole, kept = probes
    assert driver.local_bot is plain_bot  # a probe left behind wrapped every later table's bots
    assert kept.top(4, 5, after) == whole.top(4, 5, after)
    assert kept.grew(4) == whole.grew(4)
    assert kept.gc_figures(5) == whole.gc_figures(5)
    assert all("sources" in record for record in whole.records)
    assert sum("sources" in record for record in kept.records) <= 8 * 9 + 64 + 1


def test_a_child_that_fails_keeps_its_stderr():
    """Kivy's default log mode sends stderr to its logger, silenced in a child: a failed child
    gave exit 1 and nothing to read. In the child's environment a traceback reaches stderr."""
    import subprocess
    import sys

    failing = "import kivy.logger, sys; raise SystemExit(sys.stderr.write('boom') and 1)"
    proc = subprocess.run([sys.executable, "-c", failing], capture_output=True, text=True,
                          env=bench.child_environment(None), timeout=60)
    assert proc.returncode == 1 and "boom" in proc.stderr
