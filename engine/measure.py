"""The one measuring kit of the benches, the arena and the studies: timing figures, memory, print.

Everything that prints a speed or memory figure (`python -m engine bench|arena|study`,
`python -m scripts.bench.ui_bench`) takes it from here, so a p95 or a peak RSS means the same thing
in each report. Figures, never assertions: the machine is shared, and nothing here is compared with
a time limit.

- `percentiles`: nearest-rank p50/p95/p99 and the maximum of a list of durations.
- `mean_ci`: a mean with its normal-approximation 95% confidence interval.
- `per_call_us`, `rate`, `timed`: how long one call takes, how many calls a second, and the
  CPU and wall time of every call of a function.
- `peak_rss_mb` (this process's high-water mark) and `rss_mb` (its resident memory now);
  `status_mb` reads either of another process too (/proc/PID/status: VmHWM, VmRSS), and
  `peak_rss_of` is another process's high-water mark (e.g. a search worker's); `cpu_seconds_of`
  (another process's CPU time so far).
- `print_figures`, `format_percentiles`: the printing of a block of figures.
"""

from __future__ import annotations

import math
import os
import resource
import time
import timeit
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

Z95 = 1.959964

#: The figures `percentiles` gives unless asked for fewer: the keys are p<percent> and max.
RANKS = ("p50", "p95", "p99", "max")

#: The clocks a bench may count with: wall (what a player waits) or this process's CPU time
#: (steadier on a shared machine, where other processes eat wall-clock time).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def percentiles(values: Sequence[float], ranks: Iterable[str] = RANKS,
                digits: int = 3) -> dict[str, float]:
    """Nearest-rank percentiles of `values`, rounded to `digits`: keys `pNN` and `max`
    (all 0.0 for no values)."""
    data = sorted(values)
    out: dict[str, float] = {}
    for key in ranks:
        if not data:
            out[key] = 0.0
        elif key == "max":
            out[key] = round(data[-1], digits)
        else:
            p = int(key[1:]) / 100
            out[key] = round(data[min(len(data) - 1, max(0, math.ceil(p * len(data)) - 1))], digits)
    return out


def format_percentiles(figures: Mapping[str, float], digits: int = 2, unit: str = "") -> str:
    """`p50 1.00  p95 2.00  max 3.00` (in the order of `figures`), then `unit` if given."""
    text = "  ".join(f"{key} {value:.{digits}f}" for key, value in figures.items())
    return f"{text} {unit}" if unit else text


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% confidence interval (lo, hi) of `values`."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def per_call_us(fn: Callable[[], Any], number: int = 20000, clock: str = "wall") -> float:
    """Microseconds per call of `fn`: the best of five runs of `number` calls."""
    runs = timeit.repeat(fn, number=number, repeat=5, timer=CLOCKS[clock])
    return min(runs) / number * 1e6


def rate(fn: Callable[[], Any], seconds: float, clock: str = "wall") -> float:
    """Calls of `fn` per second, called until `seconds` have passed on `clock` (at least once)."""
    now = CLOCKS[clock]
    done, start = 0, now()
    while True:
        fn()
        done += 1
        elapsed = now() - start
        if elapsed >= seconds:
            return done / elapsed if elapsed > 0 else float("inf")


@dataclass
class Timings:
    """CPU and wall-clock milliseconds of every timed call (`timed`), in call order."""

    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)

    def timed(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call `fn(*args)`, record its CPU and wall time, and return its result."""
        cpu, wall = time.process_time(), time.perf_counter()
        result = fn(*args)
        self.wall_ms.append((time.perf_counter() - wall) * 1000.0)
        self.cpu_ms.append((time.process_time() - cpu) * 1000.0)
        return result


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def status_mb(key: str = "VmHWM", pid: int | str = "self", proc: str = "/proc") -> float:
    """A memory line of `proc`/PID/status in MiB: `VmHWM` the peak resident memory (what the
    kernel saw at its highest), `VmRSS` the resident memory now; NaN where there is none (not
    Linux, a process that has ended)."""
    try:
        with open(os.path.join(proc, str(pid), "status"), encoding="ascii") as handle:
            for line in handle:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return float("nan")


def rss_mb() -> float:
    """This process's resident memory now, in MiB (Linux /proc; NaN where there is none)."""
    return status_mb("VmRSS")


def peak_rss_of(pid: int) -> float:
    """Process `pid`'s peak resident memory (VmHWM) in MiB (Linux /proc; NaN where unreadable)."""
    try:
        with open(f"/proc/{int(pid)}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return float("nan")


def cpu_seconds_of(pid: int) -> float:
    """Process `pid`'s CPU time so far (user + system) in seconds (Linux /proc; NaN where
    unreadable)."""
    try:
        with open(f"/proc/{int(pid)}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def print_figures(title: str, figures: Mapping[str, float], out: TextIO, digits: int = 1) -> None:
    """A block of figures: `title:` then one `  name  value` line each (`digits` decimals)."""
    print(f"{title}:", file=out)
    for key, value in figures.items():
        print(f"  {key:22s} {value:12.{digits}f}", file=out)
