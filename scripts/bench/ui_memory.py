"""Where a frame's resident memory went, for `python -m scripts.bench.ui_bench --memory`: the
process's mappings (/proc/self/smaps) summed by kind, glibc's malloc figures and the Python heap,
read every frame and compared with the frame before.

The kinds of mapping (`kind_of`):

- `brk heap`: the main malloc arena (`[heap]`, grown with brk by the UI thread's mallocs);
- `thread arenas`: glibc's per-thread malloc arenas (anonymous, 64 MiB aligned reservations,
  made when threads contend for malloc; see `mallopt`'s M_ARENA_MAX);
- `anon`: other anonymous memory (large mallocs of any thread, Python's object arenas, the GL
  driver's buffers and textures under llvmpipe);
- `shm`: shared memory (X's MIT-SHM images, memfd, shared anonymous pages);
- `file <name>`: a file mapped (libraries by name: code and data pages read in; the big ones
  are the GL driver's, `libgallium`/`swrast_dri`, and LLVM's);
- `stack`: the main thread's stack.

Reading smaps costs a few ms per frame (the UI thread's CPU), so the figures of a `--memory`
run are for reading, not for reporting; `peak_mb`, the kernel's high-water mark, is what the
bench reports.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from typing import Any

ARENA_ALIGN = 64 * 2**20  # glibc's HEAP_MAX_SIZE on 64-bit: a thread arena's heap alignment
SHOWN = 6  # the kinds listed per frame


def kind_of(name: str, start: int, perms: str) -> str:
    """The kind of a mapping (module docstring) from its smaps header's name, start and
    permissions."""
    if name == "[heap]":
        return "brk heap"
    if name == "[stack]":
        return "stack"
    if name.startswith("[") or name == "":
        if name == "" and "w" in perms and start % ARENA_ALIGN == 0:
            return "thread arenas"
        return "anon" if name == "" else name
    if name.startswith(("/dev/shm", "/SYSV", "/memfd:", "memfd:", "/dev/zero")):
        return "shm"
    base = os.path.basename(name.split(" (deleted)")[0])
    return "file " + base.split(".so")[0]


def smaps(text: str) -> dict[str, int]:
    """Resident kB by kind (`kind_of`) of an smaps listing: the anonymous pages of a file
    mapping (copy-on-write data, relocations) count as the file's. A thread arena's heap is
    one 64 MiB aligned mapping; the rest of its reservation is inaccessible (---p)."""
    out: dict[str, int] = {}
    kind = ""
    for line in text.splitlines():
        head = line.split(None, 5)
        if not head:
            continue
        if "-" in head[0] and len(head) >= 5 and ":" not in head[0]:
            start = int(head[0].split("-")[0], 16)
            name = head[5] if len(head) > 5 else ""
            kind = kind_of(name.strip(), start, head[1])
        elif head[0] == "Rss:":
            out[kind] = out.get(kind, 0) + int(head[1])
    return out


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _libc() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):  # not glibc, or a glibc before 2.33
        return None
    return libc


class MemoryProbe:
    """Per frame: resident kB by kind of mapping, and malloc's and Python's figures; `frame()`
    returns what changed since the last call (the kinds that grew or shrank by 64 kB or more)."""

    def __init__(self) -> None:
        self._libc = _libc()
        self._last = self.snapshot()

    def snapshot(self) -> dict[str, int]:
        """Resident kB by kind, plus `malloc in use`, `malloc free` (all arenas, kB),
        `mmapped chunks` (kB), `python blocks` (count) and `threads`."""
        try:
            with open("/proc/self/smaps", encoding="utf-8", errors="replace") as handle:
                out = smaps(handle.read())
        except OSError:
            out = {}
        if self._libc is not None:
            info = self._libc.mallinfo2()
            out["malloc in use"] = info.uordblks // 1024
            out["malloc free"] = info.fordblks // 1024
            out["mmapped chunks"] = info.hblkhd // 1024
        out["python blocks"] = sys.getallocatedblocks()
        out["threads"] = len(os.listdir("/proc/self/task")) if os.path.isdir(
            "/proc/self/task") else 0
        return out

    def frame(self) -> dict[str, int]:
        """What changed since the last frame: kind -> change (kB; blocks and threads as
        counts), largest change first."""
        now = self.snapshot()
        last, self._last = self._last, now
        changed = {key: now.get(key, 0) - last.get(key, 0) for key in now.keys() | last.keys()}
        counted = ("python blocks", "threads")
        return dict(sorted(((k, v) for k, v in changed.items()
                            if abs(v) >= (1 if k in counted else 64)),
                           key=lambda kv: -abs(kv[1]) if kv[0] not in counted else 0))

    def totals(self) -> dict[str, int]:
        """The last snapshot (kB by kind and the counts)."""
        return dict(self._last)


def describe(changed: dict[str, int]) -> str:
    """One line of a frame's memory changes: `brk heap +10.2 MiB, …, threads +1`."""
    parts = []
    for key, value in changed.items():
        if key in ("python blocks", "threads"):
            parts.append(f"{key} {value:+d}")
        elif len(parts) < SHOWN + 2:
            parts.append(f"{key} {value / 1024:+.1f} MiB")
    return ", ".join(parts)
