"""The Parlor config file: built-in defaults, then `/etc/parlor/config.toml`, then the user's file.

What the keys are, their defaults and their checks is `device/schema.py` (the one schema); this
module finds the files, reads and parses them, and hands each parsed table to `schema.apply`.
Loading never refuses to start a kiosk: every problem (bad TOML, an unreadable file, an unknown
section or key, a wrong type, an out-of-range value) becomes ONE line naming the file, the key and
the problem, the key keeps its default (or the value of an earlier file), and the caller logs the
lines.

Two tables are maps rather than fixed keys: `[input.gpio.pins]` (event = BCM pin) and
`[input.serial.names]` (keypad word = event). A file that has such a table replaces the whole map
(so a user can wire fewer buttons than the defaults); a bad entry falls back to its default.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device import schema
from device.schema import Config, defaults

__all__ = ["SYSTEM_PATH", "Config", "defaults", "user_path", "config_paths", "load", "load_text"]

SYSTEM_PATH = Path("/etc/parlor/config.toml")


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
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{name}: invalid TOML: {exc}; using the defaults instead of this file")
        return defaults(), problems
    schema.apply(values, data, name, problems)
    return schema.build(values), problems


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
