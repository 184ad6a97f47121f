"""Tractor's cards of a seat as record codes, read from an observation (`engine.seatcards`)."""

from __future__ import annotations

from typing import Any

from engine.tractor.cards import code_of

PLAYERS = 4


def hand_codes(obs: Any) -> list[str]:
    """The codes of the cards in `obs.seat`'s hand, in the deck's canonical order."""
    return [code_of(k) for k, n in enumerate(obs.hand) for _ in range(n)]


def table_codes(obs: Any, seat: int, current: bool = False) -> list[str]:
    """`seat`'s play in the current trick, else (not with `current`) in the last trick."""
    leader, plays = obs.leader, obs.trick
    if not plays and obs.tricks and not current:
        leader, plays, _winner = obs.tricks[-1]
    index = (seat - leader) % PLAYERS
    return [code_of(k) for k in plays[index]] if index < len(plays) else []


def on_table(obs: Any) -> list[tuple[int, list[str]]]:
    """(seat, codes) of the current trick's plays, in order from its leader."""
    seats = ((obs.leader + k) % PLAYERS for k in range(PLAYERS))
    return [(s, cards) for s in seats if (cards := table_codes(obs, s, current=True))]


def done(obs: Any) -> int:
    """The tricks complete."""
    return len(obs.tricks)
