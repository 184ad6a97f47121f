"""Dealing a Chắn deal, and building one from a records.md layout.

`deal(rng)` is the engine's own method (records without a layout, `new_deal(seed)` with
`rng = random.Random(seed)`): the dealer is `rng.randrange(4)` (D-1) unless given; the 100 cards
(faces in canonical order, four copies each) are shuffled by drawing one `rng.random()` key per
card and sorting the cards by key (a uniform shuffle, about ten times faster than
`rng.shuffle`, which matters for search playouts); the dealer takes the first 20, then seats
dealer+1, dealer+2, dealer+3 take 19 each, and the last 23 form the stock, top first (C-7).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.chan.cards import CODE, COPIES, FACES, parse_card
from engine.chan.state import STOCK_SIZE, ChanState
from engine.errors import MalformedRecord

DECK = FACES * COPIES
_DECK = tuple(f for f in range(FACES) for _ in range(COPIES))  # canonical order, 4 copies each
_POSITIONS = range(DECK)


def deal(rng: random.Random, dealer: int | None = None) -> ChanState:
    """A shuffled deal; the dealer is drawn from `rng` first when not given (D-1)."""
    if dealer is None:  # `rng.randrange(4)` written out: the same draws (3 bits while >= 4)
        bits = rng.getrandbits
        dealer = bits(3)
        while dealer >= 4:
            dealer = bits(3)
    rnd = rng.random
    keys = [rnd() for _ in _POSITIONS]
    deck = [_DECK[i] for i in sorted(_POSITIONS, key=keys.__getitem__)]
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for k in range(4):
        seat = (dealer + k) % 4
        size = 20 if k == 0 else 19
        hands[seat] = deck[pos:pos + size]
        pos += size
    return ChanState.deal(dealer, hands, deck[pos:])


def _card(code: str, where: str) -> int:
    try:
        return parse_card(code)
    except MalformedRecord as exc:
        raise MalformedRecord(f"chan layout: {where}: {exc}") from None


def from_layout(layout: Mapping[str, Any]) -> ChanState:
    """The start of the deal a records.md layout describes; `MalformedRecord` if it is wrong."""
    dealer = layout.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise MalformedRecord('chan layout: "dealer" must be a seat 0-3')
    hands_raw = layout.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != 4:
        raise MalformedRecord('chan layout: "hands" must be a list of 4 hands')
    hands: list[list[int]] = []
    for seat, hand in enumerate(hands_raw):
        want = 20 if seat == dealer else 19
        if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
            raise MalformedRecord(f"chan layout: hand {seat} must be a list of card codes")
        if len(hand) != want:
            raise MalformedRecord(
                f"chan layout: hand {seat} has {len(hand)} cards, expected {want}")
        hands.append([_card(c, f"hand {seat}") for c in hand])
    stock_raw = layout.get("stock")
    if not isinstance(stock_raw, list) or not all(isinstance(c, str) for c in stock_raw):
        raise MalformedRecord('chan layout: "stock" must be a list of card codes')
    if len(stock_raw) != STOCK_SIZE:
        raise MalformedRecord(
            f"chan layout: stock has {len(stock_raw)} cards, expected {STOCK_SIZE}")
    stock = [_card(c, "stock") for c in stock_raw]
    counts = [0] * FACES
    for f in [f for h in hands for f in h] + stock:
        counts[f] += 1
    for f in range(FACES):
        if counts[f] > COPIES:
            raise MalformedRecord(
                f"chan layout: {counts[f]} copies of {CODE[f]}, the deck has {COPIES}")
    for f in range(FACES):
        if counts[f] < COPIES:
            raise MalformedRecord(f"chan layout: a {CODE[f]} is missing")
    return ChanState.deal(dealer, hands, stock)


def layout_of(state: ChanState) -> dict[str, Any]:
    """The records.md layout of `state`'s deal (as dealt, before any action)."""
    hands = [[CODE[f] for f in range(FACES) for _ in range(state.dealt[s * FACES + f])]
             for s in range(4)]
    return {"dealer": state.dealer, "hands": hands, "stock": [CODE[f] for f in state.stock]}
