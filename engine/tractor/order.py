"""The order a Tractor hand is shown in, wherever a person holds it (the kiosk's hand strip and
a phone's page): one owner, pure Python, so the phone server needs no UI toolkit.

Plain suits in the order spades, hearts, clubs, diamonds (black and red alternate), each
strongest first; then every trump together, strongest first (T-13). Before trump is known the
level-rank cards and jokers form the last group, so what a player could declare is in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import HandOrder
from engine.tractor.cards import BJ, CODES, KIND_RANK, KIND_SUIT, NKINDS, RJ, TRUMP, context

SUIT_ORDER = (0, 1, 2, 3)  # spades, hearts, clubs, diamonds: black and red alternate


def hand_kinds(counts: Sequence[int]) -> list[int]:
    """A hand of 54 counts as kinds, canonical order, duplicates repeated."""
    return [k for k in range(NKINDS) for _ in range(counts[k])]


def hand_order(counts: Sequence[int], level: int, trump: int) -> tuple[list[int], list[int]]:
    """The hand left to right and the indexes where a new group (a suit, or the trumps) starts.

    `level` is the deal's level rank, `trump` its trump suit (4 = no trump; < 0 while it is not
    known yet)."""
    kinds = hand_kinds(counts)
    if trump >= 0:
        ctx = context(level, trump)
        order = {s: i for i, s in enumerate(SUIT_ORDER)}
        order[TRUMP] = 4
        key = [(order[ctx.eff[k]], -ctx.pos[k], k) for k in range(NKINDS)]
        group = [order[ctx.eff[k]] for k in range(NKINDS)]
    else:
        key, group = [], []
        for k in range(NKINDS):
            special = k in (RJ, BJ) or KIND_RANK[k] == level
            g = 4 if special else KIND_SUIT[k]
            key.append((g, k))
            group.append(g)
    kinds.sort(key=lambda k: key[k])
    breaks = [i for i in range(1, len(kinds)) if group[kinds[i]] != group[kinds[i - 1]]]
    return kinds, breaks


def shown_hand(obs: Any) -> HandOrder:
    """`obs.seat`'s hand (a `TractorObservation`) as its player sees it."""
    kinds, breaks = hand_order(obs.hand, obs.level, obs.trump)
    return HandOrder(kinds, [CODES[k] for k in kinds], breaks, [])
