"""`parlor doctor`: is this machine ready to be a Parlor table? One line per check.

Checks the config, the store, the display, input devices, the GPIO pin factory, the serial
keypad and the display's backlight (screen sleep), then the board's health (temperature,
throttling, free space on the data partition, the sound card: `hardware.health`, which the
Controls screen shows too) and whether SDL opens an audio device for the sound player, each
`OK`, `WARN` (works, but worth knowing) or `FAIL` with the problem and what Parlor will do about
it (the store check uses the store's own judgement of its path). Nothing is changed and no file
is left behind: the database is read from an immutable or copied snapshot (no `-wal`/`-shm`),
devices are opened and closed again. Exit status 1 if anything FAILed.
"""

from __future__ import annotations

import glob
import os
import sqlite3
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from device import config as config_mod
from device import paths, storefile
from device.store import SCHEMA_VERSION
from device.storefile import Kind
from hardware import health
from hardware.health import LOW_SPACE, free_space
from ui.remote import address as net_address
from ui.sound import probe as sound_probe
from ui.sound.player import SOUNDS


@dataclass
class Check:
    status: str  # OK, WARN, FAIL
    name: str
    detail: str
    more: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        return [f"{self.status:<4} {self.name}: {self.detail}"] + [f"       {m}" for m in self.more]


def check_config(config: config_mod.Config, problems: list[str]) -> Check:
    read = ", ".join(config.files) or "no file, built-in defaults"
    mode = "kiosk" if config.kiosk.enabled else "desktop"
    summary = (f"{read}; {mode}, rotation {config.display.rotation}, density "
               f"{config.display.density:g}, language {config.game.language}")
    if problems:
        return Check("WARN", "config", f"{len(problems)} problem(s), defaults used for those keys "
                     f"({summary})", tuple(problems))
    return Check("OK", "config", summary)


NO_DATA = "Parlor will run without keeping statistics, settings or the saved game"


def _space(folder: Path) -> tuple[str, bool]:
    """("N MB free", low?) for the folder."""
    free = free_space(folder)
    if free is None:
        return "free space unknown", False
    return f"{free / 2**20:.0f} MB free", free < LOW_SPACE


