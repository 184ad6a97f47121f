"""The mock backend: a real input source driven by test verbs instead of hardware.

Like gpiozero's MockPin (`drive_low()`), it goes through the same tracker as the real backends, so
long-press and repeat behave exactly as configured. By default it runs on a `ManualClock` and
emits synchronously in the caller's thread: `hold("LEFT", 1.0)` advances virtual time, so UI tests
get the long-press/repeat events at once, deterministically, without sleeping.
"""

from __future__ import annotations

from .errors import SourceStopped
from .events import EVENTS, check_event
from .keys import Timing
from .settings import InputSettings
from .source import Clock, EventCallback, InputSource, ManualClock


class MockSource(InputSource):
    """Input source for tests and the desktop: `press`, `release`, `tap`, `hold`, `advance`."""

    label = "mock"

    def __init__(
        self,
        settings: InputSettings | None = None,
        *,
        clock: Clock | None = None,
        when_event: EventCallback | None = None,
    ) -> None:
        self.clock = clock if clock is not None else ManualClock()
        super().__init__(
            timing=Timing.from_settings(settings or InputSettings()),
            names=EVENTS,
            clock=self.clock,
            threaded=False,
            when_event=when_event,
        )

    def _check(self, name: str) -> str:
        check_event(name)
        if not self.running:
            raise SourceStopped("mock input source is not started (call start())")
        return name

    def press(self, name: str) -> None:
        """Key `name` goes down now."""
        self._edge(self._check(name), True)

    def release(self, name: str) -> None:
        """Key `name` goes up now."""
        self._edge(self._check(name), False)

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass (ManualClock only), firing the long-presses and repeats due."""
        self._check(EVENTS[0])
        if not isinstance(self.clock, ManualClock):
            raise TypeError("advance() needs the mock's ManualClock")
        target = self.clock() + seconds
        # Step through each deadline so every event carries the time it was due.
        while (due := self._tracker.next_deadline()) is not None and due <= target:
            self.clock.advance(max(0.0, due - self.clock()))
            self._poll()
        self.clock.advance(max(0.0, target - self.clock()))
        self._poll()

    def tap(self, name: str) -> None:
        """Press and release at once: one `press` event."""
        self.press(name)
        self.release(name)

    def hold(self, name: str, seconds: float) -> None:
        """Press, keep down for `seconds` (long-press/repeats fire), release."""
        self.press(name)
        self.advance(seconds)
        self.release(name)
