"""ui.heap: the C heap's free pages go back to the system (issue 17 part 3), and the app does it
every `TRIM_SECONDS` while it runs."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import time
from typing import Any

import pytest

from tests.ui.uitools import pump
from ui import heap

CHUNK = 16 * 1024  # below malloc's mmap threshold: these come from the heap, not their own mmap
CHUNKS = 2048  # 32 MiB


def resident_kb() -> int:
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(ctypes.util.find_library("c") is None, reason="no C library to trim")
def test_trim_hands_the_heaps_free_pages_back_to_the_system() -> None:
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    if not hasattr(libc, "malloc_trim"):
        pytest.skip("this C library has no malloc_trim")
    chunks = [libc.malloc(CHUNK) for _ in range(CHUNKS)]
    assert all(chunks)
    for chunk in chunks:
        ctypes.memset(chunk, 1, CHUNK)  # made resident
    pin = libc.malloc(64)  # above them: free() alone cannot give the heap's top back
    for chunk in chunks[::2]:  # every other one: free holes between live chunks, as a UI leaves
        libc.free(chunk)
    heap.trim()  # start from a tidy heap: what follows is these holes only
    try:
        for chunk in chunks[1::2]:
            libc.free(chunk)
        before = resident_kb()
        assert heap.trim() is True
        returned = before - resident_kb()
        assert returned >= CHUNK * CHUNKS // 1024 // 2 * 3 // 4, returned  # most of the 16 MiB
    finally:
        libc.free(pin)


def test_settle_collects_and_freezes_what_lives() -> None:
    gc.unfreeze()
    heap.settle()
    try:
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_the_app_trims_every_second_until_it_stops(make_app: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    monkeypatch.setattr(heap, "trim", lambda: calls.append(time.monotonic()) or True)
    monkeypatch.setattr(heap, "TRIM_SECONDS", 0.05)
    app = make_app()
    deadline = time.monotonic() + 5
    while len(calls) < 2 and time.monotonic() < deadline:
        pump(1)
        time.sleep(0.02)
    assert len(calls) >= 2
    app.dispatch("on_stop")
    calls.clear()
    for _ in range(5):
        pump(1)
        time.sleep(0.02)
    assert calls == []
