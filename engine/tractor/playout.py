"""Fast random playouts of a Tractor deal (benchmarks, conformance tests, the arena's random bot)."""

from __future__ import annotations

import random

from engine.tractor.state import OVER, TractorState


def playout(state: TractorState, rng: random.Random) -> TractorState:
    """Finish `state` with uniformly random legal actions (every rule applied); returns it.

    Actions come from `random_action`, which draws only legal ones, so they are applied without
    the checks of `apply` (the fast path).
    """
    while state.ph != OVER:
        state._do(state.random_action(rng))
    return state
