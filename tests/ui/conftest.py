"""UI test fixtures: one Kivy window per test session, a fresh ParlorApp mounted per test.

Whole-app `run()`/`stop()` tests live in their own processes (platform.md): after `App.run()`
returns, later render tests in the same process read zero pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ui.ports import KioskSettings, MemoryStore, NullOutputs, Services


@pytest.fixture(scope="session")
def window() -> Any:
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    return EventLoop.window


def pump(frames: int = 3) -> None:
    """Let Kivy run `frames` frames: scheduled callbacks, layout, drawing."""
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


class Outputs(NullOutputs):
    """Records what the app asked of the outputs (LEDs, buzzer)."""

    def __init__(self) -> None:
        self.leds: dict[str, bool] = {}
        self.beeps = 0

    def set_led(self, name: str, on: bool) -> None:
        self.leds[name] = on

    def beep(self) -> None:
        self.beeps += 1


@pytest.fixture
def make_app(window: Any) -> Iterator[Callable[..., Any]]:
    """Build and mount a ParlorApp on the shared window: `make_app(size=(800, 480), ...)`."""
    from ui.app import ParlorApp

    built: list[Any] = []

    def make(
        size: tuple[int, int] = (800, 480),
        store: MemoryStore | None = None,
        kiosk: KioskSettings | None = None,
        language: str = "en",
        seed: int = 7,
        pace: float = 0.0,
    ) -> Any:
        window.size = size
        services = Services(
            store=store or MemoryStore(),
            outputs=Outputs(),
            kiosk=kiosk or KioskSettings(),
            language=language,
        )
        app = ParlorApp(services, seed=seed)
        app.pace = pace
        root = app.build()
        app.root = root
        window.add_widget(root)
        built.append(app)
        pump(4)
        return app

    yield make
    for app in built:
        app.unbind_window()
        if app.root is not None and app.root.parent is not None:
            window.remove_widget(app.root)
    pump(1)
