"""`InputSource`: the device half of the input model; backends subclass it.

A source owns a `KeyTracker` (debounce, long-press, repeat) and, when threaded, one dispatcher
thread that runs the tracker's timers and calls `when_event` — so callbacks come from the
backend's own thread, in order, and a slow callback never stalls the backend's reader. The UI's
`post_input` then hands each name to Kivy's main thread.

Life cycle, like a gpiozero device: construct (keyword-only options) -> `start()` -> events ->
`stop()` (no callbacks after it returns; may `start()` again) -> `close()` (final; idempotent).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable

from .errors import SourceClosed
from .events import EVENTS, InputEvent
from .keys import Emitted, KeyTracker, Timing

log = logging.getLogger(__name__)

Clock = Callable[[], float]
EventCallback = Callable[[InputEvent], None]


class ManualClock:
    """A clock that moves only when told (`advance`): deterministic timing for mocks and tests."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._now += seconds
            return self._now


class InputSource:
    """Base of every input source. Subclasses call `_edge(name, pressed)` from any thread and
    implement `_open()` / `_shut()` (start and stop the backend) and `_release()` (free it)."""

    label = "source"

    def __init__(
        self,
        *,
        timing: Timing,
        names: Iterable[str] = EVENTS,
        clock: Clock = time.monotonic,
        threaded: bool = True,
        when_event: EventCallback | None = None,
    ) -> None:
        self._timing = timing
        self._names = tuple(names)
        self._clock = clock
        self._threaded = threaded
        self.when_event = when_event
        self._cond = threading.Condition()
        self._tracker = KeyTracker(timing, self._names)
        self._outbox: deque[Emitted] = deque()
        self._running = False
        self._closed = False
        self._stopping = threading.Event()  # one per run: an old dispatcher never revives
        self._stopping.set()
        self._dispatcher: threading.Thread | None = None

    # -- public life cycle -------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._running

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def events(self) -> tuple[str, ...]:
        """The semantic events this source can emit."""
        return self._names

    def start(self) -> None:
        """Begin emitting events. Starting a running source does nothing."""
        if self._closed:
            raise SourceClosed(f"{self.label} input source is closed")
        if self._running:
            return
        stopping = threading.Event()
        with self._cond:
            self._tracker = KeyTracker(self._timing, self._names)
            self._outbox.clear()
            self._stopping = stopping
        if self._threaded:
            self._dispatcher = threading.Thread(
                target=self._dispatch_loop,
                args=(stopping,),
                name=f"parlor-hw-{self.label}-events",
                daemon=True,
            )
            self._dispatcher.start()
        self._running = True
        try:
            self._open()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop emitting; held keys are forgotten. No callback runs after this returns."""
        if not self._running:
            return
        self._running = False
        try:
            self._shut()
        finally:
            with self._cond:
                self._stopping.set()
                self._cond.notify_all()
            thread, self._dispatcher = self._dispatcher, None
            if thread is not None and thread is not threading.current_thread():
                thread.join(5)

    def close(self) -> None:
        """Stop and free the backend for good. Safe to call twice."""
        if self._closed:
            return
        try:
            self.stop()
        finally:
            self._closed = True
            self._release()

    def __enter__(self) -> InputSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "running" if self._running else "stopped"
        return f"<{type(self).__name__} {state}>"

    # -- backend hooks -----------------------------------------------------------------------
    def _open(self) -> None:
        """Start the backend (attach callbacks, start reader threads)."""

    def _shut(self) -> None:
        """Stop the backend; called before the dispatcher stops."""

    def _release(self) -> None:
        """Free the backend's resources (pins, ports)."""

    # -- feeding the tracker -----------------------------------------------------------------
    def _edge(self, name: str, pressed: bool) -> None:
        """A raw key edge from the backend (any thread)."""
        with self._cond:
            if not self._running or self._stopping.is_set():
                return
            emitted = self._tracker.edge(name, pressed, self._clock())
            self._post(emitted)

    def _release_keys(self) -> None:
        """Every key up now (device gone): emits their releases, cancels repeats."""
        with self._cond:
            if self._running and not self._stopping.is_set():
                self._post(self._tracker.release_all(self._clock()))

    def _post(self, emitted: list[Emitted]) -> None:
        """Queue events (caller holds the lock); unthreaded sources emit them here."""
        if self._threaded:
            self._outbox.extend(emitted)
            self._cond.notify_all()
        else:
            self._emit(emitted)

    def _poll(self) -> None:
        """Run due timers now (unthreaded sources: called after the clock moved)."""
        with self._cond:
            if self._running and not self._stopping.is_set():
                self._post(self._tracker.poll(self._clock()))

    def _emit(self, emitted: Iterable[Emitted], stopping: threading.Event | None = None) -> None:
        callback = self.when_event
        for name, kind, t in emitted:
            if callback is None or (stopping is not None and stopping.is_set()):
                return
            try:
                callback(InputEvent(name, kind, self.label, t))
            except Exception:
                log.exception("%s input: when_event callback failed", self.label)

    def _dispatch_loop(self, stopping: threading.Event) -> None:
        cond = self._cond
        while True:
            with cond:
                while True:
                    if stopping.is_set():
                        return
                    self._outbox.extend(self._tracker.poll(self._clock()))
                    if self._outbox:
                        batch = list(self._outbox)
                        self._outbox.clear()
                        break
                    deadline = self._tracker.next_deadline()
                    timeout = None if deadline is None else max(0.0, deadline - self._clock())
                    cond.wait(timeout)
            # Outside the lock: a callback may call back into the source (even stop it).
            self._emit(batch, stopping)
