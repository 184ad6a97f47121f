"""Exact Chắn positions from the few cards that matter (tests, fixtures, bug reports).

`layout(...)` writes a records.md layout where only some cards are placed by hand: the given
cards come first in each hand, at the top of the stock and (`bottom`) at its end; every other
card is dealt in canonical order, one at a time round the places that still need cards, so
filled places rarely hold two copies of a face and a test states exactly what it depends on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.chan.cards import CODE, COPIES, FACES, parse_card
from engine.chan.state import STOCK_SIZE


def layout(dealer: int = 0, hands: Mapping[int, str] | None = None, stock: str = "",
           bottom: str = "") -> dict[str, Any]:
    """A full layout: `hands[seat]` = some of its cards ("CC CC 9M"), `stock` = the top of the
    stock, `bottom` = its last cards. `ValueError` if a card is given too often or a place
    gets too many cards."""
    hands = hands or {}
    given = {s: hands.get(s, "").split() for s in range(4)}
    top = stock.split()
    low = bottom.split()
    left = [COPIES] * FACES
    for codes in list(given.values()) + [top, low]:
        for c in codes:
            left[parse_card(c)] -= 1
    if any(n < 0 for n in left):
        raise ValueError("too many copies given")
    need = {s: (20 if s == dealer else 19) - len(given[s]) for s in range(4)}
    need[4] = STOCK_SIZE - len(top) - len(low)
    if any(n < 0 for n in need.values()):
        raise ValueError("too many cards given")
    out: dict[int, list[str]] = {s: list(given[s]) for s in range(4)}
    out[4] = list(top)
    places = [p for p in range(5) if need[p] > 0]
    i = 0
    for f in range(FACES):
        for _ in range(left[f]):
            while need[places[i % len(places)]] == 0:
                i += 1
            p = places[i % len(places)]
            out[p].append(CODE[f])
            need[p] -= 1
            i += 1
    return {"dealer": dealer, "hands": [out[s] for s in range(4)], "stock": out[4] + low}
