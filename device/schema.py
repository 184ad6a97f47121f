"""The config schema: every key of `config.toml` declared once, and the one validator.

Each `Key` says its section, name, default, check (which carries its type and allowed values;
the check classes are in `device/checks.py`) and one line of doc. Everything else reads this table: `device/config.py` loads files through
`apply`, `parlor config --doc` prints the table in `docs/config.md`, and `build` makes the typed
settings objects the rest of Parlor is handed (`hardware.InputSettings`, `ui.ports.KioskSettings`,
...). The allowed values come from their owners: languages from `ui.i18n`, AI levels from
`engine.ai.bots`, input events from `hardware.events`, animation speeds from `ui.ports`.

Sections whose settings class lives in a lower layer (`[input*]` and `[output]` in `hardware`,
`[kiosk]` in `ui.ports`), and `[display]`'s screen-sleep keys (`ui.ports.SleepSettings`), take
their defaults from that class's fields, so `hardware` and `ui` can
build their settings alone (bring-up tools, tests) without importing `device`; the schema reads
those fields instead of repeating the values. The other sections' defaults are written here.

A bad value never stops loading: `apply` turns every problem into ONE line naming the file, the
key and the problem, and the key keeps its default (or an earlier file's value). The checks raise
nothing but `Invalid`, whatever the parsed value (a 4,000-digit integer, a 1 MB string, a table
for a number): that is where every conversion and check problem is caught. What a line echoes of
the file (a value, a key name) is cut to a short excerpt (`show`, `show_name`), and past
`MAX_PROBLEMS` lines for one file one more line says how many were left out (`cap`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from device.checks import (
    EXCERPT,
    BindAddress,
    Boolean,
    Check,
    Choice,
    CountOrAuto,
    Digits,
    Event,
    EventList,
    Integer,
    Invalid,
    KeypadWord,
    Number,
    PowerButton,
    StorePath,
    Table,
    Text,
    show,
    show_name,
)
from engine import registry
from engine.ai.kinds import DEFAULT_LEVEL, LEVELS
from hardware.settings import GpioSettings, InputSettings, OutputSettings, SerialSettings
from ui.i18n import LANGUAGES
from ui.ports import (
    SPEED_MAX,
    SPEED_MIN,
    VOLUME_DEFAULT,
    KioskSettings,
    PowerSettings,
    SleepSettings,
)
from ui.remote.settings import NetworkSettings

__all__ = [  # the checks are part of the schema's vocabulary: `schema.Number`, `schema.show`, ...
    "EXCERPT", "MAX_PROBLEMS", "Boolean", "Check", "Choice", "CountOrAuto", "Digits", "Event",
    "EventList", "Integer", "Invalid", "KeypadWord", "Number", "PowerButton", "StorePath", "Table",
    "Text", "show",
    "show_name", "Key", "Section", "KEYS", "SECTIONS", "BY_NAME", "SECTION_NAMES", "Config",
    "AiConfig", "DisplayConfig", "GameConfig", "StoreConfig", "Values", "PIN_FACTORIES", "ROTATIONS",
    "BCM_PINS", "OUTPUT_KEYS", "default_values", "build", "defaults", "values_of", "apply", "cap",
    "toml_value", "doc_table", "DOC_BEGIN", "DOC_END", "with_doc_table",
]

PIN_FACTORIES = ("", "lgpio", "rpigpio", "pigpio", "native", "mock")
ROTATIONS = (0, 90, 180, 270)
BCM_PINS = range(0, 28)  # GPIO0..GPIO27 on the 40-pin header
OUTPUT_KEYS = ("led_turn", "led_thinking", "buzzer")


MAX_PROBLEMS = 30  # lines listed for one file; one more line counts the rest


def cap(name: str, lines: list[str]) -> list[str]:
    """At most MAX_PROBLEMS of one file's problem lines, then one line saying how many more."""
    if len(lines) <= MAX_PROBLEMS:
        return lines
    more = len(lines) - MAX_PROBLEMS
    return [*lines[:MAX_PROBLEMS], f"{name}: {more:,} more problems like these, not listed"]


