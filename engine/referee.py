"""The tiny referee loop that plays bots against each other (tests, simulate, arena, UI alike)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.game import Action, State


def play_out(
    state: State,
    bots: Sequence[Any],
    on_action: Callable[[int, Action], None] | None = None,
) -> State:
    """Let `bots[seat]` decide for every seat until the deal is over; returns the same state."""
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        action = bots[seat].choose(state.observation(seat), state.legal_actions())
        if on_action is not None:
            on_action(seat, action)
        state.apply(action)
    return state
