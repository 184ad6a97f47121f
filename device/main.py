"""The composition root: config, data directory, store, hardware, Kivy, and the app's lifetime.

`run_app` is what `parlor` (no subcommand) does. The order matters: logging first (to stderr, which
journald captures under systemd), then the config and the store, then Kivy's environment BEFORE
kivy is imported, then the app, the input sources (their events go to `app.post_input`) and the
outputs. SIGTERM and SIGINT stop the app from its own loop; the game in progress is already saved
after every action, devices and the database are closed, systemd hears STOPPING=1, and the
process exits 0.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device import config as config_mod
from device import kivyenv, lifecycle, netsync, paths, power
from device import store as store_mod
from device.notify import Notifier
from engine.ai.workers import worker_count
from ui.ports import Backlight, NoBacklight, NoService, NullOutputs, Services, Store
from ui.sound.player import SoundPlayer

log = logging.getLogger("parlor")

_MISSING = object()


def setup_logging(level: int = logging.INFO) -> None:
    """One handler on stderr. Under journald (JOURNAL_STREAM set) no timestamp: it adds its own.
    `PARLOR_LOG_DEBUG=NAME[,NAME]` puts those loggers at debug level (e.g. `parlor.autosave`:
    a line per save that reached the store)."""
    fmt = "%(levelname)s %(name)s: %(message)s"
    if not os.environ.get("JOURNAL_STREAM"):
        fmt = "%(asctime)s " + fmt
    root = logging.getLogger()
    if not any(getattr(h, "_parlor", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(fmt, datefmt="%H:%M:%S"))
        handler._parlor = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(level)
    for name in os.environ.get("PARLOR_LOG_DEBUG", "").split(","):
        if name.strip():
            logging.getLogger(name.strip()).setLevel(logging.DEBUG)


def load_config() -> config_mod.Config:
    """The config from its files; every problem logged as one warning line."""
    config, problems = config_mod.load()
    for problem in problems:
        log.warning("config: %s", problem)
    log.info("config: read %s", ", ".join(config.files) or "no file (built-in defaults)")
    return config


class ConfiguredStore:
    """A store whose settings default to the config file's values.

    What the player changes in the app (saved in the store) wins over the config file; the file
    gives the starting values (`[game] language = "vi"` is the language until changed).
    """

    def __init__(self, store: Store, defaults: dict[str, Any]) -> None:
        self.inner = store
        self.defaults = defaults

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def load_autosave(self) -> str | None:
        return self.inner.load_autosave()

    def save_autosave(self, data: str) -> Any:
        return self.inner.save_autosave(data)

    def clear_autosave(self) -> Any:
        return self.inner.clear_autosave()

    def record_deal(
        self, game: str, outcome: str, points: int, autosave: str | None = None
    ) -> Any:
        return self.inner.record_deal(game, outcome, points, autosave)

    def stats(self, name: str = "") -> dict[str, dict[str, int]]:
        return self.inner.stats(name)

    def get_setting(self, key: str, default: Any = None) -> Any:
        value = self.inner.get_setting(key, _MISSING)
        if value is _MISSING:
            return self.defaults.get(key, default)
        return value

    def set_setting(self, key: str, value: Any) -> Any:
        return self.inner.set_setting(key, value)


def open_store(config: config_mod.Config) -> Store:
    """The SQLite store in the data directory, or (logged) one keeping data in memory only,
    saying why (`unavailable_reason`, shown on the home screen): never a crash, never a file
    that is not Parlor's touched."""
    store: Store = store_mod.open_store(paths.database_path(config.store.path),
                                        config.store.replays_kept)
    # [game] holds exactly the settings the app may change: its values are their defaults
    return ConfiguredStore(store, dataclasses.asdict(config.game))


@dataclass
class Devices:
    """The input sources and outputs built from the config (closed on shutdown)."""

    sources: list[Any] = field(default_factory=list)
    outputs: Any = field(default_factory=NullOutputs)
    backlight: Backlight = field(default_factory=NoBacklight)

    def close(self) -> None:
        for source in self.sources:
            try:
                source.close()
            except Exception as exc:
                log.warning("hardware: closing %r failed: %s", source, exc)
        close = getattr(self.outputs, "close", None)
        if close is not None:
            try:
                close()
            except Exception as exc:
                log.warning("hardware: closing the outputs failed: %s", exc)
        close = getattr(self.backlight, "close", None)
        if close is not None:  # the brightness it had at start: never a dark screen left behind
            close()


def build_devices(
    config: config_mod.Config, post_input: Callable[[str], None], mock: bool
) -> Devices:
    """Input sources and outputs from the config (its typed hardware settings, built by the
    schema); a backend that fails is logged and left out."""
    import hardware

    devices = Devices()
    try:
        devices.sources = hardware.build_sources(
            config.input, config.gpio, config.serial, mock=mock,
            # releases too: the kiosk exit hold ends when MENU is let go (NAME:release)
            when_event=hardware.forward_to(post_input, releases=True))
    except hardware.HardwareError as exc:
        log.error("hardware: %s; buttons and keypad disabled (touch still works)", exc)
    for source in list(devices.sources):
        try:
            source.start()
        except hardware.HardwareError as exc:
            log.error("hardware: %r did not start: %s", source, exc)
            devices.sources.remove(source)
            source.close()
    try:
        devices.outputs = hardware.build_outputs(config.output, mock=mock,
                                                 pin_factory=config.gpio.pin_factory)
    except hardware.HardwareError as exc:
        log.error("hardware: %s; LEDs and buzzer disabled", exc)
    devices.backlight = open_backlight(mock)
    log.info("hardware: %d input source(s), outputs %s", len(devices.sources),
             type(devices.outputs).__name__)
    return devices