# ---------------------------------------------------------------------------------------------
# The schema


@dataclass(frozen=True)
class Key:
    """One config key: where it is, its built-in value, how it is checked, what it does."""

    section: str
    name: str
    default: Any
    check: Check
    doc: str

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"


@dataclass(frozen=True)
class Section:
    """One TOML table and the typed settings object built from its keys (`Config.<attr>`)."""

    name: str
    attr: str
    settings: type
    doc: str


@dataclass(frozen=True)
class DisplayConfig:
    """[display]: the window or screen."""

    fullscreen: bool
    rotation: int
    density: float
    width: int
    height: int
    dim_after_minutes: float
    off_after_minutes: float
    dim_percent: int

    @property
    def sleep(self) -> SleepSettings:
        """The screen-sleep keys as the UI's settings (`ui.ports.SleepSettings`)."""
        return SleepSettings(self.dim_after_minutes, self.off_after_minutes, self.dim_percent)


@dataclass(frozen=True)
class _GameKeys:
    """[game]'s keys every game shares (`GameConfig` adds each game's match length)."""

    language: str
    ai_level: str
    animation_speed: float
    sound: bool
    volume: int
    effects: bool
    voice: bool
    large_cards: bool
    colour_safe: bool
    reduce_motion: bool
    coach: bool = False  # after each deal, the coach's moments (issue 21; ui.table.coaching)

    @property
    def match_lengths(self) -> dict[str, int]:
        """Each game's match length by its registry name (what the app is handed)."""
        return {game.name: getattr(self, f"{game.name}_deals") for game in registry.infos()}


#: [game]: the starting values of what the player can change in the app — the shared keys and,
#: for each game (its descriptor, `engine.info.<game>`), `<game>_deals`: the deals in a match
#: (issue 33; 0 = the game's own end), so a new game needs no edit here.
GameConfig = dataclasses.make_dataclass(
    "GameConfig",
    [(f"{game.name}_deals", int, dataclasses.field(default=game.default_length))
     for game in registry.infos()],
    bases=(_GameKeys,), frozen=True,
    namespace={"__doc__": "[game]: the starting values of what the player can change in the app."})
GameConfig.__module__ = __name__


@dataclass(frozen=True)
class AiConfig:
    """[ai]: how the AI players search (`engine.ai.workers.worker_count` reads `workers`)."""

    workers: int | str


@dataclass(frozen=True)
class StoreConfig:
    """[store]: where the database lives."""

    path: str
    replays_kept: int = 50  # finished deals kept for the replay viewer (device/store.py)


SECTIONS: tuple[Section, ...] = (
    Section("display", "display", DisplayConfig, "the window or screen"),
    Section("game", "game", GameConfig, "starting values; what the player changes in the app wins"),
    Section("ai", "ai", AiConfig, "the AI players' search"),
    Section("kiosk", "kiosk", KioskSettings, "the appliance lockdown"),
    Section("power", "power", PowerSettings, "powering the machine off from the app"),
    Section("input", "input", InputSettings, "timing shared by every input source"),
    Section("input.gpio", "gpio", GpioSettings, "buttons wired from a BCM pin to ground"),
    Section("input.serial", "serial", SerialSettings, "a keypad speaking the line protocol"),
    Section("output", "output", OutputSettings, "BCM pins of the LEDs and buzzer; 0 = not fitted"),
    Section("store", "store", StoreConfig, "the database"),
    Section("network", "network", NetworkSettings, "phones at the table (docs/protocol.md)"),
)