def _journal_mode(path: Path) -> str:
    """"wal" or "rollback" from the header (a snapshot's PRAGMA would report its own mode)."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(20)
    except OSError:
        return "?"
    return "wal" if header[18:20] == b"\x02\x02" else "rollback"


def check_store(config: config_mod.Config, environ: Mapping[str, str]) -> Check:
    """What the store will do with its path, found without changing anything there.

    Shares `storefile.inspect` with the store itself; the database is read from an immutable
    or copied snapshot, so no `-wal`/`-shm` file is left behind.
    """
    path = paths.database_path(config.store.path, environ)
    verdict = storefile.inspect(path)
    if verdict.kind in (Kind.UNREACHABLE, Kind.FOREIGN):
        untouched = " (left untouched)" if verdict.kind is Kind.FOREIGN else ""
        return Check("FAIL", "store", f"{verdict.reason}{untouched}: {NO_DATA}")
    space, low = _space(paths.nearest_folder(path))
    if verdict.kind is Kind.NEW:
        status = "WARN" if low else "OK"
        return Check(status, "store", f"{path} (created on first start; {space})")
    if verdict.version > SCHEMA_VERSION:
        return Check("FAIL", "store", f"{path}: schema version {verdict.version} is newer than "
                     f"this Parlor's ({SCHEMA_VERSION}); it is left untouched: {NO_DATA}")
    can_move = os.access(path.parent, os.W_OK | os.X_OK)
    try:
        with storefile.snapshot(path) as conn:
            check = conn.execute("PRAGMA integrity_check").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            mode = _journal_mode(path)
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
            aside = (conn.execute("SELECT count(*) FROM damaged_autosave").fetchone()[0]
                     if "damaged_autosave" in tables else 0)
    except (OSError, sqlite3.Error, UnicodeDecodeError) as exc:
        check, version, mode, aside = str(exc), verdict.version, "?", 0
    if check != "ok":
        then = ("Parlor will move it aside and start afresh" if can_move else
                f"it cannot be moved aside ({path.parent} is not writable): {NO_DATA}")
        return Check("FAIL", "store", f"{path}: damaged ({str(check)[:120]}); {then}")
    if not (os.access(path, os.W_OK) and can_move):
        return Check("FAIL", "store", f"{path} is not writable by this user (nor its folder): "
                     f"{NO_DATA}")
    more = (f"{aside} saved game(s) that did not restore are kept aside in the database",) \
        if aside else ()
    status = "WARN" if low else "OK"
    detail = f"{path} (schema {version}, {mode}, integrity ok, writable, {space})"
    if low:
        detail += ": little space left, saving may fail"
    return Check(status, "store", detail, more)


def check_display(environ: Mapping[str, str], dri_glob: str = "/dev/dri/card*") -> Check:
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver == "offscreen":
        return Check("OK", "display", "SDL offscreen (no screen: tests and --selftest)")
    if driver not in ("", "kmsdrm"):
        if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
            where = environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
            return Check("OK", "display", f"SDL_VIDEODRIVER={driver}, desktop {where}")
        return Check("WARN", "display", f"SDL_VIDEODRIVER={driver} and no desktop session")
    if driver != "kmsdrm" and environ.get("DISPLAY"):
        return Check("OK", "display", f"X11 DISPLAY={environ['DISPLAY']}")
    if driver != "kmsdrm" and environ.get("WAYLAND_DISPLAY"):
        return Check("OK", "display", f"Wayland {environ['WAYLAND_DISPLAY']} (through XWayland)")
    cards = sorted(glob.glob(dri_glob))
    if not cards:
        return Check("FAIL", "display", "no desktop and no /dev/dri/card* for KMS/DRM (on a Pi: "
                     "dtoverlay=vc4-kms-v3d in config.txt)")
    usable = [c for c in cards if os.access(c, os.R_OK | os.W_OK)]
    if not usable:
        return Check("FAIL", "display", f"{', '.join(cards)} not accessible: add the user to the "
                     "video and render groups")
    return Check("OK", "display", f"KMS/DRM {', '.join(usable)}")


def input_name(event: str) -> str:
    try:
        return Path(f"/sys/class/input/{Path(event).name}/device/name").read_text().strip()
    except OSError:
        return "?"


def check_inputs(event_glob: str = "/dev/input/event*") -> Check:
    events = sorted(glob.glob(event_glob))
    if not events:
        return Check("WARN", "input devices", "no /dev/input/event* (no touchscreen or keyboard "
                     "seen; buttons and keypad are checked below)")
    readable = [e for e in events if os.access(e, os.R_OK)]
    names = tuple(f"{e}: {input_name(e)}" for e in readable)
    if not readable:
        return Check("FAIL", "input devices", f"{len(events)} device(s) but none readable: add "
                     "the user to the input group")
    return Check("OK", "input devices", f"{len(readable)} of {len(events)} readable", names)


def check_pin_factory(config: config_mod.Config, environ: Mapping[str, str]) -> Check:
    gpio = config.gpio
    outputs = config.output
    if not gpio.enabled and not outputs.any:
        return Check("OK", "pin factory", "GPIO not used ([input.gpio] enabled = false, no outputs)")
    name = gpio.pin_factory or environ.get("GPIOZERO_PIN_FACTORY", "")
    try:
        from gpiozero import Device

        with warnings.catch_warnings():  # gpiozero warns once per factory it falls back from
            warnings.simplefilter("ignore")
            if name:
                from hardware.gpio import make_pin_factory

                factory = make_pin_factory(name)
            else:
                factory = Device._default_pin_factory()
    except Exception as exc:
        return Check("FAIL", "pin factory", f"{name or 'default'}: {type(exc).__name__}: {exc} "
                     "(on a Pi: sudo apt install python3-lgpio, or pip install lgpio)")
    kind = type(factory).__name__
    pins = ", ".join(f"{e}=GPIO{p}" for e, p in gpio.pins.items()) if gpio.enabled else "none"
    if factory is not Device.pin_factory:
        factory.close()
    return Check("OK", "pin factory", f"{name or 'default'} -> {kind}; buttons {pins}")


def check_serial(config: config_mod.Config,
                 opener: Callable[..., object] | None = None) -> Check:
    serial_cfg = config.serial
    if not serial_cfg.enabled:
        return Check("OK", "serial port", "serial keypad not used ([input.serial] enabled = false)")
    try:
        import serial

        port = (opener or serial.serial_for_url)(serial_cfg.port, baudrate=serial_cfg.baud,
                                                 timeout=0)
    except Exception as exc:
        hint = " (add the user to the dialout group)" if "ermission" in str(exc) else ""
        return Check("FAIL", "serial port", f"{serial_cfg.port}: {exc}{hint}")
    port.close()  # type: ignore[attr-defined]
    return Check("OK", "serial port", f"{serial_cfg.port} at {serial_cfg.baud} baud opens")


def check_backlight(root: Path | None = None) -> Check:
    """The backlight screen sleep would drive, and whether this user may write it (only read:
    under the service, the unit's ReadWritePaths= decides too, see docs/raspberry-pi.md)."""
    from hardware.backlight import candidates, default_root, read_levels

    folder = default_root() if root is None else root
    found = candidates(folder)
    if not found:
        return Check("WARN", "backlight", f"none in {folder}: screen sleep draws a black screen")
    path = found[0]
    try:
        brightness, maximum = read_levels(path)
    except (OSError, ValueError) as exc:
        return Check("WARN", "backlight", f"{path}: unreadable ({exc}): screen sleep draws a "
                     "black screen")
    if not os.access(path / "brightness", os.W_OK):
        return Check("WARN", "backlight", f"{path}: not writable by this user (the udev rule "
                     "90-parlor-backlight.rules gives it to the group video: sudo udevadm "
                     "trigger --action=add --subsystem-match=backlight); screen sleep draws a "
                     "black screen")
    return Check("OK", "backlight", f"{path}: brightness {brightness} of {maximum}, writable")




def check_network(config: config_mod.Config) -> Check:
    """[network]: the address phones would use and whether the port is free now. The config's
    `enabled` is only the starting value: the owner's Phones switch in Settings wins."""
    net = config.network
    state = ("on ([network] enabled = true" if net.enabled else
             "off ([network] enabled = false") + ", unless Settings' Phones switch says otherwise)"
    try:
        bind = net_address.bind_address(net.bind)
    except ValueError as exc:
        return Check("FAIL" if net.enabled else "WARN", "phones", f"{state}; bind: {exc}")
    where = net_address.lan_address(net.bind)
    url = f"http://{where}:{net.port}/"
    problem = net_address.port_problem(bind, net.port)
    if problem is not None:
        return Check("WARN" if net.enabled else "OK", "phones",
                     f"{state}; {url}; port {net.port} on {bind} is not free ({problem}): "
                     "another program, or Parlor itself during a game with phones")
    if net.enabled and where.startswith("127."):
        return Check("WARN", "phones", f"{state}; no network: phones cannot reach {url}")
    return Check("OK", "phones", f"{state}; phones would join at {url} (port free)")


def data_folder(config: config_mod.Config, environ: Mapping[str, str]) -> Path:
    """The folder whose partition holds the database (its nearest existing ancestor)."""
    return paths.nearest_folder(paths.database_path(config.store.path, environ))


def health_check(reading: health.Reading) -> Check:
    """A health reading as a doctor line."""
    return Check(reading.status, reading.name, reading.detail)


def check_sound(audio: Callable[[], sound_probe.AudioProbe] = sound_probe.probe,
                folder: Path = SOUNDS) -> Check:
    """What the sound player needs: an audio device SDL opens (`ui.sound.probe`, the player's
    own question) and its files. Without a device Parlor plays silently: a WARN, not a FAIL."""
    files = len(list(folder.glob("*.ogg"))) if folder.is_dir() else 0
    if not files:
        return Check("WARN", "sound", f"no sound files in {folder}: Parlor plays silently")
    found = audio()
    if not found.ok:
        return Check("WARN", "sound", f"{found.detail}: Parlor plays silently (the GPIO buzzer, "
                     "if fitted, still beeps; a running Parlor may be holding the device)")
    return Check("OK", "sound", f"{found.detail}; {files} sound files")


def run_checks(environ: Mapping[str, str] | None = None, root: Path = Path("/")) -> list[Check]:
    """Every check; `root` is where the health readers look for /sys, /proc and /dev."""
    env = os.environ if environ is None else environ
    config, problems = config_mod.load(environ=env)
    return [
        check_config(config, problems),
        check_store(config, env),
        check_display(env),
        check_inputs(),
        check_pin_factory(config, env),
        check_serial(config),
        check_backlight(None if root == Path("/") else root / "sys" / "class" / "backlight"),
        check_network(config),
    ] + [health_check(r) for r in health.read_all(data_folder(config, env), root)] + [
        check_sound(),
    ]


def doctor(out: TextIO, environ: Mapping[str, str] | None = None,
           root: Path = Path("/")) -> int:
    checks = run_checks(environ, root)
    for check in checks:
        for line in check.lines():
            print(line, file=out)
    failed = [c.name for c in checks if c.status == "FAIL"]
    print(f"{'problems: ' + ', '.join(failed) if failed else 'ready'}", file=out)
    return 1 if failed else 0