def open_backlight(mock: bool) -> Backlight:
    """The display's sysfs backlight for screen sleep, or `NoBacklight` (the screen then sleeps
    black): always the latter with mocked hardware (a desktop's own screen is not Parlor's)."""
    if mock:
        return NoBacklight()
    from hardware.backlight import open_backlight as open_sysfs

    return open_sysfs() or NoBacklight()


class SafeOutputs:
    """Outputs whose faults are logged, never raised into the UI."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def set_led(self, name: str, on: bool) -> None:
        try:
            self.inner.set_led(name, on)
        except Exception as exc:
            log.warning("hardware: LED %s failed: %s", name, exc)

    def beep(self) -> None:
        try:
            self.inner.beep()
        except Exception as exc:
            log.warning("hardware: buzzer failed: %s", exc)


def prepare_kivy(config: config_mod.Config, data_dir: Path) -> None:
    """Kivy's environment from the config, then the fixes that need kivy imported."""
    kivyenv.apply(kivyenv.kivy_environment(config, data_dir))
    kivyenv.after_import()


def make_services(
    config: config_mod.Config,
    store: Store,
    heartbeat: Callable[[], None],
    replay_record: str | None = None,
) -> Services:
    """What the UI is handed: the store, kiosk lockdown from `[kiosk]`, starting language/level,
    screen sleep from `[display]`, the board's health lines (`hardware.health`, free space
    of the database's partition), the processes that search one AI decision (`[ai] workers`,
    "auto" resolved here), and the sound player (`ui.sound.player`).

    Outputs start as `NullOutputs` and the backlight as `NoBacklight`; the real ones are set once
    the devices are built.
    """
    from hardware import health

    database = paths.database_path(config.store.path)
    return Services(store=store, outputs=NullOutputs(), heartbeat=heartbeat, kiosk=config.kiosk,
                    language=config.game.language, ai_level=config.game.ai_level,
                    large_cards=config.game.large_cards, colour_safe=config.game.colour_safe,
                    coach=config.game.coach, match_lengths=config.game.match_lengths,
                    ai_workers=worker_count(config.ai.workers),
                    replay_record=replay_record, keyboard=config.input.keyboard,
                    health=lambda: health.read_all(paths.nearest_folder(database)),
                    power=config.power, sleep=config.display.sleep,
                    sounds=SoundPlayer(),  # the speaker: probed on the first sound, lazily
                    network=config.network,  # phones at the table (issue 22)
                    phone_network=netsync.phone_network() or NoService())


class LiveDevices:
    """This run's devices: power-off closes them before asking logind (LEDs off, GPIO and the
    serial port released) and, if that fails, builds them again and hands the UI the outputs."""

    def __init__(self, config: config_mod.Config, services: Services,
                 post_input: Callable[[str], None], mock: bool) -> None:
        self.config, self.services, self.post_input, self.mock = config, services, post_input, mock
        self.devices = Devices()
        self.reopen()

    def reopen(self) -> None:
        self.devices = build_devices(self.config, self.post_input, mock=self.mock)
        self.services.outputs = SafeOutputs(self.devices.outputs)
        self.services.backlight = self.devices.backlight

    def close(self) -> None:
        self.services.outputs = NullOutputs()
        self.devices.close()
        self.devices = Devices()  # closed: a second close (at exit) has nothing left to do


def run_app(replay_record: str | None = None, mock_hardware: bool = False) -> int:
    """`parlor`: the table on this screen until the app is closed or the service is stopped."""
    setup_logging()
    notifier = Notifier()
    config = load_config()
    store = open_store(config)
    data_dir = paths.database_path(config.store.path).parent
    prepare_kivy(config, data_dir)
    notifier.status("starting")
    try:
        from kivy.clock import Clock

        from ui.app import ParlorApp
    except ImportError as exc:
        log.error("the UI cannot be loaded: %s", exc)
        _close(store)
        return 1

    services = make_services(config, store, notifier.heartbeat, replay_record)
    app = ParlorApp(services)
    devices = LiveDevices(config, services, app.post_input, mock_hardware)
    services.power_off = power.PowerOff(devices.close, devices.reopen)
    signals = lifecycle.install(lambda: Clock.schedule_once(lambda _dt: app.stop(), 0))
    try:
        app.run()
    finally:
        notifier.stopping()
        _save_session(app, store)
        devices.close()
        _close(store)
        notifier.close()
    log.info("stopped cleanly")
    return signals.exit_status(config.kiosk.enabled)


def _save_session(app: Any, store: Store) -> None:
    """Save the game in progress once more (it already is, after every action)."""
    session = getattr(app, "session", None)
    if session is None or store.load_autosave() is None:
        return
    try:
        store.save_autosave(session.to_json())
        log.info("game in progress saved")
    except Exception as exc:
        log.error("saving the game on shutdown failed: %s", exc)


def _close(store: Store) -> None:
    close = getattr(store, "close", None)
    if close is not None:
        close()