def _field_default(cls: type, name: str) -> Any:
    """The default of a settings class's field (sections whose class lives in hardware or ui)."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            if f.default_factory is not dataclasses.MISSING:
                return f.default_factory()
            return f.default
    raise KeyError(f"{cls.__name__} has no field {name!r}")


def _sleep(name: str) -> Any:
    return _field_default(SleepSettings, name)


def _kiosk(name: str) -> Any:
    return _field_default(KioskSettings, name)


def _power(name: str) -> Any:
    return _field_default(PowerSettings, name)


def _input(name: str) -> Any:
    return _field_default(InputSettings, name)


def _gpio(name: str) -> Any:
    return _field_default(GpioSettings, name)


def _serial(name: str) -> Any:
    return _field_default(SerialSettings, name)


def _output(name: str) -> Any:
    return _field_default(OutputSettings, name)


def _network(name: str) -> Any:
    return _field_default(NetworkSettings, name)


_PIN = Integer(min(BCM_PINS), max(BCM_PINS))

KEYS: tuple[Key, ...] = (
    Key("display", "fullscreen", False, Boolean(), "fill the screen (kiosk) instead of a window"),
    Key("display", "rotation", 0, Choice(ROTATIONS), "turn the picture, degrees"),
    Key("display", "density", 1.0, Number(0.5, 4.0), "scale of every size (dp) on this screen"),
    Key("display", "width", 800, Integer(100, 10000), "window width in pixels (not fullscreen)"),
    Key("display", "height", 480, Integer(100, 10000), "window height in pixels (not fullscreen)"),
    Key("display", "dim_after_minutes", _sleep("dim_after_minutes"), Number(0.0, 1440.0),
        "idle minutes until the screen dims (0 = never; not while bots play a deal you watch)"),
    Key("display", "off_after_minutes", _sleep("off_after_minutes"), Number(0.0, 1440.0),
        "idle minutes until the screen goes off (0 = never); a touch or button only wakes it"),
    Key("display", "dim_percent", _sleep("dim_percent"), Integer(1, 100),
        "brightness of the dimmed screen, percent of full"),
    Key("game", "language", "en", Choice(tuple(LANGUAGES)), "the language of the app"),
    Key("game", "ai_level", DEFAULT_LEVEL, Choice(LEVELS), "how strong the AI players are"),
    Key("game", "animation_speed", 1.0, Number(SPEED_MIN, SPEED_MAX),
        "pace of the table's animations (higher is faster)"),
    Key("game", "sound", True, Boolean(), "play sounds (the speaker and the GPIO buzzer)"),
    Key("game", "volume", VOLUME_DEFAULT, Integer(0, 100), "loudness of the speaker, percent"),
    Key("game", "effects", True, Boolean(),
        "sound effects: cards, tricks, your turn, deal won or lost, declarations"),
    Key("game", "voice", True, Boolean(),
        "spoken calls (Ù!, Chíu!, Meri!, trumps, levels) in the app's language"),
    Key("game", "large_cards", False, Boolean(), "larger cards in your hand (weaker eyes)"),
    Key("game", "colour_safe", False, Boolean(),
        "suits told apart by shape as well as colour (four-colour French suits)"),
    Key("game", "reduce_motion", False, Boolean(),
        "no card flights or pulses on the table: every change shows at once"),
    Key("game", "coach", False, Boolean(),
        "after each deal, the coach shows up to three moments where your choice cost most"),
    *(Key("game", f"{game.name}_deals", game.default_length, Choice(game.lengths), game.length_doc)
      for game in registry.infos()),
    Key("ai", "workers", "auto", CountOrAuto(1, 64),
        'processes that search a decision ("auto" = the cores but one; 1 = the bot process)'),
    Key("kiosk", "enabled", _kiosk("enabled"), Boolean(),
        "lock the app: no Esc, F1 or Alt+F4, no cursor"),
    Key("kiosk", "exit_pin", _kiosk("exit_pin"), Digits(12),
        'digits asked for after the exit hold ("" = none)'),
    Key("kiosk", "exit_hold_seconds", _kiosk("exit_hold_seconds"), Number(1.0, 60.0),
        "hold MENU or the top-left corner this long to leave the kiosk"),
    Key("power", "enabled", _power("enabled"), Boolean(),
        "offer Power off (exit prompt, settings; kiosk: asks the exit PIN)"),
    Key("power", "button", _power("button"), PowerButton(),
        'hold this button to open the Power off prompt ("" = none)'),
    Key("power", "hold_seconds", _power("hold_seconds"), Number(0.0, 60.0),
        "that long after its long press ([input] hold_seconds)"),
    Key("input", "keyboard", _input("keyboard"), Boolean(), "the keyboard drives the app"),
    Key("input", "hold_seconds", _input("hold_seconds"), Number(0.0, 10.0),
        "a key held this long is a long press (0 = none)"),
    Key("input", "repeat_delay", _input("repeat_delay"), Number(0.0, 10.0),
        "a repeating key repeats after this long (0 = no repeat)"),
    Key("input", "repeat_interval", _input("repeat_interval"), Number(0.02, 5.0),
        "then once every this many seconds"),
    Key("input", "repeat_events", _input("repeat_events"), EventList(),
        "the keys that repeat when held (the others give a long press)"),
    Key("input.gpio", "enabled", _gpio("enabled"), Boolean(), "read buttons on the GPIO pins"),
    Key("input.gpio", "pin_factory", _gpio("pin_factory"), Choice(PIN_FACTORIES),
        'gpiozero pin factory ("" = GPIOZERO_PIN_FACTORY or its default)'),
    Key("input.gpio", "pull_up", _gpio("pull_up"), Boolean(),
        "buttons connect the pin to ground (internal pull-up)"),
    Key("input.gpio", "bounce_ms", _gpio("bounce_ms"), Integer(0, 1000), "debounce time, ms"),
    Key("input.gpio", "pins", _gpio("pins"), Table(Event(), _PIN),
        "event = BCM pin of its button; a file's table replaces the whole map"),
    Key("input.serial", "enabled", _serial("enabled"), Boolean(), "read a serial keypad"),
    Key("input.serial", "port", _serial("port"), Text(nonempty=True),
        'device path or pyserial URL (e.g. "loop://")'),
    Key("input.serial", "baud", _serial("baud"), Integer(50, 4_000_000), "serial speed"),
    Key("input.serial", "reopen_seconds", _serial("reopen_seconds"), Number(0.1, 300.0),
        "longest wait between tries to reopen an unplugged keypad"),
    Key("input.serial", "names", _serial("names"), Table(KeypadWord(), Event()),
        'keypad word = event (e.g. ENTER = "OK"), for keypads with words of their own'),
    Key("output", "led_turn", _output("led_turn"), _PIN, 'BCM pin of the "your turn" LED (0 = none)'),
    Key("output", "led_thinking", _output("led_thinking"), _PIN,
        'BCM pin of the "AI thinking" LED (0 = none)'),
    Key("output", "buzzer", _output("buzzer"), _PIN, "BCM pin of the buzzer (0 = none)"),
    Key("store", "path", "", StorePath(),
        'the database file ("" = parlor.db in the data directory)'),
    Key("store", "replays_kept", 50, Integer(0, 1000),
        "finished deals kept to watch again from Statistics (the oldest go first)"),
    Key("network", "enabled", _network("enabled"), Boolean(),
        "let phones join a game with phone seats (the server runs only while one is played); "
        "the starting value of Settings' Phones switch, which wins once turned"),
    Key("network", "port", _network("port"), Integer(1024, 65535),
        "TCP port of the phone page and its WebSocket"),
    Key("network", "grace_seconds", _network("grace_seconds"), Number(5.0, 3600.0),
        "how long a phone may be gone before an AI plays for its seat (until it returns)"),
    Key("network", "bind", _network("bind"), BindAddress(),
        'where to listen: "" = every interface, an IP address, or an interface name ("wlan0")'),
)

BY_NAME: dict[str, Key] = {key.dotted: key for key in KEYS}
SECTION_NAMES: dict[str, Section] = {section.name: section for section in SECTIONS}


@dataclass(frozen=True)
class Config:
    """The effective config: one typed settings object per section, and the files read."""

    display: DisplayConfig
    game: GameConfig
    ai: AiConfig
    kiosk: KioskSettings
    power: PowerSettings
    input: InputSettings
    gpio: GpioSettings
    serial: SerialSettings
    output: OutputSettings
    store: StoreConfig
    network: NetworkSettings
    files: tuple[str, ...] = ()  # the files that were read, in order


# ---------------------------------------------------------------------------------------------
# Values: a flat map from dotted key to value, started from the defaults, overridden by files.

Values = dict[str, Any]


def default_values() -> Values:
    """Every key's built-in value (fresh copies of the maps)."""
    return {key.dotted: _copy(key.default) for key in KEYS}


