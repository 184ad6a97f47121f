"""The Parlor config file: built-in defaults, then `/etc/parlor/config.toml`, then the user's file.

The schema is the dataclasses below (their defaults are the built-in defaults) plus `CHECKS`, one
validator per key. Loading never refuses to start a kiosk: every problem (bad TOML, an unreadable
file, an unknown section or key, a wrong type, an out-of-range value) becomes ONE line naming the
file, the key and the problem, the key keeps its default (or the value of an earlier file), and
the caller logs the lines.

Two tables are maps rather than fixed keys: `[input.gpio.pins]` (event = BCM pin) and
`[input.serial.names]` (keypad word = event). A file that has such a table replaces the whole map
(so a user can wire fewer buttons than the defaults); a bad entry falls back to its default.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ui.ports import EVENTS

SYSTEM_PATH = Path("/etc/parlor/config.toml")
LANGUAGES = ("en", "vi", "es", "fr", "nl")
AI_LEVELS = ("easy", "normal", "hard")
PIN_FACTORIES = ("", "lgpio", "rpigpio", "pigpio", "native", "mock")
ROTATIONS = (0, 90, 180, 270)
BCM_PINS = range(0, 28)  # GPIO0..GPIO27 on the 40-pin header


@dataclass
class DisplayConfig:
    fullscreen: bool = False
    rotation: int = 0
    density: float = 1.0
    width: int = 800
    height: int = 480


@dataclass
class GameConfig:
    language: str = "en"
    ai_level: str = "normal"
    animation_speed: float = 1.0
    sound: bool = True


@dataclass
class KioskConfig:
    enabled: bool = False
    exit_pin: str = ""
    exit_hold_seconds: float = 5.0


def _default_pins() -> dict[str, int]:
    return {"LEFT": 5, "RIGHT": 6, "UP": 13, "DOWN": 19, "SELECT": 26, "OK": 16, "BACK": 20,
            "MENU": 21}


@dataclass
class GpioConfig:
    enabled: bool = False
    pin_factory: str = ""
    pull_up: bool = True
    bounce_ms: int = 30
    pins: dict[str, int] = field(default_factory=_default_pins)


@dataclass
class SerialConfig:
    enabled: bool = False
    port: str = "/dev/ttyACM0"
    baud: int = 115200
    reopen_seconds: float = 2.0
    names: dict[str, str] = field(default_factory=dict)


@dataclass
class InputConfig:
    keyboard: bool = True
    hold_seconds: float = 0.8
    repeat_delay: float = 0.5
    repeat_interval: float = 0.15
    repeat_events: list[str] = field(default_factory=lambda: ["LEFT", "RIGHT", "UP", "DOWN"])
    gpio: GpioConfig = field(default_factory=GpioConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)


@dataclass
class OutputConfig:
    led_turn: int = 0
    led_thinking: int = 0
    buzzer: int = 0


@dataclass
class StoreConfig:
    path: str = ""


@dataclass
class Config:
    display: DisplayConfig = field(default_factory=DisplayConfig)
    game: GameConfig = field(default_factory=GameConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)
    input: InputConfig = field(default_factory=InputConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    files: list[str] = field(default_factory=list)  # the files that were read, in order


class Invalid(ValueError):
    """A value that does not fit its key; the message says what is expected."""


# ---------------------------------------------------------------------------------------------
# Value checks: each returns the (normalised) value or raises `Invalid`.


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"expected true or false, got {_show(value)}")
    return value


def _int(lo: int, hi: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise Invalid(f"expected an integer, got {_show(value)}")
        if not lo <= value <= hi:
            raise Invalid(f"must be between {lo} and {hi}, got {value}")
        return value

    return check


def _float(lo: float, hi: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise Invalid(f"expected a number, got {_show(value)}")
        if not lo <= value <= hi:
            raise Invalid(f"must be between {lo:g} and {hi:g}, got {value:g}")
        return float(value)

    return check


def _choice(options: tuple[Any, ...]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        wanted = type(options[0])
        if not isinstance(value, wanted) or isinstance(value, bool):
            kind = "an integer" if wanted is int else "a string"
            raise Invalid(f"expected {kind}, got {_show(value)}")
        if value not in options:
            shown = ", ".join(repr(o) if isinstance(o, str) else str(o) for o in options)
            raise Invalid(f"must be one of {shown}; got {_show(value)}")
        return value

    return check


def _string(value: Any) -> str:
    if not isinstance(value, str):
        raise Invalid(f"expected a string, got {_show(value)}")
    return value


def _nonempty(value: Any) -> str:
    if not _string(value).strip():
        raise Invalid("must not be empty")
    return value


def _digits(value: Any) -> str:
    if not isinstance(value, str) or not (value == "" or (value.isdigit() and value.isascii())):
        raise Invalid(f'expected a string of digits (or ""), got {_show(value)}')
    if len(value) > 12:
        raise Invalid("must be at most 12 digits")
    return value


def _keypad_word(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Z0-9_]{1,16}", value):
        raise Invalid("keypad words are 1 to 16 of A-Z 0-9 _")
    return value


def _event(value: Any) -> str:
    if not isinstance(value, str) or value not in EVENTS:
        raise Invalid(f"expected one of {' '.join(EVENTS)}, got {_show(value)}")
    return value


def _events(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise Invalid(f"expected a list of events, got {_show(value)}")
    out = []
    for item in value:
        out.append(_event(item))
    if len(set(out)) != len(out):
        raise Invalid("lists an event twice")
    return out


def _pin_or_none(value: Any) -> int:
    return _int(0, max(BCM_PINS))(value)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (dict, list)):
        return "a table" if isinstance(value, dict) else "a list"
    return str(value)


CHECKS: dict[str, Callable[[Any], Any]] = {
    "display.fullscreen": _bool,
    "display.rotation": _choice(ROTATIONS),
    "display.density": _float(0.5, 4.0),
    "display.width": _int(100, 10000),
    "display.height": _int(100, 10000),
    "game.language": _choice(LANGUAGES),
    "game.ai_level": _choice(AI_LEVELS),
    "game.animation_speed": _float(0.5, 3.0),
    "game.sound": _bool,
    "kiosk.enabled": _bool,
    "kiosk.exit_pin": _digits,
    "kiosk.exit_hold_seconds": _float(1.0, 60.0),
    "input.keyboard": _bool,
    "input.hold_seconds": _float(0.0, 10.0),
    "input.repeat_delay": _float(0.0, 10.0),
    "input.repeat_interval": _float(0.02, 5.0),
    "input.repeat_events": _events,
    "input.gpio.enabled": _bool,
    "input.gpio.pin_factory": _choice(PIN_FACTORIES),
    "input.gpio.pull_up": _bool,
    "input.gpio.bounce_ms": _int(0, 1000),
    "input.gpio.pins": lambda value: value,  # a map: checked entry by entry in `_apply_map`
    "input.serial.enabled": _bool,
    "input.serial.port": _nonempty,
    "input.serial.baud": _int(50, 4_000_000),
    "input.serial.reopen_seconds": _float(0.1, 300.0),
    "input.serial.names": lambda value: value,
    "output.led_turn": _pin_or_none,
    "output.led_thinking": _pin_or_none,
    "output.buzzer": _pin_or_none,
    "store.path": _string,
}

# Map tables: dotted name -> (check of a key, check of a value).
MAPS: dict[str, tuple[Callable[[str], str], Callable[[Any], Any]]] = {
    "input.gpio.pins": (_event, _int(min(BCM_PINS), max(BCM_PINS))),
    "input.serial.names": (_keypad_word, _event),
}


# ---------------------------------------------------------------------------------------------
# Loading


def user_path(environ: Mapping[str, str] | None = None) -> Path:
    """`$PARLOR_CONFIG`, else `$XDG_CONFIG_HOME/parlor/config.toml` (~/.config by default)."""
    env = os.environ if environ is None else environ
    if env.get("PARLOR_CONFIG"):
        return Path(env["PARLOR_CONFIG"]).expanduser()
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "parlor" / "config.toml"


def config_paths(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The files read, in order: the system file, then the user's (later ones override)."""
    return [SYSTEM_PATH, user_path(environ)]


