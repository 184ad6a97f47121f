"""Reading the AI tools' own line logs: a JSON header line, then one JSON object per line.

The arena's deal logs (`arena_log`) and the labelled positions of `imitate` are written a line at
a time as the work finishes, so a run that is stopped leaves every finished line, and at most a
last line cut off mid-write. `read_lines` reads such a file: the header, the items, and where
the whole lines end, so the tool that owns the file may drop a cut-off last line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class NotALog(ValueError):
    """The first line is not the header the tool expects."""


class BadLine(ValueError):
    """Line `number` (1-based) is not an item (and is not a cut-off last line)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"line {number}")
        self.number = number


@dataclass
class Lines(Generic[T]):
    """A log as read: its header, its items in file order, the byte length of its whole lines,
    and whether a last line was cut off mid-write."""

    header: Any
    items: list[T]
    good_end: int
    cut: bool


def create(path: Path, header: Any) -> None:
    """A new log holding its header line (`OSError`, e.g. `FileExistsError`, if it cannot be
    made: a file already there is never overwritten)."""
    with path.open("x", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")


def read_lines(path: Path, is_header: Callable[[Any], bool], item: Callable[[Any], T]) -> Lines[T]:
    """Read `path` (`OSError` if it cannot be): `NotALog` unless `is_header(first line)`, then
    `item(json)` of every other non-empty line (`ValueError`, `KeyError` or `TypeError` from it:
    not an item — `BadLine`, unless it is the last line and the file does not end with a newline,
    i.e. a line cut off mid-write)."""
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    try:
        first = json.loads(lines[0])
    except ValueError:
        first = None
    if not is_header(first):
        raise NotALog(str(path))
    items: list[T] = []
    good_end = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        if not line:
            good_end += 1
            continue
        try:
            items.append(item(json.loads(line)))
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(lines) and not raw.endswith(b"\n"):
                return Lines(first, items, good_end, True)
            raise BadLine(number) from exc
        good_end += len(line) + 1
    return Lines(first, items, good_end, False)


def drop_cut_line(path: Path, lines: Lines[Any]) -> None:
    """Truncate a cut-off last line (the owning tool's own file only)."""
    if lines.cut:
        with path.open("r+b") as out:
            out.truncate(lines.good_end)
