"""Debounce, long-press and auto-repeat: a pure state machine fed with edge timestamps.

gpiozero's MockPin ignores `bounce_time`, and a serial keypad only sends DOWN/UP, so these
semantics live here, in our layer, where tests drive them with explicit times (no threads, no
sleeping). A source feeds raw edges with `edge(name, pressed, t)` and calls `poll(now)` when
`next_deadline()` is reached; both return the `(name, kind, time)` triples to emit, in order.

Debounce (lock-out with settling): the first edge is accepted at once (no added latency); for
`bounce` seconds after an accepted change further edges only update the raw level; when the
lock-out ends, a raw level that differs from the accepted one is accepted then. So chatter gives
exactly one press, and a release inside the lock-out is never lost, only delayed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .events import EVENTS, Kind, check_event
from .settings import InputSettings

Emitted = tuple[str, Kind, float]


@dataclass(frozen=True, slots=True)
class Timing:
    """Per-source timing: debounce, long-press and auto-repeat, all in seconds."""

    bounce: float = 0.0
    hold: float = 0.8  # 0 = no long-press
    repeat_delay: float = 0.5  # 0 = no repeat
    repeat_interval: float = 0.15
    repeat_events: frozenset[str] = frozenset({"LEFT", "RIGHT", "UP", "DOWN"})

    @classmethod
    def from_settings(cls, settings: InputSettings, *, bounce: float = 0.0) -> Timing:
        return cls(
            bounce=bounce,
            hold=settings.hold_seconds,
            repeat_delay=settings.repeat_delay,
            repeat_interval=settings.repeat_interval,
            repeat_events=frozenset(settings.repeat_events),
        )


class _Key:
    """One key's state. `timer` is the next long/repeat time while the key is down."""

    __slots__ = ("name", "repeats", "raw", "down", "lock_until", "timer")

    def __init__(self, name: str, repeats: bool) -> None:
        self.name = name
        self.repeats = repeats
        self.raw = False
        self.down = False
        self.lock_until = float("-inf")
        self.timer: float | None = None

    def deadline(self) -> float | None:
        settle = self.lock_until if self.raw != self.down else None
        timer = self.timer if self.down else None
        if settle is None:
            return timer
        return settle if timer is None else min(settle, timer)


class KeyTracker:
    """The state of every key of one source. Not thread-safe: the caller holds a lock."""

    def __init__(self, timing: Timing, names: Iterable[str] = EVENTS) -> None:
        self.timing = timing
        self._keys = {
            n: _Key(check_event(n), timing.repeat_delay > 0 and n in timing.repeat_events)
            for n in names
        }

    def is_down(self, name: str) -> bool:
        return self._keys[check_event(name)].down

    def edge(self, name: str, pressed: bool, t: float) -> list[Emitted]:
        """A raw edge at time `t` (key `name` now down if `pressed`). Events due up to `t` first."""
        out = self.poll(t)
        key = self._keys[check_event(name)]
        key.raw = pressed
        if t >= key.lock_until and key.raw != key.down:
            out.append(self._accept(key, t))
        return out

    def poll(self, now: float) -> list[Emitted]:
        """Everything due at or before `now` (settled edges, long-presses, repeats), in order."""
        out: list[Emitted] = []
        while True:
            due = [(d, k.name) for k in self._keys.values() if (d := k.deadline()) is not None]
            if not due:
                return out
            when, name = min(due)
            if when > now:
                return out
            key = self._keys[name]
            if key.raw != key.down and key.lock_until == when:
                out.append(self._accept(key, when))
            else:
                out.append(self._fire_timer(key, when, now))

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do, or None if nothing is pending."""
        times = [d for k in self._keys.values() if (d := k.deadline()) is not None]
        return min(times) if times else None

    def release_all(self, t: float) -> list[Emitted]:
        """Force every key up at `t` (device unplugged, source stopped): releases to emit."""
        out: list[Emitted] = []
        for key in self._keys.values():
            key.raw = False
            key.lock_until = float("-inf")
            if key.down:
                out.append(self._accept(key, t))
            key.lock_until = float("-inf")
        return out

    def _accept(self, key: _Key, t: float) -> Emitted:
        timing = self.timing
        key.down = key.raw
        key.lock_until = t + timing.bounce
        if not key.down:
            key.timer = None
            return (key.name, "release", t)
        if key.repeats:
            key.timer = t + timing.repeat_delay
        elif timing.hold > 0:
            key.timer = t + timing.hold
        else:
            key.timer = None
        return (key.name, "press", t)

    def _fire_timer(self, key: _Key, when: float, now: float) -> Emitted:
        if not key.repeats:
            key.timer = None
            return (key.name, "long", when)
        interval = self.timing.repeat_interval
        nxt = when + interval
        # A late poll (busy machine) gives one repeat, not a burst of catch-up repeats.
        key.timer = nxt if nxt > now else now + interval
        return (key.name, "repeat", when)
