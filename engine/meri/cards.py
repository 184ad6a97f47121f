"""Unsun karuta cards as ints (H-5..H-7, H-16..H-18) and the tables built from them at import.

A card is `suit * 15 + index`, suits in the canonical order `P I K O G` (0..4) and the index in
the canonical order of records.md, `Su Un Re Ka So Ro 9 8 7 6 5 4 3 2 1` (0..14). So ascending
ids are the canonical card order, and a set of cards is an int bitmask (bit `c` = card `c`).

Ranks are small ints, higher = stronger. Everything the hot paths need (per-suit masks, trump
masks, the power of every card in a trick for every trump/led suit) is a table built once here,
so `apply` and `legal_actions` do only integer work.
"""

from __future__ import annotations

from engine.bits import bits_of
from engine.errors import MalformedRecord

SUITS = "PIKOG"
SUIT_NAMES = ("Pao", "Isu", "Koppu", "Ouru", "Guru")
PAO, ISU, KOPPU, OURU, GURU = range(5)
LONG_SUITS = (PAO, ISU)  # H-5; numbers run 9 > ... > 1 in these (H-18)
RANKS = ("Su", "Un", "Re", "Ka", "So", "Ro", "9", "8", "7", "6", "5", "4", "3", "2", "1")
RANK_NAMES = ("Sun", "Un", "Rei", "Kaba", "Sota", "Robai") + tuple(str(n) for n in range(9, 0, -1))
SU, UN, RE, KA, SO, RO = range(6)
NCARDS = 75
ALL = (1 << NCARDS) - 1


def number_index(n: int) -> int:
    """The index of the number card `n` (1..9) inside a suit."""
    return 15 - n


CODES: tuple[str, ...] = tuple(s + r for s in SUITS for r in RANKS)
CARD_OF: dict[str, int] = {code: i for i, code in enumerate(CODES)}
SUIT_OF: tuple[int, ...] = tuple(c // 15 for c in range(NCARDS))
INDEX_OF: tuple[int, ...] = tuple(c % 15 for c in range(NCARDS))
SUIT_MASK: tuple[int, ...] = tuple(((1 << 15) - 1) << (15 * s) for s in range(5))
TENKA = PAO * 15 + RO  # H-10: the Pao Robai, always a trump
TENKA_BIT = 1 << TENKA


def card(suit: int, index: int) -> int:
    return suit * 15 + index


def robai(suit: int) -> int:
    """The Robai of `suit` (the native Robai when `suit` is trump, H-11)."""
    return suit * 15 + RO


def code(c: int) -> str:
    return CODES[c]


def parse_card(text: str) -> int:
    """The card of a record code (case-sensitive, H-7); `MalformedRecord` if unknown."""
    try:
        return CARD_OF[text]
    except (KeyError, TypeError):
        raise MalformedRecord(f"unknown card code {text!r} (examples: P9, I1, KSu, ORo)") from None


def name(c: int) -> str:
    """A readable name, e.g. `Koppu Sun`."""
    return f"{SUIT_NAMES[SUIT_OF[c]]} {RANK_NAMES[INDEX_OF[c]]}"


cards_of = bits_of  # The cards of a bitmask in canonical order.


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def codes(cards) -> str:
    return " ".join(CODES[c] for c in sorted(cards))


def _numbers_high_to_low(suit: int) -> list[int]:
    """H-18: 9..1 in the long suits, 1..9 in the round suits."""
    order = range(9, 0, -1) if suit in LONG_SUITS else range(1, 10)
    return [number_index(n) for n in order]


def _plain_order(suit: int) -> list[int]:
    """H-17: indices high to low for a plain suit (the plain Isu Robai between 2 and 1)."""
    order = [SU, UN, RE, KA, SO, RO] + _numbers_high_to_low(suit)
    if suit == ISU:
        order.remove(RO)
        order.insert(order.index(number_index(1)), RO)
    return order


def _trump_order(trump: int) -> list[int]:
    """H-16: cards high to low when `trump` is the trump suit (Tenka included)."""
    high = [card(trump, SU), card(trump, UN), card(trump, SO), TENKA]
    if trump != PAO:
        high.append(robai(trump))
    rest = [card(trump, RE), card(trump, KA)] + [card(trump, i) for i in _numbers_high_to_low(trump)]
    return high + rest


# PLAIN_RANK[c]: 1..15 within c's suit when the suit is plain (H-17, H-18).
PLAIN_RANK: tuple[int, ...] = tuple(
    15 - _plain_order(SUIT_OF[c]).index(INDEX_OF[c]) for c in range(NCARDS))
TRUMP_ORDER: tuple[tuple[int, ...], ...] = tuple(tuple(_trump_order(t)) for t in range(5))
# TRUMP_MASK[t]: every trump when suit t is trump (its 15 cards plus Tenka, H-9, H-10).
TRUMP_MASK: tuple[int, ...] = tuple(SUIT_MASK[t] | TENKA_BIT for t in range(5))
# PLAIN_SUIT_MASK[t][s]: cards of suit s that are not trumps (Tenka is never a Pao card, H-27).
PLAIN_SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if s == t else SUIT_MASK[s] & ~TENKA_BIT for s in range(5)) for t in range(5))
# TRUMP_RANK[t][c]: 1..16 for trumps (higher wins), 0 for non-trumps.
TRUMP_RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple((len(TRUMP_ORDER[t]) - TRUMP_ORDER[t].index(c)) if c in TRUMP_ORDER[t] else 0
          for c in range(NCARDS))
    for t in range(5))
# POWER[t][led][c]: a card's strength in a trick (H-28, H-19): trumps 100 + rank, cards of the
# led plain suit their plain rank, anything else 0. The trick's winner is its first maximum.
POWER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(100 + TRUMP_RANK[t][c] if TRUMP_RANK[t][c] else
              (PLAIN_RANK[c] if SUIT_OF[c] == led else 0) for c in range(NCARDS))
        for led in range(5))
    for t in range(5))


def _combination_pairs(trump: int) -> dict[tuple[int, int], bool]:
    """H-31: (winning trump W, opposing trump Y) -> whether the native Robai is in the pair.

    Tenka never stands in for the native Robai, except that with Pao trump PRo *is* it (D-8).
    """
    su, un, so, re = (card(trump, i) for i in (SU, UN, SO, RE))
    ro = robai(trump)
    pairs = {(su, un): False, (un, so): False, (so, ro): True, (ro, re): True}
    if trump in LONG_SUITS:
        pairs[(card(trump, number_index(2)), card(trump, number_index(1)))] = False
    else:
        pairs[(card(trump, number_index(8)), card(trump, number_index(9)))] = False
    return pairs


COMBINATIONS: tuple[dict[tuple[int, int], bool], ...] = tuple(
    _combination_pairs(t) for t in range(5))
# COMBINATION_WINNERS[t]: the mask of the upper cards W of the pairs (the only winning cards
# whose trick can move points, H-31), so closing a trick asks for a combination only then.
COMBINATION_WINNERS: tuple[int, ...] = tuple(
    sum(1 << w for w, _y in COMBINATIONS[t]) for t in range(5))
