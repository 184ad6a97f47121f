"""engine/measure.py: the figures every bench prints mean what they say (no timing asserted)."""

from __future__ import annotations

import io
import math
import subprocess
import sys

from engine import measure


def test_percentiles_are_nearest_rank():
    values = [float(i) for i in range(100, 0, -1)]  # order does not matter
    assert measure.percentiles(values) == {"p50": 50.0, "p95": 95.0, "p99": 99.0, "max": 100.0}
    assert measure.percentiles(values, ("p50", "max")) == {"p50": 50.0, "max": 100.0}
    assert measure.percentiles([2.0]) == {"p50": 2.0, "p95": 2.0, "p99": 2.0, "max": 2.0}
    assert measure.percentiles([]) == {"p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    assert measure.percentiles([1.23456], ("max",), digits=1) == {"max": 1.2}


def test_mean_ci():
    mean, lo, hi = measure.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert math.isclose(hi - mean, measure.Z95 * math.sqrt((5 / 3) / 4))
    assert math.isclose(mean - lo, hi - mean)
    assert measure.mean_ci([7.0]) == (7.0, 7.0, 7.0)
    assert measure.mean_ci([]) == (0.0, 0.0, 0.0)


def test_format_and_print_figures():
    assert measure.format_percentiles({"p50": 1.0, "p95": 2.5, "max": 3.0}) == \
        "p50 1.00  p95 2.50  max 3.00"
    assert measure.format_percentiles({"max": 3.0}, 1, "ms") == "max 3.0 ms"
    out = io.StringIO()
    measure.print_figures("meri", {"clone_us": 1.25, "deals": 3.0}, out)
    assert out.getvalue() == (
        "meri:\n"
        f"  {'clone_us':22s} {1.25:12.1f}\n"
        f"  {'deals':22s} {3.0:12.1f}\n"
    )


def test_timings_record_every_call_and_pass_results_through():
    timings = measure.Timings()
    assert timings.timed(max, 3, 9) == 9
    assert timings.timed(sum, [1, 2]) == 3
    assert len(timings.cpu_ms) == len(timings.wall_ms) == 2
    assert all(ms >= 0 for ms in timings.cpu_ms + timings.wall_ms)


def test_rate_calls_until_the_time_is_up_on_either_clock():
    calls = []
    for clock in measure.CLOCKS:
        calls.clear()
        per_second = measure.rate(lambda: calls.append(1), 0.01, clock)
        assert calls and per_second > 0
    assert measure.per_call_us(lambda: None, number=10, clock="cpu") >= 0


def test_memory_figures():
    assert measure.peak_rss_mb() > 0
    assert measure.rss_mb() > 0
    assert measure.status_mb("VmHWM") >= measure.rss_mb() * 0.5  # the peak, this process


def test_status_mb_reads_a_process_status_file(tmp_path):
    status = tmp_path / "4242" / "status"
    status.parent.mkdir()
    status.write_text("Name:\tpython\nVmHWM:\t   40960 kB\nVmRSS:\t   20480 kB\n", encoding="ascii")
    assert measure.status_mb("VmHWM", 4242, proc=str(tmp_path)) == 40.0
    assert measure.status_mb("VmRSS", 4242, proc=str(tmp_path)) == 20.0
    assert math.isnan(measure.status_mb("VmSwap", 4242, proc=str(tmp_path)))  # no such line
    assert math.isnan(measure.status_mb("VmHWM", 4243, proc=str(tmp_path)))  # no such process


def test_another_process_figures_read_from_proc():
    """`peak_rss_of` and `cpu_seconds_of` read another process's VmHWM and CPU time: a child
    that spends CPU, then waits (another process, as the search workers are: qemu-user, which
    `make pi-check` runs the tests under, fakes the CPU fields of a process's own /proc stat as
    0); a process that does not exist gives NaN."""
    busy = "import sys, time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
    busy += "print('done', flush=True)\nsys.stdin.read()\n"
    child = subprocess.Popen([sys.executable, "-c", busy], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "done"
        assert measure.cpu_seconds_of(child.pid) >= 0.2
        assert 1.0 < measure.peak_rss_of(child.pid) < 1000.0
    finally:
        child.communicate("")
    assert math.isnan(measure.peak_rss_of(2**22 + 1))
    assert math.isnan(measure.cpu_seconds_of(2**22 + 1))
