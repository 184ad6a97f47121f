"""`random_action` draws exactly as documented, at every decision of random deals: Meri takes
`legal[int(rng.random() * len(legal))]` (one `random()` per decision), Chắn
`legal[rng.randrange(len(legal))]`, both over `legal_actions()` in its order and with the same
draws, no more and no fewer. The speed-ups of both games pick without building the list; arena
results, simulations and the AI's rollouts depend on these draws staying the same.
"""

from __future__ import annotations

import random

import pytest

from engine import registry


def _meri_pick(legal: list, twin: random.Random):
    return legal[int(twin.random() * len(legal))]


def _chan_pick(legal: list, twin: random.Random):
    return legal[twin.randrange(len(legal))]


@pytest.mark.parametrize("game_name, pick", [("meri", _meri_pick), ("chan", _chan_pick)])
def test_random_action_is_the_documented_draw_over_the_legal_list(game_name, pick) -> None:
    game = registry.get(game_name)
    rng = random.Random(19)
    phases = set()
    for _ in range(40):
        state = game.new_deal(rng.getrandbits(32))
        while not state.is_over:
            legal = state.legal_actions()
            twin = random.Random()
            twin.setstate(rng.getstate())
            expected = pick(legal, twin)
            drawn = state.random_action(rng)
            assert drawn == expected, (state.phase, legal)
            assert rng.getstate() == twin.getstate()
            phases.add(state.phase)
            state.apply(drawn)
    assert len(phases) >= 3  # declarations/discards/plays, or discards/responses/offers
