"""One background thread whose answers come back on the UI thread, and only while still wanted.

The bot driver and the hint both ask slow questions (a bot's `choose`) that must not freeze the
screen. `Worker.submit(fn, *args, then=callback)` runs `fn` on a single worker thread and calls
`then(future)` on the Kivy thread (through `Clock`), after `delay` seconds counted from the
submission; `invalidate()` (a new deal, an action applied meanwhile) drops every answer still in
flight, so a stale answer never reaches the table. An answer that comes in a frame that has
drawn a card already (`pacing`) waits for the next frame, once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from kivy.clock import Clock


class Worker:
    """A single worker thread with a generation counter; see the module docstring."""

    def __init__(self, name: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._lock = threading.Lock()
        self._generation = 0
        #: The frames' pacing (`ui.table.cardsource.BUDGET`): an answer that comes in a frame
        #: that drew a card is delivered in the next one, once, which is kept for it
        #: (`put_off`). None: never wait.
        self.pacing: Any = None

    def invalidate(self) -> None:
        """Forget every answer in flight."""
        with self._lock:
            self._generation += 1

    def shutdown(self) -> None:
        self.invalidate()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def submit(self, fn: Callable[..., Any], *args: Any, then: Callable[[Future], None],
               delay: Callable[[], float] | None = None) -> None:
        """Run `fn(*args)` off the UI thread; `then(future)` on the UI thread unless invalidated
        meanwhile, no sooner than `delay()` seconds after this call (-1: the next frame)."""
        with self._lock:
            generation = self._generation
        started = time.monotonic()

        def done(future: Future) -> None:  # worker thread: touch nothing but the Clock
            wait = -1.0 if delay is None else max(0.0, delay() - (time.monotonic() - started))
            Clock.schedule_once(lambda _dt: finish(future), wait)

        def finish(future: Future, waited: bool = False) -> None:
            with self._lock:
                if generation != self._generation:
                    return
            if not waited and self.pacing is not None and self.pacing.put_off(
                    lambda: finish(future, True)):
                return
            then(future)

        self._pool.submit(fn, *args).add_done_callback(done)
