"""`python -m ui.bench`'s figures, without running the app (the whole-app runs are in
test_app_process.py): frame-gap percentiles from engine/measure.py, the window-size argument."""

from __future__ import annotations

import pytest

from ui import bench


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