def build(values: Values, files: tuple[str, ...] = ()) -> Config:
    """The typed settings objects of every section from `values` (already checked)."""
    parts = {
        section.attr: section.settings(**{
            key.name: _copy(values[key.dotted]) for key in KEYS if key.section == section.name
        })
        for section in SECTIONS
    }
    return Config(**parts, files=files)


def defaults() -> Config:
    """The config with no file read."""
    return build(default_values())


def values_of(config: Config) -> Values:
    """The value of every key in `config`, by dotted name (the inverse of `build`)."""
    return {key.dotted: getattr(getattr(config, SECTION_NAMES[key.section].attr), key.name)
            for key in KEYS}


def apply(values: Values, data: Mapping[str, Any], name: str, problems: list[str]) -> None:
    """Check one file's parsed TOML `data` and copy what is valid into `values`.

    Every problem is one line `name: key: problem; what is used instead` added to `problems`;
    past MAX_PROBLEMS lines, one more says how many were left out.
    """
    found: list[str] = []
    _apply_table(values, "", data, name, found)
    _check_pins(values, name, found)
    _check_power_button(values, name, found)
    problems.extend(cap(name, found))


def _apply_table(
    values: Values, prefix: str, data: Mapping[str, Any], name: str, problems: list[str]
) -> None:
    for entry, value in data.items():
        dotted = f"{prefix}{entry}"
        if dotted in SECTION_NAMES:
            if not isinstance(value, dict):
                problems.append(f"{name}: {dotted}: expected a table [{dotted}], got "
                                f"{show(value)}; using the defaults")
                continue
            _apply_table(values, dotted + ".", value, name, problems)
        elif dotted not in BY_NAME:
            if isinstance(value, dict):
                problems.append(f"{name}: [{prefix}{show_name(entry)}]: unknown section; ignored")
            else:
                problems.append(f"{name}: {prefix}{show_name(entry)}: unknown key; ignored")
        elif isinstance(BY_NAME[dotted].check, Table):
            _apply_map(values, BY_NAME[dotted], value, name, problems)
        else:
            key = BY_NAME[dotted]
            try:
                values[dotted] = key.check(value)
            except Invalid as exc:
                problems.append(f"{name}: {dotted}: {exc}; {_fallback(values[dotted], key.default)}")


