"""Property-based (issue 18, part 9): any byte stream, in any chunking, through the serial
keypad's real reading code (`KeypadLineReader.data_received` -> `LineSplitter` -> `parse_line`):
never an exception, and exactly the key lines in it become key edges."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import SerialSettings
from hardware.protocol import MAX_LINE
from hardware.serial_keypad import KeypadLineReader, SerialSource

pytestmark = pytest.mark.fuzz

KEYS = ("OK", "BACK", "MENU", "LEFT", "RIGHT", "UP", "DOWN", "SELECT")
key_lines = st.tuples(st.sampled_from(KEYS), st.booleans(), st.sampled_from([b"\n", b"\r\n"]))
noise = st.binary(max_size=2 * MAX_LINE).filter(lambda b: b"\n" not in b)


def feed(chunks: list[bytes]) -> list[tuple[str, bool]]:
    source = SerialSource(SerialSettings(enabled=True, port="loop://"))
    edges: list[tuple[str, bool]] = []
    source._edge = lambda name, pressed: edges.append((name, pressed))  # type: ignore[method-assign]
    reader = KeypadLineReader(source)
    for chunk in chunks:
        reader.data_received(chunk)
    return edges


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)]


@given(st.lists(st.one_of(key_lines, noise), max_size=30), st.lists(st.integers(0, 10**6),
                                                                      max_size=20))
def test_only_key_lines_become_edges_whatever_the_noise_and_chunking(items, cuts) -> None:
    stream, expected = b"", []
    for item in items:
        if isinstance(item, tuple):
            name, pressed, end = item
            stream += b"\n" + f"KEY {name} {'DOWN' if pressed else 'UP'}".encode() + end
            expected.append((name, pressed))
        else:
            stream += b"\n" + item  # noise ends at the next line's leading newline
    stream += b"\n"
    assert feed(chunked(stream, cuts)) == expected


@given(st.lists(st.binary(max_size=512), max_size=20))
def test_any_bytes_are_read_without_an_exception(chunks: list[bytes]) -> None:
    feed(chunks)
