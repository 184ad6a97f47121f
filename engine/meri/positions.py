"""Exact Meri positions from the few cards that matter (tests, fixtures, bug reports).

`layout(...)` writes a records.md layout where only some cards are placed by hand: the rest are
dealt deterministically, plain cards first (in canonical order, seat by seat) and the trumps
left over round-robin to the `sinks` seats, so a test states exactly what it depends on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.meri.cards import CARD_OF, CODES, NCARDS, SUIT_OF, TRUMP_MASK


def _parse(text: str) -> list[int]:
    return [CARD_OF[w] for w in text.split()]


def layout(
    hands: Mapping[int, str],
    undealt: str,
    dealer: int = 0,
    sinks: Iterable[int] = range(8),
) -> dict:
    """A layout: `hands[seat]` = some of its cards ("KSu P3"), `undealt` = 1-3 cards, Okie first."""
    placed = {s: _parse(t) for s, t in hands.items()}
    rest_undealt = _parse(undealt)
    trump = SUIT_OF[rest_undealt[0]]
    tmask = TRUMP_MASK[trump]
    used = {c for cs in placed.values() for c in cs} | set(rest_undealt)
    if len(used) != sum(len(cs) for cs in placed.values()) + len(rest_undealt):
        raise ValueError("a card is placed twice")
    free = [c for c in range(NCARDS) if c not in used]
    trumps = [c for c in free if tmask >> c & 1]
    plain = [c for c in free if not tmask >> c & 1]
    out = {s: list(placed.get(s, [])) for s in range(8)}
    sink_list = [s for s in sinks]
    k = 0
    while trumps:
        room = [s for s in sink_list if len(out[s]) < 9]
        if not room:
            break
        out[room[k % len(room)]].append(trumps.pop(0))
        k += 1
    for s in range(8):
        while len(out[s]) < 9:
            out[s].append(plain.pop(0))
    left = trumps + plain
    while len(rest_undealt) < 3:
        rest_undealt.append(left.pop(0))
    if left:
        raise ValueError("too many cards placed")
    return {
        "dealer": dealer,
        "hands": [[CODES[c] for c in sorted(out[s])] for s in range(8)],
        "undealt": [CODES[c] for c in rest_undealt],
    }
