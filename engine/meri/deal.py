"""Dealing a Meri hand (H-8, D-1): the engine's own method, shared by records, matches and the AI.

`deal(rng, dealer)`: shuffle the 75 cards (`rng.shuffle` of ids 0..74, written out in
`shuffled_deck`), deal three rounds of three cards clockwise from the dealer's left (seat
dealer+1 first), and keep the last three cards in order as the undealt cards, the first of them
the Okie. A record without a layout draws the dealer first (`rng.randrange(8)`); a match draws
its first dealer once and then deals every hand from its one RNG. A layout's given hands go
straight to `MeriState(dealer, hands, undealt)`.
"""

from __future__ import annotations

import random

from engine.meri.cards import NCARDS
from engine.meri.state import MeriState
from engine.shuffle import shuffle, shuffle_steps

_BIT = tuple(1 << c for c in range(NCARDS))
# _DEAL_POSITIONS[k]: the deck positions the (k+1)-th seat from the dealer's left receives when
# dealing three rounds of three cards (H-8): positions 3k..3k+2, then 24+3k.., then 48+3k...
_DEAL_POSITIONS = tuple(tuple(24 * r + 3 * k + i for r in range(3) for i in range(3))
                        for k in range(8))


# (i + 1, bits needed for a draw below i + 1) for the Fisher-Yates steps i = 74 .. 1.
_SHUFFLE_STEPS = shuffle_steps(NCARDS)


def shuffled_deck(rng: random.Random) -> list[int]:
    """The ids 0..74 shuffled: exactly `rng.shuffle(list(range(75)))` (`engine.shuffle`)."""
    deck = list(range(NCARDS))
    shuffle(deck, rng, _SHUFFLE_STEPS)
    return deck


def deal(rng: random.Random, dealer: int) -> MeriState:
    """Shuffle and deal one hand with `dealer` (H-8): 3 rounds of 3 from the dealer's left."""
    deck = list(_BIT)  # the cards as one-bit masks: shuffled, the same permutation as the ids
    shuffle(deck, rng, _SHUFFLE_STEPS)
    hands = [0] * 8
    d = deck
    for k, (p0, p1, p2, p3, p4, p5, p6, p7, p8) in enumerate(_DEAL_POSITIONS):
        # Unrolled on purpose: this runs once per deal in every benchmark and AI rollout.
        hands[(dealer + 1 + k) & 7] = (d[p0] | d[p1] | d[p2] | d[p3] | d[p4] | d[p5] | d[p6]
                                       | d[p7] | d[p8])
    return MeriState(dealer, hands, (d[72].bit_length() - 1, d[73].bit_length() - 1,
                                     d[74].bit_length() - 1))
