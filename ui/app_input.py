"""Input routing for the app: which handler an input event reaches, and the kiosk's gestures.

`InputRouter` is owned by `ParlorApp` (`app.input`). It turns the desktop keyboard and touches
into the same semantic events the hardware sends, decides their precedence (a sleeping screen
wakes first, then the exit and power holds, then MENU, then the screen shown), and owns the
kiosk exit (corner/MENU hold, the PIN) and the power button's long press. It talks to the app
through its navigation (`go`, `stop`, `root`) and its `kiosk`, `power_enabled`, `sleeper` and
`input_log`; it never imports a hardware backend.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.logger import Logger
from kivy.metrics import dp

from ui import keys
from ui.kiosk import HoldGesture, pin_matches
from ui.ports import EVENTS

CORNER_DP = 48  # the top-left corner that starts the kiosk exit hold when touched


def event_name(value: str) -> str | None:
    """The validated event name (`OK`, `MENU:long`, `MENU:release`), or None if unknown."""
    base, _, kind = value.partition(":")
    if base in EVENTS and kind in ("", "long", "release", "repeat"):
        return base if kind == "repeat" else value
    return None



class InputApp(Protocol):
    """What the router needs of the app (`ui.app.ParlorApp`)."""

    services: Any  # `ui.ports.Services`
    kiosk: bool
    power_enabled: bool
    sleeper: Any  # `ui.sleep.Sleeper`, once the window is built
    input_log: list[str]
    root: Any  # the screen manager

    def go(self, name: str) -> None: ...
    def stop(self, *largs: Any) -> None: ...


class InputRouter:
    """Keys, touches and semantic events to the app's screens; the exit and power gestures."""

    def __init__(self, app: InputApp) -> None:
        self.app = app
        services = app.services
        self.keys_down: set[int] = set()
        self.exit_gesture = HoldGesture(services.kiosk.exit_hold_seconds, self.request_exit)
        self.power_gesture = HoldGesture(services.power.hold_seconds, self.request_power)

    # -- the window --------------------------------------------------------------------------
    def _handlers(self) -> dict[str, Any]:
        return {
            "on_key_down": self.on_key_down,
            "on_key_up": self.on_key_up,
            "on_request_close": self.on_request_close,
            "on_touch_down": self.on_touch_down,
            "on_touch_up": self.on_touch_up,
        }

    def bind_window(self) -> None:
        """Listen to the window's keys, touches and close requests."""
        Window.bind(**self._handlers())

    def unbind_window(self) -> None:
        """Stop listening to the window (tests build several apps in one process)."""
        Window.unbind(**self._handlers())

    def on_request_close(self, *_args: Any, **_kwargs: Any) -> bool:
        """Alt+F4 / window close: refused in kiosk mode (True keeps the window open)."""
        return self.app.kiosk

    # -- semantic events ---------------------------------------------------------------------
    def post_input(self, name: str) -> None:
        """Feed one semantic event from any thread; it is handled on Kivy's main thread."""
        Clock.schedule_once(lambda _dt: self.handle_input(name), -1)

    def handle_input(self, name: str) -> bool:
        """Handle one event on the main thread; unknown names are logged and ignored."""
        app = self.app
        event = event_name(name)
        if event is None:
            Logger.warning(f"Parlor: ignored unknown input event {name!r}")
            return False
        if app.sleeper is not None and app.sleeper.consume(event):
            return True  # it only woke the screen
        app.input_log = ([event] + list(app.input_log))[:12]
        if event == "MENU:long":
            if app.kiosk:
                self.exit_gesture.press(already_held=0.0)
            return True
        if event == "MENU:release":
            self.exit_gesture.release()
            return True
        if self.power_button(event):
            return True
        if event.endswith((":long", ":release")):
            return False
        if app.root is None:
            return False
        screen = app.root.current_screen
        if event == "MENU" and getattr(screen, "name", "") not in ("controls", "exit", "power"):
            app.go("home")
            return True
        return bool(screen.handle_input(event))

    # -- keys and touches --------------------------------------------------------------------
    def on_key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        event = keys.event_for_key(key)
        repeat = key in self.keys_down
        self.keys_down.add(key)
        if event is None:
            digit = keys.digit_for_key(key)
            if digit is not None and self.app.services.keyboard and not repeat:
                return self.type_digit(digit)
            return key in keys.SWALLOW
        if not self.app.services.keyboard:
            return True  # keyboard switched off in the config: swallowed (Esc never quits), unused
        if event == "MENU" and self.app.kiosk and not repeat:
            self.exit_gesture.press()
        if not repeat or event in keys.REPEATING:
            self.handle_input(event)
        return True

    def type_digit(self, digit: str) -> bool:
        """A digit key goes to the screen if it takes digits (`type_digit`: the exit PIN)."""
        root = self.app.root
        screen = root.current_screen if root is not None else None
        type_digit = getattr(screen, "type_digit", None)
        return bool(type_digit is not None and type_digit(digit))

    def on_key_up(self, _window: Any, key: int, *_args: Any) -> bool:
        self.keys_down.discard(key)
        if keys.event_for_key(key) == "MENU":
            self.exit_gesture.release()
        return False

    def on_touch_down(self, _window: Any, touch: Any) -> bool:
        self.corner_touch(touch, True)
        return False  # the touch still goes to the widgets

    def on_touch_up(self, _window: Any, touch: Any) -> bool:
        self.corner_touch(touch, False)
        return False

    def corner_touch(self, touch: Any, down: bool) -> None:
        """The screen's top-left corner held down starts the kiosk exit hold."""
        if not self.app.kiosk:
            return
        if down and touch.x <= dp(CORNER_DP) and touch.y >= Window.height - dp(CORNER_DP):
            self.exit_gesture.press()
        elif not down:
            self.exit_gesture.release()

    # -- the kiosk's exit --------------------------------------------------------------------
    def request_exit(self) -> None:
        """The exit gesture completed: show the exit prompt (PIN pad if a PIN is configured)."""
        self.app.go("exit")

    def pin_ok(self, entered: str) -> bool:
        """`entered` is the kiosk PIN (outside kiosk mode, or without a PIN, none is asked)."""
        return pin_matches(entered, self.app.services.kiosk.exit_pin if self.app.kiosk else "")

    def try_exit(self, entered: str) -> bool:
        """Leave the app if `entered` matches the kiosk PIN; False (and stay) otherwise."""
        if self.pin_ok(entered):
            self.app.stop()
            return True
        return False

    # -- power off ---------------------------------------------------------------------------
    def power_button(self, event: str) -> bool:
        """The `[power] button`'s long press, held `hold_seconds` more, opens the Power off
        prompt (which asks: never a power-off blind); letting go earlier cancels it."""
        button = self.app.services.power.button
        if not (self.app.power_enabled and button):
            return False
        if event == button + ":long":
            self.power_gesture.press()
            return True
        if event == button + ":release":
            self.power_gesture.release()
            return True
        return False

    def request_power(self) -> None:
        """Show the Power off prompt (only when `[power] enabled`)."""
        if self.app.power_enabled:
            self.app.go("power")

    def power_off_now(self) -> str:
        """Ask the composition root to power off (`Services.power_off`, once): "" once asked
        for (the service is then stopped), else the one-line reason."""
        Logger.info("Parlor: powering off")
        try:
            problem = str(self.app.services.power_off() or "")
        except Exception as exc:  # whatever goes wrong is said on screen, the app keeps going
            problem = str(exc) or type(exc).__name__
        if problem:
            Logger.warning(f"Parlor: power off refused: {problem}")
        return problem