def load(
    paths: list[Path] | None = None, environ: Mapping[str, str] | None = None
) -> tuple[Config, list[str]]:
    """Defaults, overridden by each existing file in `paths`; returns the config and its problems.

    A missing file is normal and silent, except the one `$PARLOR_CONFIG` names explicitly.
    """
    env = os.environ if environ is None else environ
    paths = config_paths(env) if paths is None else paths
    explicit = Path(env["PARLOR_CONFIG"]).expanduser() if env.get("PARLOR_CONFIG") else None
    config = Config()
    problems: list[str] = []
    for path in paths:
        data = _read(path, problems, must_exist=path == explicit)
        if data is not None:
            config.files.append(str(path))
            _apply_table(config, "", data, str(path), problems)
            _check_pins(config, str(path), problems)
    return config, problems


def load_text(text: str, name: str = "<config>") -> tuple[Config, list[str]]:
    """Defaults overridden by one TOML text (tests, `parlor doctor` on a given file)."""
    config = Config()
    problems: list[str] = []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{name}: invalid TOML: {exc}; using the defaults instead of this file")
        return config, problems
    _apply_table(config, "", data, name, problems)
    _check_pins(config, name, problems)
    return config, problems


def _read(path: Path, problems: list[str], must_exist: bool) -> dict[str, Any] | None:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if must_exist:
            problems.append(f"{path}: no such file (named by PARLOR_CONFIG); using the defaults")
        return None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        problems.append(f"{path}: cannot read: {reason}; using the defaults instead of this file")
        return None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problems.append(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                        "using the defaults instead of this file")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{path}: invalid TOML: {exc}; using the defaults instead of this file")
    return None


