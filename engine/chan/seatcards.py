"""Chắn's cards of a seat as record codes, read from an observation (`engine.seatcards`)."""

from __future__ import annotations

from typing import Any

from engine.chan.cards import CODE


def hand_codes(obs: Any) -> list[str]:
    """The codes of the cards in `obs.seat`'s hand, in the deck's canonical order."""
    return [CODE[f] for f, n in enumerate(obs.hand) for _ in range(n)]


def table_codes(obs: Any, seat: int, current: bool = False) -> list[str]:
    """The cards in `seat`'s gate, then its exposed pairs (`current` changes nothing)."""
    gate = [CODE[face] for face, _from_stock in obs.gates[seat]]
    return gate + [CODE[face] for pair in obs.exposed[seat] for face in pair]


def on_table(obs: Any) -> list[tuple[int, list[str]]]:
    """(seat, codes) of the open card, if one is out."""
    return [(obs.open_owner, [CODE[obs.open_card]])] if obs.open_card >= 0 else []


def done(obs: Any) -> int:
    """The cards drawn from the stock."""
    return len(obs.revealed)