def _apply_map(values: Values, key: Key, value: Any, name: str, problems: list[str]) -> None:
    """Replace a map table (`pins`, `names`) with `value`; a bad entry falls back to its default."""
    dotted = key.dotted
    if not isinstance(value, dict):
        problems.append(f"{name}: {dotted}: expected a table [{dotted}], got {show(value)}; "
                        "using the defaults")
        return
    table: Table = key.check  # type: ignore[assignment]
    defaults: dict[str, Any] = key.default
    result: dict[str, Any] = {}
    for entry, item in value.items():
        where = f"{dotted}.{show_name(entry)}"
        try:
            table.key(entry)
        except Invalid as exc:
            problems.append(f"{name}: {where}: unknown name: {exc}; ignored")
            continue
        try:
            result[entry] = table.value(item)
        except Invalid as exc:
            if entry in defaults:
                result[entry] = defaults[entry]
                problems.append(f"{name}: {where}: {exc}; using the default {defaults[entry]}")
            else:
                problems.append(f"{name}: {where}: {exc}; ignored")
    values[dotted] = result


def _check_pins(values: Values, name: str, problems: list[str]) -> None:
    """A BCM pin may serve one button or output only: later uses of a taken pin are dropped."""
    taken: dict[int, str] = {}
    pins: dict[str, int] = values["input.gpio.pins"]
    for event in list(pins):
        pin = pins[event]
        if pin in taken:
            problems.append(f"{name}: input.gpio.pins.{event}: pin {pin} is already used by "
                            f"{taken[pin]}; {event} has no button")
            del pins[event]
        else:
            taken[pin] = f"input.gpio.pins.{event}"
    if not values["input.gpio.enabled"]:
        taken.clear()  # no buttons are wired: the outputs may use those pins
    for key in OUTPUT_KEYS:
        pin = values[f"output.{key}"]
        if pin == 0:
            continue
        if pin in taken:
            problems.append(f"{name}: output.{key}: pin {pin} is already used by {taken[pin]}; "
                            "output disabled")
            values[f"output.{key}"] = 0
        else:
            taken[pin] = f"output.{key}"


