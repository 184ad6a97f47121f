"""The value checks of the config schema (`device/schema.py`), and how problem lines quote values.

Each check is called with a value as `tomllib` parsed it and returns the (converted) value or
raises `Invalid`, and nothing else, whatever the value: a 4,000-digit integer, a 1 MB string, a
table where a number belongs. That is where every conversion and check problem is caught, so
loading a config needs no catch-all. What a message echoes of the file (`show`, `show_name`) is
cut to a short excerpt that says the full length, and never holds a line break.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
from dataclasses import dataclass
from typing import Any

from hardware.events import EVENTS

EXCERPT = 60  # characters of a value or key name a problem line echoes at most


class Invalid(ValueError):
    """A value that does not fit its key; the message says what is expected."""


def _cut(text: str, length: int) -> str:
    """`text` (an escaped form of something `length` characters long) as a problem line shows
    it: whole if short, else its first EXCERPT characters, an ellipsis and the full length."""
    if len(text) <= EXCERPT + 2 and length <= EXCERPT:
        return text
    return f"{text[:EXCERPT]}… ({length:,} characters)"


def show(value: Any) -> str:
    """A value as a problem line quotes it: TOML spelling for booleans, tables and lists by
    kind, strings quoted and escaped (never a line break), long strings and huge integers cut to
    a short excerpt that says their length."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _cut(repr(value[:EXCERPT]), len(value))
    if isinstance(value, int):
        if -10**EXCERPT < value < 10**EXCERPT:
            return str(value)
        # str() of a huge integer is slow, and refused past 4,300 digits: count from its bits
        # (exact, or one digit short)
        digits = int((abs(value).bit_length() - 1) * math.log10(2)) + 1
        return f"an integer of about {digits:,} digits"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (dict, list)):
        return "a table" if isinstance(value, dict) else "a list"
    return f"a {type(value).__name__}"  # a TOML date or time


def show_name(name: str) -> str:
    """A key or section name (or a parser's message) as a problem line echoes it: as written if
    short and printable, else escaped (a quoted TOML key may hold a line break) and cut."""
    head = name[:EXCERPT]
    return _cut(head if head.isprintable() else repr(head), len(name))


# ---------------------------------------------------------------------------------------------
# Checks: each is called with the value read from TOML and returns the (converted) value or
# raises `Invalid`; `kind` and `allowed` describe it for the docs table.


class Check:
    """A value check. Subclasses set `kind` (the TOML type) and implement `__call__`/`allowed`."""

    kind = ""

    def __call__(self, value: Any) -> Any:
        raise NotImplementedError

    def allowed(self) -> str:
        return ""


