"""Kiosk exit gesture: hold MENU (or the table's top-left corner) for `exit_hold_seconds`.

Holds come from three places: a keyboard key held down (key down … key up), a touch held in the
top-left corner, and hardware buttons (`MENU:long` after the button's own hold time, then
`MENU:release` when let go; a source that never sends the release still opens the prompt, which
asks for confirmation or the PIN anyway). When the hold lasts long enough `on_complete` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock


class HoldGesture:
    """Runs `on_complete` when a hold started with `press()` lasts `seconds` without `release()`."""

    def __init__(self, seconds: float, on_complete: Callable[[], None]) -> None:
        self.seconds = max(0.0, seconds)
        self.on_complete = on_complete
        self._event: Any = None

    @property
    def active(self) -> bool:
        return self._event is not None

    def press(self, already_held: float = 0.0) -> None:
        if self._event is not None:
            return
        remaining = max(0.0, self.seconds - already_held)
        self._event = Clock.schedule_once(self._fire, remaining)

    def release(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None

    def _fire(self, _dt: float) -> None:
        self._event = None
        self.on_complete()


def pin_matches(entered: str, pin: str) -> bool:
    """The PIN check (an empty configured PIN needs no digits)."""
    return entered == pin