def _apply_table(
    target: Any, prefix: str, data: Mapping[str, Any], name: str, problems: list[str]
) -> None:
    """Copy `data` onto the dataclass `target`, checking every key against the schema."""
    known = {f.name: f for f in dataclasses.fields(target) if f.name != "files"}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if key not in known:
            if isinstance(value, dict):
                problems.append(f"{name}: [{dotted}]: unknown section; ignored")
            else:
                problems.append(f"{name}: {dotted}: unknown key; ignored")
            continue
        current = getattr(target, key)
        if dataclasses.is_dataclass(current):
            if not isinstance(value, dict):
                problems.append(f"{name}: {dotted}: expected a table [{dotted}], got "
                                f"{_show(value)}; using the defaults")
                continue
            _apply_table(current, dotted + ".", value, name, problems)
        elif dotted in MAPS:
            _apply_map(target, key, dotted, value, name, problems)
        else:
            try:
                setattr(target, key, CHECKS[dotted](value))
            except Invalid as exc:
                fallback = _fallback(current, getattr(type(target)(), key))
                problems.append(f"{name}: {dotted}: {exc}; {fallback}")


def _apply_map(
    target: Any, key: str, dotted: str, value: Any, name: str, problems: list[str]
) -> None:
    """Replace a map table (`pins`, `names`) with `value`; a bad entry falls back to its default."""
    if not isinstance(value, dict):
        problems.append(f"{name}: {dotted}: expected a table [{dotted}], got {_show(value)}; "
                        "using the defaults")
        return
    check_key, check_value = MAPS[dotted]
    defaults = {f.name: f for f in dataclasses.fields(target)}[key].default_factory()  # type: ignore[misc]
    result: dict[str, Any] = {}
    for entry, item in value.items():
        where = f"{dotted}.{entry}"
        try:
            check_key(entry)
        except Invalid as exc:
            problems.append(f"{name}: {where}: unknown name: {exc}; ignored")
            continue
        try:
            result[entry] = check_value(item)
        except Invalid as exc:
            if entry in defaults:
                result[entry] = defaults[entry]
                problems.append(f"{name}: {where}: {exc}; using the default {defaults[entry]}")
            else:
                problems.append(f"{name}: {where}: {exc}; ignored")
    setattr(target, key, result)


def _check_pins(config: Config, name: str, problems: list[str]) -> None:
    """A BCM pin may serve one button or output only: later uses of a taken pin are dropped."""
    taken: dict[int, str] = {}
    pins = config.input.gpio.pins
    for event in list(pins):
        pin = pins[event]
        if pin in taken:
            problems.append(f"{name}: input.gpio.pins.{event}: pin {pin} is already used by "
                            f"{taken[pin]}; {event} has no button")
            del pins[event]
        else:
            taken[pin] = f"input.gpio.pins.{event}"
    if not config.input.gpio.enabled:
        taken.clear()  # no buttons are wired: the outputs may use those pins
    for key in ("led_turn", "led_thinking", "buzzer"):
        pin = getattr(config.output, key)
        if pin == 0:
            continue
        if pin in taken:
            problems.append(f"{name}: output.{key}: pin {pin} is already used by {taken[pin]}; "
                            "output disabled")
            setattr(config.output, key, 0)
        else:
            taken[pin] = f"output.{key}"


def _fallback(current: Any, default: Any) -> str:
    """What is used instead of a bad value: the default, or an earlier file's value."""
    if isinstance(current, list):
        shown = " ".join(current) if current else "(none)"
    elif isinstance(current, float):
        shown = f"{current:g}"
    else:
        shown = '""' if current == "" else _show(current)
    return f"using the default {shown}" if current == default else f"keeping {shown}"


def as_dict(config: Config) -> dict[str, Any]:
    """The effective config as plain data (for `parlor doctor` and logging)."""
    data = dataclasses.asdict(config)
    data.pop("files", None)
    return data
