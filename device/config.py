"""The Parlor config file: built-in defaults, then `/etc/parlor/config.toml`, then the user's file.

What the keys are, their defaults and their checks is `device/schema.py` (the one schema); this
module finds the files, reads and parses them, and hands each parsed table to `schema.apply`.
Loading never refuses to start a kiosk: every problem (bad TOML, an unreadable file, an unknown
section or key, a wrong type, an out-of-range value) becomes ONE line naming the file, the key and
the problem, the key keeps its default (or the value of an earlier file), and the caller logs the
lines. Whatever bytes a file holds: reading refuses what is not a regular file or is too large
to be a config file, and the parse step turns every failure of the TOML parser (syntax, nesting
too deep for it, an integer too long to convert) into one line for the file; what parses is
checked key by key by `schema.apply`, whose checks raise nothing but their own error.

Two tables are maps rather than fixed keys: `[input.gpio.pins]` (event = BCM pin) and
`[input.serial.names]` (keypad word = event). A file that has such a table replaces the whole map
(so a user can wire fewer buttons than the defaults); a bad entry falls back to its default.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device import schema
from device.schema import Config, defaults

__all__ = ["SYSTEM_PATH", "MOST_BYTES", "Config", "defaults", "user_path", "config_paths", "load",
           "load_text"]

SYSTEM_PATH = Path("/etc/parlor/config.toml")
MOST_BYTES = 4 * 2**20  # a config file is a few kilobytes; past this it is not one (not parsed)
_INSTEAD = "using the defaults instead of this file"


def user_path(environ: Mapping[str, str] | None = None) -> Path:
    """`$PARLOR_CONFIG`, else `$XDG_CONFIG_HOME/parlor/config.toml` (~/.config by default)."""
    env = os.environ if environ is None else environ
    if env.get("PARLOR_CONFIG"):
        return _expand(env["PARLOR_CONFIG"])
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
    explicit = _expand(env["PARLOR_CONFIG"]) if env.get("PARLOR_CONFIG") else None
    values = schema.default_values()
    files: list[str] = []
    problems: list[str] = []
    for path in paths:
        data = _read(path, problems, must_exist=path == explicit)
        if data is not None:
            files.append(str(path))
            schema.apply(values, data, str(path), problems)
    return schema.build(values, tuple(files)), problems


def load_text(text: str, name: str = "<config>") -> tuple[Config, list[str]]:
    """Defaults overridden by one TOML text (tests, `parlor doctor` on a given file)."""
    values = schema.default_values()
    problems: list[str] = []
    data = parse(text, name, problems)
    if data is None:
        return defaults(), problems
    schema.apply(values, data, name, problems)
    return schema.build(values), problems


def parse(text: str, name: str, problems: list[str]) -> dict[str, Any] | None:
    """The TOML `text` as tables, or None with one line in `problems` saying why it cannot be.

    Besides its syntax errors, the parser fails on what it cannot represent: nesting deeper than
    its recursion allows, an integer of more digits than Python converts
    (`sys.get_int_max_str_digits`). Each is a fault of the file, reported like a syntax error.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason = _decode_reason(str(exc))
    except RecursionError:
        reason = "nested too deeply to read"
    except ValueError as exc:  # the parser's int() of an over-long literal
        if "integer string conversion" in str(exc):
            reason = f"an integer of more than {sys.get_int_max_str_digits()} digits"
        else:
            reason = schema.show_name(str(exc))
    problems.append(f"{name}: invalid TOML: {reason}; {_INSTEAD}")
    return None


def _decode_reason(message: str) -> str:
    """The parser's message, cut if it quotes much of the file (a long key), keeping where."""
    found = _WHERE.search(message)
    where = found.group(0) if found else ""
    return schema.show_name(message[:len(message) - len(where)]) + where


_WHERE = re.compile(r" \(at (line \d+, column \d+|end of document)\)$")


def _expand(path: str) -> Path:
    """`~` expanded where it can be; a `~user` that names nobody is left as written (it is
    reported as a missing file, never raised)."""
    return Path(os.path.expanduser(path))


def _read(path: Path, problems: list[str], must_exist: bool) -> dict[str, Any] | None:
    """The parsed file, or None (with one line in `problems` unless it is simply absent).

    Only a regular file is opened (a named pipe would wait forever, a device never end), and at
    most MOST_BYTES of it are read.
    """
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(info.st_mode):
            problems.append(f"{path}: not a regular file ({_kind(info.st_mode)}); {_INSTEAD}")
            return None
        with open(path, "rb") as handle:
            raw = handle.read(MOST_BYTES + 1)
    except FileNotFoundError:
        if must_exist:
            problems.append(f"{path}: no such file (named by PARLOR_CONFIG); using the defaults")
        return None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        problems.append(f"{path}: cannot read: {reason}; {_INSTEAD}")
        return None
    if len(raw) > MOST_BYTES:
        problems.append(f"{path}: over {MOST_BYTES // 2**20} MiB, too large for a config file; "
                        f"{_INSTEAD}")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); {_INSTEAD}")
        return None
    return parse(text, str(path), problems)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"
