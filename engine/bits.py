"""Bit-set helpers shared by the games (sets of cards or faces as int bitmasks)."""

from __future__ import annotations


def bits_of(mask: int) -> list[int]:
    """The indices of the set bits of `mask`, lowest first (canonical card order in every game)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
