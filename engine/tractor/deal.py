"""Dealing a Tractor hand (D-2): the engine's own method, shared by records, matches and the AI.

`deal(rng, dealer, levels)`: for the first deal of a match (no dealer yet, `dealer` None) the seat
that starts the bidding is drawn first with `rng.randrange(4)` (D-2); later deals start the
bidding at the known dealer. Then the 108 cards in canonical order (each kind twice) are shuffled
with `rng.shuffle` and dealt one at a time in play order starting at the bidding seat: card i of
the first 100 goes to seat (bid_start + i) mod 4; the last 8, in order, are the kitty.
`new_deal(seed)` is `deal(random.Random(seed), None)`, which is also the first deal of
`new_match(seed)`. A layout's given hands go straight to
`TractorState(levels, dealer, bid_start, hands, kitty)`.
"""

from __future__ import annotations

import random

from engine.shuffle import shuffle, shuffle_steps
from engine.tractor.cards import NKINDS
from engine.tractor.state import TractorState

HAND_CARDS = 100  # 4 hands of 25 (T-6); the remaining 8 cards are the kitty


_DECK = tuple(k for k in range(NKINDS) for _ in range(2))
# (i + 1, bits needed for a draw below i + 1) for the Fisher-Yates steps i = 107 .. 1.
_SHUFFLE_STEPS = shuffle_steps(len(_DECK))


def deal(rng: random.Random, dealer: int | None, levels: tuple[int, int] = (0, 0)) -> TractorState:
    """Shuffle and deal one hand as documented above; `levels` are both teams' level indexes.

    The shuffle is exactly `rng.shuffle(deck)` of CPython's `Random` (`engine.shuffle`).
    """
    bid_start = rng.randrange(4) if dealer is None else dealer
    deck = list(_DECK)
    shuffle(deck, rng, _SHUFFLE_STEPS)
    hands = [[0] * NKINDS for _ in range(4)]
    for i in range(4):  # card i of the first 100 goes to seat (bid_start + i) mod 4
        hand = hands[(bid_start + i) & 3]
        for k in deck[i:HAND_CARDS:4]:
            hand[k] += 1
    return TractorState(levels, dealer, bid_start, hands, deck[HAND_CARDS:])
