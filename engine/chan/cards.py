"""Chắn cards (C-3…C-5): 25 faces as ints 0..24 in the canonical deck order of records.md.

Face order: `CC`, then Vạn `9M … 2M` (1..8), Sách `9S … 2S` (9..16), Văn `9C … 2C` (17..24).
Because the three suits sit 8 faces apart with the ranks in the same order, the faces of one rank
are `i`, `i+8`, `i+16`, and a 25-bit set of faces splits into three 8-bit rank masks (one per
suit) with two shifts. The rules' pair tests (Cạ by rank, unpaired counts) are bit operations on
those masks; every table here is built once at import.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bits import bits_of
from engine.errors import MalformedRecord

FACES = 25
COPIES = 4
DECK_SIZE = FACES * COPIES  # 100
CC = 0  # Chi chi
SUITS = "MSC"
ALL_FACES = (1 << FACES) - 1

# CODE[f] is the record code of face f; FACE_OF maps a code back (case-sensitive, C-4).
CODE: tuple[str, ...] = ("CC",) + tuple(f"{r}{s}" for s in SUITS for r in range(9, 1, -1))
FACE_OF: dict[str, int] = {code: face for face, code in enumerate(CODE)}
# RANK[f]: 2..9 (0 for Chi chi); SUIT[f]: 0 M, 1 S, 2 C (-1 for Chi chi).
RANK: tuple[int, ...] = (0,) + tuple(9 - (f - 1) % 8 for f in range(1, FACES))
SUIT: tuple[int, ...] = (-1,) + tuple((f - 1) // 8 for f in range(1, FACES))
# RANK_BIT[f]: the bit of f's rank inside an 8-bit rank mask (bit 0 = rank 9 … bit 7 = rank 2).
RANK_BIT: tuple[int, ...] = (0,) + tuple(1 << ((f - 1) % 8) for f in range(1, FACES))
# RANK_FACES[f]: the faces of f's rank in the two other suits (Cạ partners, C-6); () for CC.
RANK_FACES: tuple[tuple[int, ...], ...] = ((),) + tuple(
    tuple(g for g in range(1, FACES) if RANK[g] == RANK[f] and g != f) for f in range(1, FACES)
)

RED: tuple[int, ...] = tuple(FACE_OF[c] for c in ("CC", "9M", "8M", "9S", "8S"))  # C-5
RED_MASK = sum(1 << f for f in RED)
IS_RED: tuple[bool, ...] = tuple(f in RED for f in range(FACES))
TOM: tuple[int, int, int] = (FACE_OF["3M"], FACE_OF["3S"], FACE_OF["7C"])  # S-2, D-8
LEO: tuple[int, int, int] = (FACE_OF["8S"], FACE_OF["9M"], FACE_OF["CC"])  # S-2

VIETNAMESE: tuple[str, ...] = ("Chi chi",) + tuple(
    f"{n} {s}" for s in ("vạn", "sách", "văn")
    for n in ("Cửu", "Bát", "Thất", "Lục", "Ngũ", "Tứ", "Tam", "Nhị")
)


def parse_card(code: str) -> int:
    """The face of a record card code (`3M`, `CC`…); `MalformedRecord` if it is not one."""
    try:
        return FACE_OF[code]
    except (KeyError, TypeError):
        raise MalformedRecord(f"unknown Chắn card code {code!r}") from None


def suit_masks(mask: int) -> tuple[int, int, int]:
    """The 8-bit rank masks of a face set's Vạn, Sách and Văn faces."""
    return (mask >> 1) & 255, (mask >> 9) & 255, (mask >> 17) & 255


def ca_ranks(odd: int) -> int:
    """Rank mask of the Cạ that the D-4 pairing makes among a hand's leftover singles.

    `odd` is the set of faces held an odd number of times: exactly the leftovers once identical
    pairs are taken. A rank with two or three leftover suits pairs one Cạ.
    """
    a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
    return (a & b) | (a & c) | (b & c)


def unpaired_count(odd: int) -> int:
    """Cards left unpaired by the D-4 pairing (identical pairs, then as many Cạ as possible)."""
    a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
    return (a ^ b ^ c).bit_count() + (odd & 1)


def singles_pair_up(odd: int) -> bool:
    """True when the leftover singles all pair up as Cạ (W-2): no Chi chi, 0 or 2 suits per rank."""
    if odd & 1:
        return False
    a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
    return not (a ^ b ^ c) and not (a & b & c)


def ca_partners_mask(discarded: int) -> int:
    """Faces that form a Cạ with some face of `discarded` (X-3): same rank, another suit."""
    a, b, c = (discarded >> 1) & 255, (discarded >> 9) & 255, (discarded >> 17) & 255
    return ((b | c) << 1) | ((a | c) << 9) | ((a | b) << 17)


def has_discarded_ca(discarded: int) -> bool:
    """True when `discarded` holds two faces of one rank in different suits (C-21, D-5)."""
    return bool(ca_ranks(discarded))


faces_of = bits_of  # The faces in a face set, in canonical order.


def counts_of(codes_or_faces: list[int]) -> list[int]:
    """A 25-entry count array of a list of faces."""
    counts = [0] * FACES
    for f in codes_or_faces:
        counts[f] += 1
    return counts


def cards_of_counts(counts: list[int] | tuple[int, ...]) -> list[int]:
    """The faces of a count array, each repeated, in canonical order."""
    return [f for f in range(FACES) for _ in range(counts[f])]


def pair_codes(pairs: Sequence[Sequence[int]]) -> tuple[list[str], list[int]]:
    """Pairs of faces as one row of card codes, and the indexes where each pair after the first
    starts (a gap is drawn there): the table's exposed pairs, the summary's winning hand."""
    codes: list[str] = []
    breaks: list[int] = []
    for pair in pairs:
        if codes:
            breaks.append(len(codes))
        codes.extend(CODE[f] for f in pair)
    return codes, breaks
