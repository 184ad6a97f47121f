"""Fast random playout of a Chắn deal (search rollouts and the conformance tests)."""

from __future__ import annotations

import random

from engine.chan.legal import CHIU, CHIU_OFFER, HEAVENLY, OVER, PASS, WIN, WIN_OFFER, legal_actions
from engine.chan.state import ChanState


def playout(state: ChanState, rng: random.Random) -> ChanState:
    """Play uniformly random legal actions to the end (all rules applied, no re-checks)."""
    do, rnd = state._do, rng.random

    def legal() -> list[int]:  # `state.legal_actions()` without keeping a copy for `apply`
        return legal_actions(state._phase, state.actor, state.open, state.counts, state.mem)

    while True:
        ph = state._phase
        if ph == OVER:
            return state
        # Two-way offers need no list; `int(rnd() * n)` is uniform and cheaper than randrange.
        if ph == WIN_OFFER or ph == HEAVENLY:
            do(WIN if rnd() < 0.5 else PASS)
        elif ph == CHIU_OFFER:
            do(CHIU if rnd() < 0.5 else PASS)
        else:
            acts = legal()
            do(acts[int(rnd() * len(acts))])
