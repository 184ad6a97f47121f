"""Physical outputs: the "your turn" and "AI thinking" LEDs and a buzzer (gpiozero), or nothing.

Both classes satisfy `ui.ports.Outputs` (`set_led(name, on)`, `beep()`) plus `close()`.
LED names are `turn` and `thinking`; a name whose LED is not fitted is ignored.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from .errors import HardwareError, SourceClosed
from .gpio import gpio_call, make_pin_factory
from .settings import OutputSettings

log = logging.getLogger(__name__)

LED_NAMES = ("turn", "thinking")
BEEP_SECONDS = 0.08


def _check_led(name: str) -> None:
    if name not in LED_NAMES:
        raise HardwareError(f"unknown LED {name!r}; expected one of {', '.join(LED_NAMES)}")


class NullOutputs:
    """No LEDs, no buzzer: every call is accepted and does nothing."""

    def set_led(self, name: str, on: bool) -> None:
        _check_led(name)

    def beep(self) -> None:
        pass

    def close(self) -> None:
        pass


class GpioOutputs:
    """LEDs and a buzzer on BCM pins (active high: pin -> resistor -> LED -> ground)."""

    def __init__(self, settings: OutputSettings, *, pin_factory: Any | None = None) -> None:
        from gpiozero import LED, Buzzer

        self.settings = settings
        factory = pin_factory if pin_factory is not None else make_pin_factory("")
        self._lock = threading.Lock()
        self._closed = False
        self.leds: dict[str, Any] = {}
        self.buzzer: Any | None = None
        try:
            for name, pin in (("turn", settings.led_turn), ("thinking", settings.led_thinking)):
                if pin:
                    self.leds[name] = gpio_call(
                        f"LED {name} on GPIO{pin}", lambda p=pin: LED(p, pin_factory=factory)
                    )
            if settings.buzzer:
                self.buzzer = gpio_call(
                    f"buzzer on GPIO{settings.buzzer}",
                    lambda: Buzzer(settings.buzzer, pin_factory=factory),
                )
        except BaseException:
            self.close()
            raise

    def set_led(self, name: str, on: bool) -> None:
        _check_led(name)
        with self._lock:
            if self._closed:
                raise SourceClosed("outputs are closed")
            led = self.leds.get(name)
            if led is not None:
                led.value = bool(on)

    def beep(self) -> None:
        """A short beep in the background (gpiozero's blink thread); never blocks the UI."""
        with self._lock:
            if self._closed:
                raise SourceClosed("outputs are closed")
            if self.buzzer is not None:
                self.buzzer.beep(on_time=BEEP_SECONDS, off_time=BEEP_SECONDS, n=1)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            devices = [*self.leds.values(), *([self.buzzer] if self.buzzer else [])]
            self.leds.clear()
            self.buzzer = None
        for device in devices:
            try:
                device.close()
            except Exception:
                log.exception("closing a GPIO output failed")
