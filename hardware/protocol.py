"""The serial keypad line protocol (documented in docs/hardware.md).

ASCII lines ending in `\\n` (a `\\r` before it is tolerated), at most `MAX_LINE` characters:

    KEY <WORD> DOWN       key WORD went down  (WORD: an event such as OK, or a configured name)
    KEY <WORD> UP         key WORD went up
    HELLO <name> <version>  the keypad introduces itself (logged)
    # anything            a comment (ignored); an empty line is ignored too

Tokens are separated by single spaces and are case-sensitive (upper case keywords), so line noise
is very unlikely to form a valid line. Everything else raises `ProtocolError` and is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import ProtocolError
from .events import EVENTS

MAX_LINE = 64
_PRINTABLE = re.compile(rb"[\x20-\x7e]*")
_TOKEN = re.compile(r"[A-Za-z0-9_.\-+]{1,32}")


@dataclass(frozen=True, slots=True)
class KeyLine:
    """`KEY <WORD> DOWN|UP`, with WORD already mapped to its event."""

    name: str
    pressed: bool


@dataclass(frozen=True, slots=True)
class Hello:
    """`HELLO <name> <version>`."""

    device: str
    version: str


def parse_line(raw: bytes, names: Mapping[str, str] | None = None) -> KeyLine | Hello | None:
    """Parse one line (terminator removed). None for comments and blank lines."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > MAX_LINE:
        raise ProtocolError(f"line too long ({len(raw)} bytes > {MAX_LINE})")
    if not _PRINTABLE.fullmatch(raw):
        raise ProtocolError("binary data (not printable ASCII)")
    text = raw.decode("ascii")
    if not text.strip() or text.startswith("#"):
        return None
    parts = text.split(" ")
    if parts[0] == "KEY" and len(parts) == 3 and parts[2] in ("DOWN", "UP"):
        word = parts[1]
        event = word if word in EVENTS else (names or {}).get(word)
        if event is None:
            raise ProtocolError(f"unknown key word {word!r}")
        return KeyLine(event, parts[2] == "DOWN")
    if parts[0] == "HELLO" and len(parts) == 3 and all(_TOKEN.fullmatch(p) for p in parts[1:]):
        return Hello(parts[1], parts[2])
    raise ProtocolError(f"not a protocol line: {text[:24]!r}")


class LineSplitter:
    """Bytes in, complete lines out, memory bounded: an over-long line is reported once and its
    remainder skipped up to the next terminator (so its tail is never read as a line)."""

    def __init__(self, terminator: bytes = b"\n", max_line: int = MAX_LINE + 1) -> None:
        self.terminator = terminator
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | ProtocolError]:
        out: list[bytes | ProtocolError] = []
        self._buffer.extend(data)
        while True:
            end = self._buffer.find(self.terminator)
            if end < 0:
                break
            line = bytes(self._buffer[:end])
            del self._buffer[: end + len(self.terminator)]
            if self._skipping:
                self._skipping = False
            else:
                out.append(line)
        if len(self._buffer) > self.max_line:
            if not self._skipping:
                out.append(ProtocolError(f"line too long (> {MAX_LINE} bytes)"))
            self._skipping = True
            self._buffer.clear()
        return out
