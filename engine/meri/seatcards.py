"""Meri's cards of a seat as record codes, read from an observation (`engine.seatcards`)."""

from __future__ import annotations

from typing import Any

from engine.meri.cards import NCARDS, code
from engine.meri.observation import FACE_DOWN


def hand_codes(obs: Any) -> list[str]:
    """The codes of the cards in `obs.seat`'s hand, in the deck's canonical order."""
    return [code(c) for c in range(NCARDS) if obs.hand >> c & 1]


def table_codes(obs: Any, seat: int, current: bool = False) -> list[str]:
    """`seat`'s play in the current trick, else (not with `current`) in the last trick; ""
    stands for a card face down."""
    if any(c != -1 for c in obs.trick):
        card = obs.trick[seat]
    elif obs.tricks and not current:
        card = obs.tricks[-1][1][seat]
    else:
        return []
    if card == -1:
        return []
    return [""] if card == FACE_DOWN else [code(card)]


def on_table(obs: Any) -> list[tuple[int, list[str]]]:
    """(seat, codes) of the current trick's plays, in order from its leader."""
    players = len(obs.hand_sizes)
    seats = ((obs.leader + k) % players for k in range(players))
    return [(s, cards) for s in seats if (cards := table_codes(obs, s, current=True))]


def done(obs: Any) -> int:
    """The tricks complete."""
    return len(obs.tricks)
