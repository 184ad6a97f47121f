"""An independent reading of shared/rules/tractor.md for the Tractor audit tests.

Written from the rules text alone, not from the engine (nothing imported from
`engine.tractor.state`; only the card codes' canonical order from `engine.tractor.cards`): each
card's effective suit and strength group at any level and trump (T-13, T-14), consecutive ranks
for tractors (T-17, D-3), card points (T-25), the T-27 bands, and a hand read as codes. The
audit modules compare the engine with it.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.tractor.cards import CODES

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHCD"
POINT_OF = {"5": 5, "10": 10, "K": 10}


def rank_suit(code: str) -> tuple[str, str]:
    """A suited code's (rank, suit): "10H" -> ("10", "H")."""
    return code[:-1], code[-1]


def kind_of(code: str) -> int:
    """A code's index in the canonical order (records.md), to sort cards as the engine."""
    return CODES.index(code)


# -- an independent reading of T-13, T-14, T-17 and D-3 ---------------------------------------
@functools.cache
def card_strength(code: str, level: str, trump: str) -> tuple[str, int]:
    """(effective suit, strength group) from the rules text alone; trump = "S".."D" or "NT".

    Cards of one effective suit with equal groups are equal (off-suit level cards); consecutive
    groups are consecutive ranks for tractors (T-17, D-3).
    """
    if code == "RJ":
        return "T", 100
    if code == "BJ":
        return "T", 99
    rank, suit = rank_suit(code)
    plain = [r for r in RANKS if r != level]  # level rank removed (T-14, T-17)
    if rank == level:
        if trump == "NT":
            return "T", 98  # T-13 no-trump: all level cards equal, below the Black Joker
        return "T", 98 if suit == trump else 97  # trump-suit level above off-suit level
    if suit == trump:
        return "T", 85 + plain.index(rank)  # trump suit A..2 below the level cards
    return suit, plain.index(rank)


@functools.cache
def strength_groups(level: str, trump: str) -> dict[str, list[int]]:
    """Effective suit -> its sorted distinct strength groups, to test adjacency."""
    out: dict[str, set[int]] = {}
    for code in CODES:
        suit, g = card_strength(code, level, trump)
        out.setdefault(suit, set()).add(g)
    return {s: sorted(v) for s, v in out.items()}


def consecutive(level: str, trump: str, a: str, b: str) -> bool:
    sa, ga = card_strength(a, level, trump)
    sb, gb = card_strength(b, level, trump)
    if sa != sb or ga == gb:
        return False
    order = strength_groups(level, trump)[sa]
    return abs(order.index(ga) - order.index(gb)) == 1


ALL_TRUMPS = ["S", "H", "C", "D", "NT"]
TRUMP_ID = {"S": 0, "H": 1, "C": 2, "D": 3, "NT": 4}


def card_points(codes: list[str]) -> int:
    """T-25: fives 5, tens and kings 10."""
    return sum(POINT_OF.get(rank_suit(c)[0], 0) for c in codes if c not in ("RJ", "BJ"))


def band(total: int) -> tuple[str, int]:
    """T-27 read literally: (team that goes up, levels)."""
    if total == 0:
        return "def", 3
    if 5 <= total <= 35:
        return "def", 2
    if 40 <= total <= 75:
        return "def", 1
    if 80 <= total <= 115:
        return "att", 0
    return "att", (total - 80) // 40


def hand_codes(state: Any, seat: int) -> list[str]:
    """The seat's hand as codes, one entry per copy."""
    return [CODES[k] for k, c in enumerate(state.hands[seat]) for _ in range(c)]
