"""Chắn's own invariants of a finished deal, which the soak (`engine.soak`) checks besides every
game's: named by its descriptor (`engine.info.chan`)."""

from __future__ import annotations

from typing import Any


def card_total(state: Any) -> list[int]:
    """How many copies of each face are somewhere in `state`: hands, exposed pairs, gates and
    the unrevealed stock (4 of each in a sound deal)."""
    faces = len(state.counts) // 4
    total = [0] * faces
    for seat in range(4):
        for face in range(faces):
            total[face] += state.counts[seat * faces + face]
        for pair in state.exposed[seat]:
            for face in pair:
                total[face] += 1
        for gate in state.gates[seat]:
            total[gate & 31] += 1
    for face in state.stock[state.sp:]:
        total[face] += 1
    return total


def finished_deal(state: Any, again: Any | None) -> str | None:
    """Chắn: settlements sum to 0, every face's four copies are somewhere (`card_total`), and
    a replayed record gives the very same state."""
    if sum(state.result["settlement"]) != 0:
        return "settlements do not sum to 0"
    total = card_total(state)
    if total != [4] * len(total):
        return f"cards not all in place: {total}"
    if again is not None and again.snapshot() != state.snapshot():
        return "the replayed record gives another state"
    return None
