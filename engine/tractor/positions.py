"""Exact Tractor positions from the few cards that matter (tests, fixtures, bug reports).

`layout(...)` writes a records.md layout where only some cards are placed by hand: `hands` (seat
-> card codes, may be partial) and `kitty` first, then every other card in canonical order to the
emptiest hand (or the kitty) that accepts it, so a test states exactly what it depends on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.tractor.cards import CODE_TO_KIND, CODES, KIND_SUIT, NKINDS, SUITS

SIZES = (25, 25, 25, 25, 8)  # four hands (T-6), then the kitty
KITTY = 4  # the kitty's index among the places cards go to


def _letter(kind: int) -> str:
    """The suit letter of a card for `exclude` (S H C D), J for the jokers."""
    return "J" if KIND_SUIT[kind] == 4 else SUITS[KIND_SUIT[kind]]


def layout(
    hands: Mapping[int, str] | None = None,
    kitty: str | None = None,
    exclude: Mapping[int, str] | None = None,
    levels: tuple[str, str] = ("2", "2"),
    dealer: int | None = 0,
    bid_start: int | None = None,
) -> dict[str, Any]:
    """A full layout: `hands` (seat -> codes, may be partial) and `kitty` placed first, then every
    other card to the emptiest hand (or kitty = place 4) not excluded by `exclude` (seat -> suit
    letters S H C D, J for jokers, that seat must not receive). `ValueError` if a card is placed
    more than twice or the cards cannot all be placed."""
    exclude = dict(exclude or {})
    pool = [k for k in range(NKINDS) for _ in range(2)]
    out: list[list[int]] = [[] for _ in SIZES]
    given = dict(hands or {})
    if kitty is not None:
        given[KITTY] = kitty
    for seat, text in given.items():
        for code in text.split():
            k = CODE_TO_KIND[code]
            if k not in pool:
                raise ValueError(f"{code} is placed more than twice")
            pool.remove(k)
            out[seat].append(k)
    # cards some seat refuses go first, so the seats that accept them still have room
    pool.sort(key=lambda k: (-sum(_letter(k) in x for x in exclude.values()), k))
    for k in pool:
        letter = _letter(k)
        options = [s for s in range(len(SIZES)) if len(out[s]) < SIZES[s]
                   and letter not in exclude.get(s, "")]
        if not options:
            raise ValueError(f"cannot place {CODES[k]}")
        seat = min(options, key=lambda s: (len(out[s]) / SIZES[s], s))
        out[seat].append(k)
    if tuple(len(h) for h in out) != SIZES:
        raise ValueError(f"too many cards placed: {[len(h) for h in out]}")
    data: dict[str, Any] = {
        "levels": list(levels),
        "dealer": dealer,
        "hands": [[CODES[k] for k in sorted(h)] for h in out[:KITTY]],
        "kitty": [CODES[k] for k in out[KITTY]],
    }
    if bid_start is not None:
        data["bid_start"] = bid_start
    return data
