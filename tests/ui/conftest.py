"""UI test fixtures: one Kivy window per test session, a fresh ParlorApp mounted per test.

Whole-app `run()`/`stop()` tests live in their own processes (platform.md): after `App.run()`
returns, later render tests in the same process read zero pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.ui.uitools import pump
from ui.ports import (
    NEVER,
    Backlight,
    KioskSettings,
    MemoryStore,
    NoBacklight,
    NullOutputs,
    NullSounds,
    PowerSettings,
    Services,
    SleepSettings,
)


@pytest.fixture(scope="session")
def window() -> Any:
    from kivy.base import EventLoop
    from kivy.clock import Clock

    EventLoop.ensure_window()
    # Ticks in tests need not wait for the next 60 fps frame: the tests drive time themselves.
    Clock._max_fps = 0
    return EventLoop.window


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

    def teardown() -> None:
        while built:
            app = built.pop()
            app.dispatch("on_stop")  # also resets kv's `app` proxy, which caches the first app
            if app.root is not None and app.root.parent is not None:
                window.remove_widget(app.root)

    def make(
        size: tuple[int, int] = (800, 480),
        store: MemoryStore | None = None,
        kiosk: KioskSettings | None = None,
        language: str = "en",
        seed: int = 7,
        pace: float = 0.0,
        ai_level: str = "easy",
        power: PowerSettings | None = None,
        sleep: SleepSettings = NEVER,
        backlight: Backlight | None = None,
        sounds: Any = None,
        network: Any = None,
        match_lengths: dict[str, int] | None = None,
    ) -> Any:
        teardown()  # one app at a time: kv's `app` must mean the newest one
        window.size = size
        services = Services(
            store=store or MemoryStore(),
            outputs=Outputs(),
            kiosk=kiosk or KioskSettings(),
            language=language,
            power=power or PowerSettings(),
            sleep=sleep,
            backlight=backlight or NoBacklight(),
            sounds=sounds or NullSounds(),
        )
        if network is not None:
            services.network = network  # ui.remote.settings.NetworkSettings (phones)
        if match_lengths is not None:
            services.match_lengths = match_lengths  # `[game] <game>_deals`
        app = ParlorApp(services, seed=seed)
        forget_kv_app()
        app.pace = pace
        app.ai_level = ai_level  # the quick bots: tests check the table, not the AI
        app.bot_process = False  # in-process bots: no child process per test (see test_botproc)
        root = app.build()
        app.root = root
        window.add_widget(root)
        built.append(app)
        pump(12)  # nested layouts settle over several ticks
        return app

    yield make
    teardown()
    pump(1)


def forget_kv_app() -> None:
    """Make kv's `app` mean the newest app. Kivy's proxy keeps the first app it resolved until
    that app's `on_stop`; a frame that evaluated a kv rule of the last test's app after its
    `on_stop` (a phone server's callback, say) held it again, and the next test's home Play
    then opened the old app's seating."""
    from kivy.lang.parser import global_idmap

    object.__setattr__(global_idmap["app"], "_obj", None)


@pytest.fixture(autouse=True)
def table_names_left_as_found() -> Iterator[None]:
    """The current table's seat names (`ui.table.seats.use_names`) are module-wide: a test that
    opened a table with named or several screen seats must not rename the next test's seats."""
    from ui.table import seats

    before = (list(seats.NAMES), seats.YOU[0])
    yield
    seats.use_names(*before)
