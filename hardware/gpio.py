"""The GPIO backend: one gpiozero `Button` per configured event, through gpiozero's pin factories.

The pin factory is chosen by config (`[input.gpio] pin_factory`) or by gpiozero's own environment
variable `GPIOZERO_PIN_FACTORY`, only when a GPIO source or output is built — never by probing at
import. `lgpio` on a Pi, `mock` in tests and on a desktop. Debounce and long-press come from our
`KeyTracker` (gpiozero's bounce/hold are not used: MockPin ignores bounce_time, and one layer for
every backend keeps the semantics identical and testable).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from .errors import BackendError
from .keys import Timing
from .settings import GpioSettings, InputSettings
from .source import Clock, EventCallback, InputSource

log = logging.getLogger(__name__)


def make_pin_factory(name: str) -> Any | None:
    """The gpiozero pin factory called `name`, or None for gpiozero's default (which honours
    `GPIOZERO_PIN_FACTORY`). An installed `Device.pin_factory` of that kind is reused (tests
    install a `MockFactory`); a new one becomes the default when none is installed yet, so the
    buttons and the LEDs share one factory."""
    if not name:
        return None
    from gpiozero import Device

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name in (name, name.lower()):
            try:
                cls = ep.load()
                if isinstance(Device.pin_factory, cls):
                    return Device.pin_factory
                factory = cls()
            except Exception as exc:
                raise BackendError(f"GPIO pin factory {name!r} is not usable here: {exc}") from exc
            if Device.pin_factory is None:
                Device.pin_factory = factory
            return factory
    raise BackendError(f"unknown GPIO pin factory {name!r} (try lgpio or mock)")


def gpio_call(what: str, make: Callable[[], Any]) -> Any:
    """Run a gpiozero constructor, turning its errors into a one-line `BackendError`."""
    try:
        return make()
    except Exception as exc:  # gpiozero raises many types (GPIOZeroError, ImportError, OSError)
        raise BackendError(f"{what}: {type(exc).__name__}: {exc}") from exc


class GpioSource(InputSource):
    """Buttons from BCM pins to ground (internal pull-up by default) as semantic events."""

    label = "gpio"

    def __init__(
        self,
        settings: GpioSettings,
        input: InputSettings | None = None,
        *,
        pin_factory: Any | None = None,
        clock: Clock = time.monotonic,
        when_event: EventCallback | None = None,
    ) -> None:
        from gpiozero import Button

        timing = Timing.from_settings(input or InputSettings(), bounce=settings.bounce_ms / 1000)
        super().__init__(
            timing=timing, names=tuple(settings.pins), clock=clock, when_event=when_event
        )
        self.settings = settings
        self.pin_factory = (
            pin_factory if pin_factory is not None else make_pin_factory(settings.pin_factory)
        )
        self.buttons: dict[str, Any] = {}
        try:
            for name, pin in settings.pins.items():
                self.buttons[name] = gpio_call(
                    f"button {name} on GPIO{pin}",
                    lambda pin=pin: Button(
                        pin,
                        pull_up=settings.pull_up,
                        bounce_time=None,
                        pin_factory=self.pin_factory,
                    ),
                )
        except BaseException:
            self._release()
            raise
        if self.pin_factory is None and self.buttons:
            self.pin_factory = next(iter(self.buttons.values())).pin_factory

    def _open(self) -> None:
        for name, button in self.buttons.items():
            button.when_pressed = self._callback(name, True)
            button.when_released = self._callback(name, False)

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._edge(name, pressed)

        return on_edge

    def _shut(self) -> None:
        for button in self.buttons.values():
            button.when_pressed = None
            button.when_released = None

    def _release(self) -> None:
        for button in self.buttons.values():
            try:
                button.close()
            except Exception:
                log.exception("closing a GPIO button failed")
        self.buttons.clear()

    def pin(self, name: str) -> Any:
        """The gpiozero pin of event `name` (tests: `source.pin("OK").drive_low()`)."""
        return self.buttons[name].pin
