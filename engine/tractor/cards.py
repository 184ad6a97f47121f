"""Tractor cards as small ints, and the per-deal trump tables (T-4, T-5, T-13, T-14, T-17).

A card *kind* is an int 0..53 numbered in the canonical order of records.md, so sorting kinds
sorts cards canonically: 0 = `RJ`, 1 = `BJ`, then spades A..2 (2..14), hearts, clubs, diamonds.
Two decks make two identical copies of each kind (T-4); hands are lists of 54 counts 0..2.

`Context(level, trump)` holds the tables of one deal once trump is known, built once and cached:
every kind's effective suit (T-14) and its *position* — a strength that is also the chain index
used for tractors (T-17, D-3): two pairs are consecutive exactly when their positions differ by 1,
and off-suit level cards share one position, so they are equal and never consecutive.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter

SUITS = "SHCD"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RJ, BJ = 0, 1
NKINDS = 54
NT = 4  # the trump "suit" of a no-trump deal (T-12); also the effective suit id of trumps
TRUMP = 4


def kind_of(suit: int, rank: int) -> int:
    """The kind of the card of suit `suit` (0..3 = S H C D) and rank index `rank` (0 = 2 .. 12 = A)."""
    return 2 + suit * 13 + (12 - rank)


KIND_SUIT: tuple[int, ...] = (4, 4) + tuple(s for s in range(4) for _ in range(13))
KIND_RANK: tuple[int, ...] = (-1, -1) + tuple(12 - r for _ in range(4) for r in range(13))
CODES: tuple[str, ...] = ("RJ", "BJ") + tuple(
    RANK_NAMES[12 - r] + SUITS[s] for s in range(4) for r in range(13)
)
CODE_TO_KIND: dict[str, int] = {code: k for k, code in enumerate(CODES)}
RANK_TO_INDEX: dict[str, int] = {name: i for i, name in enumerate(RANK_NAMES)}
_POINT_OF_RANK = {3: 5, 8: 10, 11: 10}  # fives, tens, kings (T-25)
POINTS: tuple[int, ...] = tuple(_POINT_OF_RANK.get(KIND_RANK[k], 0) for k in range(NKINDS))
TOTAL_POINTS = 2 * sum(POINTS)  # 200
assert TOTAL_POINTS == 200


KINDS: tuple[int, ...] = tuple(range(NKINDS))
#: The one tuple of each single and each pair, so listing leads allocates no tuple.
SINGLE: tuple[tuple[int], ...] = tuple((k,) for k in range(NKINDS))
PAIR: tuple[tuple[int, int], ...] = tuple((k, k) for k in range(NKINDS))


def code_of(kind: int) -> str:
    return CODES[kind]


def parse_card(code: str) -> int:
    """The kind of a card code (case-sensitive); `KeyError` if it is not a code."""
    return CODE_TO_KIND[code]


def format_cards(kinds: tuple[int, ...] | list[int]) -> str:
    """Card codes in canonical order, separated by spaces."""
    return " ".join(CODES[k] for k in sorted(kinds))


class Context:
    """Trump tables of one deal: level rank `level` (0..12) and `trump` suit (0..3, or NT = 4)."""

    __slots__ = ("level", "trump", "eff", "pos", "suit_kinds", "suit_counts", "top_plain")

    def __init__(self, level: int, trump: int) -> None:
        self.level = level
        self.trump = trump
        eff = [0] * NKINDS
        pos = [0] * NKINDS
        for k in range(2, NKINDS):
            suit, rank = KIND_SUIT[k], KIND_RANK[k]
            if rank == level:
                eff[k] = TRUMP
                pos[k] = 13 if suit == trump else 12  # T-13: trump-suit level above off-suit level
            else:
                eff[k] = TRUMP if suit == trump else suit
                pos[k] = rank if rank < level else rank - 1  # level rank removed (T-14, T-17)
        base = 14 if trump != NT else 13
        eff[BJ] = eff[RJ] = TRUMP
        pos[BJ], pos[RJ] = base, base + 1
        self.eff: tuple[int, ...] = tuple(eff)
        self.pos: tuple[int, ...] = tuple(pos)
        # Kinds of each effective suit, strongest first (ties in canonical order).
        self.suit_kinds: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted((k for k in range(NKINDS) if eff[k] == e), key=lambda k: (-pos[k], k)))
            for e in range(5)
        )
        # suit_counts[e](hand): the hand's counts of suit_kinds[e], in that order, read in C
        # (`itertools.compress(suit_kinds[e], ...)` then lists the held kinds without a loop).
        self.suit_counts = tuple(_counts_getter(kinds) for kinds in self.suit_kinds)
        self.top_plain = 11  # highest position of a plain (non-trump) card

    def is_trump(self, kind: int) -> bool:
        return self.eff[kind] == TRUMP


def _counts_getter(kinds: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function giving `tuple(hand[k] for k in kinds)` (itemgetter, except for 0 or 1 kinds)."""
    if len(kinds) >= 2:
        return itemgetter(*kinds)
    return lambda hand: tuple(hand[k] for k in kinds)


@cache
def context(level: int, trump: int) -> Context:
    """The cached tables for a level rank and trump suit (65 combinations at most)."""
    return Context(level, trump)


def shape(ctx: Context, cards: tuple[int, ...]) -> tuple[int, int]:
    """(effective suit, top position) if sorted `cards` form a single, pair or tractor (T-16/T-17).

    Returns (-1, -1) otherwise. Cards must be sorted (identical kinds adjacent).
    """
    n = len(cards)
    eff, pos = ctx.eff, ctx.pos
    first = cards[0]
    if n == 1:
        return eff[first], pos[first]
    if n & 1:
        return -1, -1
    suit = eff[first]
    if n == 2:
        return (suit, pos[first]) if cards[1] == first else (-1, -1)
    positions = []
    for i in range(0, n, 2):
        a = cards[i]
        if cards[i + 1] != a or eff[a] != suit or (i + 2 < n and cards[i + 2] == a):
            return -1, -1
        positions.append(pos[a])
    positions.sort()
    for i in range(1, len(positions)):
        if positions[i] != positions[i - 1] + 1:
            return -1, -1
    return suit, positions[-1]
