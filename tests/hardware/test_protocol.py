"""The serial keypad line protocol: parsing, bounded line splitting, noise rejection."""

from __future__ import annotations

import random

import pytest

from hardware import ProtocolError
from hardware.protocol import MAX_LINE, Hello, KeyLine, LineSplitter, parse_line


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"KEY OK DOWN", KeyLine("OK", True)),
        (b"KEY OK UP", KeyLine("OK", False)),
        (b"KEY MENU DOWN\r", KeyLine("MENU", True)),
        (b"KEY ENTER DOWN", KeyLine("OK", True)),  # via [input.serial.names]
        (b"HELLO parlor-pad 1.2.0", Hello("parlor-pad", "1.2.0")),
        (b"# keypad booted", None),
        (b"", None),
        (b"   ", None),
    ],
)
def test_valid_lines(line, expected):
    assert parse_line(line, {"ENTER": "OK"}) == expected


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"KEY FIRE DOWN", "unknown key word 'FIRE'"),
        (b"KEY OK", "not a protocol line"),
        (b"key ok down", "not a protocol line"),
        (b"KEY OK DOWN extra", "not a protocol line"),
        (b"KEY  OK DOWN", "not a protocol line"),
        (b"KEY OK\tDOWN", "binary data"),
        (b"KEY \xffOK DOWN", "binary data"),
        (b"KEY OK DOWN\x00", "binary data"),
        (b"HELLO only", "not a protocol line"),
        (b"K" * (MAX_LINE + 1), "line too long"),
    ],
)
def test_bad_lines_raise_protocol_error(line, reason):
    with pytest.raises(ProtocolError, match=reason):
        parse_line(line)


def test_splitter_bounds_memory_and_skips_the_tail_of_a_long_line():
    s = LineSplitter()
    out = s.feed(b"KEY OK DOWN\nKEY OK")
    assert out == [b"KEY OK DOWN"]
    assert s.feed(b" UP\n") == [b"KEY OK UP"]
    out = s.feed(b"x" * 500)
    assert len(out) == 1 and isinstance(out[0], ProtocolError)
    assert s.feed(b"y" * 500 + b"KEY OK DOWN\n") == []  # the rest of the long line
    assert s.feed(b"KEY OK DOWN\n") == [b"KEY OK DOWN"]


def test_random_bytes_give_no_key_lines():
    rng = random.Random(8)
    s = LineSplitter()
    parsed = []
    noise = rng.randbytes(100_000)
    for i in range(0, len(noise), 997):
        for item in s.feed(noise[i : i + 997]):
            if isinstance(item, bytes):
                try:
                    parsed.append(parse_line(item))
                except ProtocolError:
                    pass
    assert [p for p in parsed if p is not None] == []
