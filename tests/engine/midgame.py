"""Mid-deal positions for AI tests: random legal play from seeded deals, kept where a bot has a
choice to make (`has_choice`; by default more than one legal action)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import registry


def positions(game_name: str, count: int, seed: int,
              has_choice: Callable[[Any], bool] | None = None) -> list:
    """`count` states, each 4..59 random legal actions into a deal, that are not over and pass
    `has_choice` (default: more than one legal action)."""
    game = registry.get(game_name)
    keep = has_choice or (lambda state: len(state.legal_actions()) > 1)
    rng = random.Random(seed)
    out: list = []
    while len(out) < count:
        state = game.new_deal(rng.getrandbits(32))
        for _ in range(rng.randrange(4, 60)):
            if state.is_over:
                break
            state.apply(state.random_action(rng))
        if not state.is_over and keep(state):
            out.append(state)
    return out


def twins(states: list, sample: Callable[[Any, random.Random], Any], seed: int):
    """For each state, `(state, seat, observation, other)`: `other` a different hidden deal with
    the same observation for the seat to act, drawn by `sample(observation, rng)` (a state whose
    draw fails — random play can leave hidden-only constraints — is skipped). The no-peeking
    tests give both to a bot and expect one decision."""
    rng = random.Random(seed)
    for state in states:
        seat = state.to_act
        observation = state.observation(seat)
        try:
            other = sample(observation, rng)
        except ValueError:
            continue
        assert other.observation(seat) == observation
        yield state, seat, observation, other
