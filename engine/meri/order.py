"""The order a Meri hand is shown in, wherever a person holds it (the kiosk's hand strip and a
phone's page): one owner, pure Python, so the phone server needs no UI toolkit.

Plain suits in deck order, each from its highest card index down; then every trump (the trump
suit and Tenka, H-9/H-10) together at the right. No gaps: a hand of nine fits one row.
"""

from __future__ import annotations

from typing import Any

from engine.game import HandOrder
from engine.meri.cards import CODES, TRUMP_MASK, cards_of


def hand_order(cards: list[int], trump: int) -> list[int]:
    """`cards` left to right: plain suits in deck order, then the trumps (`trump` a suit index)."""
    tmask = TRUMP_MASK[trump]

    def key(c: int) -> tuple[bool, int, int]:
        is_trump = bool(tmask >> c & 1)
        return is_trump, 0 if is_trump else c // 15, -c

    return sorted(cards, key=key)


def shown_hand(obs: Any) -> HandOrder:
    """`obs.seat`'s hand (a `MeriObservation`) as its player sees it."""
    cards = hand_order(cards_of(obs.hand), obs.trump)
    return HandOrder(cards, [CODES[c] for c in cards], [], [])
