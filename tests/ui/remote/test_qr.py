"""The join URL, its QR code, and the addresses the phone server uses (no network needed)."""

from __future__ import annotations

import socket

import pytest

from ui.remote.address import bind_address, join_url, lan_address, port_problem
from ui.remote.qr import qr_matrix, qr_png


def finder_at(matrix: list[list[bool]], top: int, left: int) -> bool:
    """A 7x7 finder pattern: dark ring, light ring, dark 3x3 centre."""
    for r in range(7):
        for c in range(7):
            ring = min(r, c, 6 - r, 6 - c)
            if matrix[top + r][left + c] != (ring != 1):
                return False
    return True


def test_the_qr_code_of_a_join_url_is_a_well_formed_symbol() -> None:
    url = join_url("192.168.1.20", 8765, "Qm9vZ2llV29vZ2llMTIz")
    assert url == "http://192.168.1.20:8765/#Qm9vZ2llV29vZ2llMTIz"
    matrix = qr_matrix(url)
    size = len(matrix)
    assert all(len(row) == size for row in matrix)
    assert (size - 17) % 4 == 0 and size >= 29  # a version 3+ symbol for ~50 characters
    assert finder_at(matrix, 0, 0) and finder_at(matrix, 0, size - 7)
    assert finder_at(matrix, size - 7, 0)
    assert len(qr_matrix(url + "x" * 100)) > size
    png = qr_png(url, scale=4, border=4)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_ipv6_addresses_are_bracketed() -> None:
    assert join_url("fe80::1", 80, "t") == "http://[fe80::1]:80/#t"
    assert join_url("10.0.0.5", 80, "t", seat=3) == "http://10.0.0.5:80/#t&seat=3"


def test_bind_accepts_everything_an_address_or_an_interface() -> None:
    assert bind_address("") == "0.0.0.0"
    assert bind_address(" 127.0.0.1 ") == "127.0.0.1"
    assert bind_address("lo") == "127.0.0.1"
    with pytest.raises(ValueError, match="nosuch0"):
        bind_address("nosuch0")
    with pytest.raises(ValueError):
        bind_address("x" * 30)
    assert lan_address("127.0.0.1") == "127.0.0.1"
    assert lan_address("nosuch0") == "127.0.0.1"
    assert lan_address("")  # some address, whatever the machine's network


def test_port_problem_says_when_the_port_is_taken() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert port_problem("127.0.0.1", port)
    assert port_problem("127.0.0.1", port) is None
