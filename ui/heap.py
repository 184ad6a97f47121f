"""The UI process's heap: Python's collector settled at quiet moments, and the C heap's free
pages handed back to the system while the app runs.

Most of what a table makes and drops in C is short-lived: the GL driver's scratch memory (under
Mesa's llvmpipe, LLVM compiling a shader variant the first time a kind of drawing is seen), a
card's read-back pixels, SDL_ttf's text surfaces. glibc's malloc keeps the pages those freed
(it only gives back free memory at the very top of its heap, past 128 KiB), so the resident set
kept the high-water mark of every such burst: measured with `python -m scripts.bench.ui_bench
--memory`, the frames that grew RSS most during a deal grew mostly "malloc free" (4-5 MiB in the
table's first frame, 1-2 MiB in later ones). `trim()` (glibc's `malloc_trim(0)`) returns every free
page of every arena; it costs about 0.6 ms the first time at the home screen (4 MiB returned) and a
few hundredths of a ms once the heap is tidy, so the app calls it every `TRIM_SECONDS`. Pages handed
back are taken again on demand: nothing changes but the resident set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from typing import Any

#: How often the app hands the C heap's free pages back (seconds).
TRIM_SECONDS = 1.0

_LIBC: list[Any] = []  # glibc, once looked up; [None] where there is no malloc_trim


def _malloc_trim() -> Any:
    """glibc's `malloc_trim`, or None (another C library: nothing to trim this way)."""
    if not _LIBC:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            function = libc.malloc_trim
            function.argtypes = [ctypes.c_size_t]
            function.restype = ctypes.c_int
        except (OSError, AttributeError):
            function = None
        _LIBC.append(function)
    return _LIBC[0]


def trim() -> bool:
    """Hand the C heap's free pages back to the system; True if some were (False also where
    the C library has no `malloc_trim`)."""
    function = _malloc_trim()
    return bool(function is not None and function(0))


def settle() -> None:
    """Collect now, then freeze every live object out of the garbage collector's sight, then
    `trim()` what the collection freed.

    A full (generation 2) collection walks every object of the app (Kivy, widgets, engine
    tables): measured up to 124 ms in the middle of a Chắn deal. Done at start-up and when a
    table opens (moments that already redraw the screen), and followed by `gc.freeze()`, later
    collections only walk objects made since. `unfreeze` first, so the cyclic garbage of a
    previous table (frozen last time) is collected instead of kept forever."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    trim()