class Boolean(Check):
    kind = "bool"

    def __call__(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise Invalid(f"expected true or false, got {show(value)}")
        return value

    def allowed(self) -> str:
        return "true, false"


@dataclass(frozen=True)
class Integer(Check):
    lo: int
    hi: int
    kind = "int"

    def __call__(self, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise Invalid(f"expected an integer, got {show(value)}")
        if not self.lo <= value <= self.hi:
            raise Invalid(f"must be between {self.lo} and {self.hi}, got {show(value)}")
        return value

    def allowed(self) -> str:
        return f"{self.lo} .. {self.hi}"


@dataclass(frozen=True)
class Number(Check):
    lo: float
    hi: float
    kind = "float"

    def __call__(self, value: Any) -> float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise Invalid(f"expected a number, got {show(value)}")
        # compared as given (Python compares a huge integer with a float exactly, no overflow);
        # NaN is never in range; only a value in range is converted
        if not self.lo <= value <= self.hi:
            raise Invalid(f"must be between {self.lo:g} and {self.hi:g}, got {show(value)}")
        return float(value)

    def allowed(self) -> str:
        return f"{self.lo:g} .. {self.hi:g}"


@dataclass(frozen=True)
class Choice(Check):
    options: tuple[Any, ...]

    @property
    def kind(self) -> str:  # type: ignore[override]
        return "int" if type(self.options[0]) is int else "str"

    def __call__(self, value: Any) -> Any:
        wanted = type(self.options[0])
        if not isinstance(value, wanted) or isinstance(value, bool):
            kind = "an integer" if wanted is int else "a string"
            raise Invalid(f"expected {kind}, got {show(value)}")
        if value not in self.options:
            raise Invalid(f"must be one of {self.allowed()}; got {show(value)}")
        return value

    def allowed(self) -> str:
        return ", ".join(repr(o) if isinstance(o, str) else str(o) for o in self.options)


@dataclass(frozen=True)
class CountOrAuto(Check):
    """A count between `lo` and `hi`, or "auto" (worked out by its user, e.g. from the cores)."""

    lo: int
    hi: int
    kind = "int or str"

    def __call__(self, value: Any) -> int | str:
        if isinstance(value, str):
            if value != "auto":
                raise Invalid(f'expected an integer or "auto", got {show(value)}')
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise Invalid(f'expected an integer or "auto", got {show(value)}')
        return Integer(self.lo, self.hi)(value)

    def allowed(self) -> str:
        return f"'auto', {self.lo} .. {self.hi}"


@dataclass(frozen=True)
class Text(Check):
    nonempty: bool = False
    most: int = 1024
    kind = "str"

    def __call__(self, value: Any) -> str:
        if not isinstance(value, str):
            raise Invalid(f"expected a string, got {show(value)}")
        if self.nonempty and not value.strip():
            raise Invalid("must not be empty")
        if len(value) > self.most:
            raise Invalid(f"must be at most {self.most:,} characters, got {show(value)}")
        return value

    def allowed(self) -> str:
        most = f"up to {self.most:,} characters"
        return f"any text but empty, {most}" if self.nonempty else f"any text, {most}"


class StorePath(Check):
    """The database file: "" (the data directory's), or an absolute path the OS would take.

    What the OS would refuse later (an embedded NUL, a name over NAME_MAX, a path over PATH_MAX,
    a `~user` that names nobody) or that means nothing for a service (a path relative to
    wherever it was started, a folder) is refused here, so the store is never handed a path it
    cannot use and never creates a `./~nosuchuser/` folder. `~` is expanded as
    `device.paths` expands it; the value is kept as written.
    """

    kind = "str"
    NAME_MAX = 255  # bytes of one file or folder name (Linux)
    PATH_MAX = 4095  # bytes of a whole path (Linux's 4096 with the final NUL)
    MOST_FOLDERS = 64  # deeper than any real data folder; Path.mkdir(parents=True) recurses

    def __call__(self, value: Any) -> str:
        if not isinstance(value, str):
            raise Invalid(f"expected a string, got {show(value)}")
        if value == "":
            return value
        if "\0" in value:
            raise Invalid(f"holds a NUL character, which no file name can: {show(value)}")
        expanded = os.path.expanduser(value)
        if expanded.startswith("~"):
            user = expanded.split("/", 1)[0]
            if user == "~":
                raise Invalid("the home folder ('~') cannot be found")
            raise Invalid(f"names the home folder of an unknown user ({show(user)})")
        if not os.path.isabs(expanded):
            raise Invalid(f"must be an absolute path (or start with ~/), got {show(value)}")
        try:
            raw = os.fsencode(expanded)
        except UnicodeEncodeError:
            raise Invalid(f"cannot be written as a file name here: {show(value)}") from None
        if len(raw) > self.PATH_MAX:
            raise Invalid(f"is over {self.PATH_MAX:,} bytes long, too long for a path")
        names = [name for name in raw.split(b"/") if name]
        if any(len(name) > self.NAME_MAX for name in names):
            raise Invalid(f"has a name over {self.NAME_MAX} bytes: {show(value)}")
        if len(names) > self.MOST_FOLDERS:
            raise Invalid(f"is over {self.MOST_FOLDERS} folders deep")
        if raw.endswith(b"/") or not names or names[-1] in (b".", b".."):
            raise Invalid(f"must name a file, not a folder, got {show(value)}")
        return value

    def allowed(self) -> str:
        return 'an absolute path or ~/path of a file, or ""'


@dataclass(frozen=True)
class Digits(Check):
    most: int = 12
    kind = "str"

    def __call__(self, value: Any) -> str:
        if not isinstance(value, str) or not (value == "" or (value.isdigit() and value.isascii())):
            raise Invalid(f'expected a string of digits (or ""), got {show(value)}')
        if len(value) > self.most:
            raise Invalid(f"must be at most {self.most} digits")
        return value

    def allowed(self) -> str:
        return f'up to {self.most} digits, or ""'


class KeypadWord(Check):
    kind = "str"
    PATTERN = re.compile(r"[A-Z0-9_]{1,16}")

    def __call__(self, value: Any) -> str:
        if not isinstance(value, str) or not self.PATTERN.fullmatch(value):
            raise Invalid("keypad words are 1 to 16 of A-Z 0-9 _")
        return value

    def allowed(self) -> str:
        return "1 to 16 of A-Z 0-9 _"


class Event(Check):
    kind = "str"

    def __call__(self, value: Any) -> str:
        if not isinstance(value, str) or value not in EVENTS:
            raise Invalid(f"expected one of {' '.join(EVENTS)}, got {show(value)}")
        return value

    def allowed(self) -> str:
        return " ".join(EVENTS)


class PowerButton(Check):
    """The button whose long press opens the power-off prompt: an event, "" for none; never MENU,
    whose long press is the kiosk exit hold."""

    kind = "str"
    CHOICES = tuple(e for e in EVENTS if e != "MENU")

    def __call__(self, value: Any) -> str:
        if value == "MENU":
            raise Invalid("MENU's long press is the kiosk exit hold; pick another button")
        if not isinstance(value, str) or value not in ("", *self.CHOICES):
            raise Invalid(f'expected one of {" ".join(self.CHOICES)} or "", got {show(value)}')
        return value

    def allowed(self) -> str:
        return " ".join(self.CHOICES) + ', or ""'


class EventList(Check):
    kind = "list"

    def __call__(self, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise Invalid(f"expected a list of events, got {show(value)}")
        out = tuple(Event()(item) for item in value)
        if len(set(out)) != len(out):
            raise Invalid("lists an event twice")
        return out

    def allowed(self) -> str:
        return f"each once, of {Event().allowed()}"


@dataclass(frozen=True)
class Table(Check):
    """A map table (`[input.gpio.pins]`): a file's table replaces the whole default map."""

    key: Check
    value: Check
    kind = "table"

    def __call__(self, value: Any) -> Any:  # entries are checked one by one in `_apply_table`
        return value

    def allowed(self) -> str:
        return f"NAME = VALUE; NAME: {self.key.allowed()}; VALUE: {self.value.allowed()}"


@dataclass(frozen=True)
class BindAddress(Check):
    """[network] bind: "" (every interface), an IP address, or a Linux interface name (up to
    15 letters, digits, `.`, `_`, `-`, `@`, `:`); whether that interface exists is for `parlor
    doctor` and the server's start, since interfaces come and go."""

    kind = "str"

    def __call__(self, value: Any) -> str:
        if not isinstance(value, str):
            raise Invalid(f"expected a string, got {show(value)}")
        text = value.strip()
        if not text:
            return ""
        try:
            return str(ipaddress.ip_address(text))
        except ValueError:
            pass
        if len(text) <= 15 and all(ch.isascii() and (ch.isalnum() or ch in "._-@:") for ch in text):
            return text
        raise Invalid(f"not an IP address or an interface name: {show(value)}")

    def allowed(self) -> str:
        return '"", an IP address or an interface name'