def _check_power_button(values: Values, name: str, problems: list[str]) -> None:
    """The power button needs a long press: a key that repeats when held, or no long presses at
    all (`hold_seconds = 0`), would never open the prompt, so it is dropped, saying why."""
    button = values["power.button"]
    if not button:
        return
    if button in values["input.repeat_events"] and values["input.repeat_delay"] > 0:
        why = f"{button} repeats when held (input.repeat_events), it has no long press"
    elif values["input.hold_seconds"] <= 0:
        why = "input.hold_seconds = 0 gives no long presses"
    else:
        return
    problems.append(f"{name}: power.button: {why}; no power button")
    values["power.button"] = ""


def _fallback(current: Any, default: Any) -> str:
    """What is used instead of a bad value: the default, or an earlier file's value."""
    if isinstance(current, (list, tuple)):
        shown = " ".join(current) if current else "(none)"
    elif isinstance(current, float):
        shown = f"{current:g}"
    else:
        shown = '""' if current == "" else show(current)
    return f"using the default {shown}" if current == default else f"keeping {shown}"


def _copy(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value


# ---------------------------------------------------------------------------------------------
# The docs table


def toml_value(value: Any) -> str:
    """A default as it would be written in config.toml."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        return f"{value:g}" if value != int(value) else f"{value:.1f}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def doc_table() -> str:
    """The Markdown table of every key (docs/config.md holds it between the DOC markers)."""
    rows = ["| key | type | default | allowed | what it does |", "|---|---|---|---|---|"]
    for section in SECTIONS:
        for key in (k for k in KEYS if k.section == section.name):
            cells = [f"`[{key.section}]` `{key.name}`", key.check.kind,
                     f"`{toml_value(key.default)}`", key.check.allowed(), key.doc]
            rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) + "\n"


DOC_BEGIN = "<!-- config table: generated by `parlor config --doc`, do not edit -->"
DOC_END = "<!-- end of config table -->"


def with_doc_table(text: str) -> str:
    """`text` (a Markdown page) with the part between the markers replaced by `doc_table()`."""
    head, begin, rest = text.partition(DOC_BEGIN)
    _, end, tail = rest.partition(DOC_END)
    if not begin or not end:
        raise ValueError("the page has no config table markers")
    return f"{head}{DOC_BEGIN}\n{doc_table()}{DOC_END}{tail}"

