"""Screen sleep: after idle minutes the screen dims, then goes off; the waking input only wakes.

`Sleeper` keeps the time of the last touch, key or button (every touch down, move and up, every
key and every semantic event count). Once a second (`tick`) it compares the idle time with
`SleepSettings`: past `dim_after_minutes` the backlight dims (`Backlight.dim`), past
`off_after_minutes` it goes off; without a backlight that can be driven, a black `Curtain` over
the whole window does the same (see-through while dimmed, opaque when off). The minutes do not
count while bots are playing a deal the player watches (`busy()`, the table's `bots_playing`):
they count while the table waits for the human.

While the screen is dimmed or off, the first input only wakes it and is consumed: the touch
(its down, every move and its up), the key (its down, its auto-repeats and its up) or the button
(its press, long press, repeats and release) never reaches the screens. Touches and keys are
caught on the Window, bound after the app's own handlers so they run first (Kivy calls the
newest binding first and stops at one returning True); semantic events come through
`consume(event)`, which the app asks at the top of `handle_input`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget

from ui.ports import Backlight, SleepSettings

AWAKE, DIM, OFF = "awake", "dim", "off"
TICK_SECONDS = 1.0  # how often the idle time is looked at
HELD_SECONDS = 10.0  # a waking button's later events are swallowed until its release, or this long


class Curtain(Widget):
    """Black over the whole window (the Window sizes it): the screen's sleep without a backlight.
    Touches never reach it: the sleeper consumes them on the Window first."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            Color(0, 0, 0, 1)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._place, size=self._place)

    def _place(self, *_args: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size


class Sleeper:
    """The idle timer, the screen's sleep state and the consumption of the waking input."""

    def __init__(
        self,
        settings: SleepSettings,
        backlight: Backlight,
        busy: Callable[[], bool] = lambda: False,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.backlight = backlight
        self.busy = busy
        self.now = now
        self.state = AWAKE
        self.last_input = now()
        self.curtain = Curtain()
        self._backlight_changed = False
        self._touches: set[Any] = set()  # uids of touches that woke the screen
        self._keys: set[int] = set()  # keys held since they woke the screen
        self._buttons: dict[str, float] = {}  # button -> when it woke the screen
        self._event: Any = None

    # -- lifetime ----------------------------------------------------------------------------
    def start(self) -> None:
        """Watch the Window's touches and keys (call after the app bound its own handlers)."""
        Window.bind(**self._handlers())
        self._event = Clock.schedule_interval(self.tick, TICK_SECONDS)
        self.last_input = self.now()

    def stop(self) -> None:
        """Stop watching and leave the screen lit (the app is closing)."""
        Window.unbind(**self._handlers())
        if self._event is not None:
            self._event.cancel()
            self._event = None
        self.wake()

    def _handlers(self) -> dict[str, Callable[..., bool]]:
        return {"on_touch_down": self._touch_down, "on_touch_move": self._touch_move,
                "on_touch_up": self._touch_up, "on_key_down": self._key_down,
                "on_key_up": self._key_up}

    # -- the timer ---------------------------------------------------------------------------
    def _after(self, minutes: float) -> float:
        return minutes * 60.0 if minutes > 0 else math.inf

    def tick(self, _dt: float = 0.0) -> None:
        """Dim or turn off once the idle time has passed (bots playing: the clock starts over)."""
        now = self.now()
        if self.busy():
            self.last_input = now
            return
        idle = now - self.last_input
        if idle >= self._after(self.settings.off_after_minutes):
            if self.state != OFF:
                self._sleep(OFF)
        elif idle >= self._after(self.settings.dim_after_minutes) and self.state == AWAKE:
            self._sleep(DIM)

    def _sleep(self, state: str) -> None:
        backlight = self.backlight
        if state == DIM:
            lit = backlight.available and backlight.dim(self.settings.dim_percent)
            curtain = 0.0 if lit else 1.0 - self.settings.dim_percent / 100.0
        else:
            lit = backlight.available and backlight.off()
            curtain = 1.0  # black as well: some panels still glow at brightness 0
        self._backlight_changed = self._backlight_changed or lit
        self.state = state
        self._show_curtain(curtain)

    def _show_curtain(self, opacity: float) -> None:
        curtain = self.curtain
        curtain.opacity = opacity
        if opacity > 0 and curtain.parent is None:
            Window.add_widget(curtain)  # added last: drawn over everything, warning bar included
        elif opacity <= 0 and curtain.parent is not None:
            Window.remove_widget(curtain)

    def wake(self) -> None:
        """Back to full brightness now, and the idle time starts again."""
        self.last_input = self.now()
        if self.state == AWAKE:
            return
        self.state = AWAKE
        if self._backlight_changed:
            self._backlight_changed = False
            self.backlight.restore()
        self._show_curtain(0.0)

    # -- input -------------------------------------------------------------------------------
    def _waking(self) -> bool:
        """An input came: True (consume it) when it wakes the screen, else it just counts."""
        if self.state == AWAKE:
            self.last_input = self.now()
            return False
        self.wake()
        return True

    def consume(self, event: str) -> bool:
        """A semantic event (`OK`, `MENU:long`, `OK:release`): True when it only wakes the screen
        (or follows the button press that did), so the app must not act on it."""
        button, _, kind = event.partition(":")
        woke = self._buttons.get(button)
        if woke is not None:
            if self.now() - woke <= HELD_SECONDS:
                if kind == "release":
                    del self._buttons[button]
                self.wake()
                return True
            del self._buttons[button]  # its release never came: stop swallowing it
        if not self._waking():
            return False
        if kind != "release":
            self._buttons[button] = self.now()
        return True

    def _touch_down(self, _window: Any, touch: Any) -> bool:
        if self._waking():
            self._touches.add(touch.uid)
            return True
        return False

    # A touch or key that began before the screen slept goes on to the widgets (they saw its
    # start) and wakes the screen; `wake` also restarts the idle time when awake.
    def _touch_move(self, _window: Any, touch: Any) -> bool:
        self.wake()
        return touch.uid in self._touches

    def _touch_up(self, _window: Any, touch: Any) -> bool:
        self.wake()
        if touch.uid in self._touches:
            self._touches.discard(touch.uid)
            return True
        return False

    def _key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        if key in self._keys:  # held since it woke the screen: its auto-repeats too
            self.wake()
            return True
        if self._waking():
            self._keys.add(key)
            return True
        return False

    def _key_up(self, _window: Any, key: int, *_args: Any) -> bool:
        self.wake()
        if key in self._keys:
            self._keys.discard(key)
            return True
        return False
