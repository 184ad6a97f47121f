"""The fast random playout (AI rollouts, `engine bench`): uniform legal actions to the end."""

from __future__ import annotations

import random

from engine.meri.state import OVER_PHASE, MeriState


def playout(state: MeriState, rng: random.Random) -> MeriState:
    """Play `state` to the end; the same draws as repeated `random_action` + `apply`."""
    while state._phase != OVER_PHASE:
        state.apply(state.random_action(rng))
    return state
