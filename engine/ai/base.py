"""The common bot interface and the random legal bot.

A bot sees only `state.observation(seat)` and the legal actions of the seat it plays; it never
gets the state itself, so it cannot read another seat's hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.game import Action


class Bot(Protocol):
    """Anything with `choose(observation, legal_actions) -> action`."""

    name: str

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action, from its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int = 0, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        sample = getattr(legal_actions, "sample", None)
        if sample is not None:  # lazy legal sets (Tractor) sample without listing
            return sample(self.rng)
        return legal_actions[self.rng.randrange(len(legal_actions))]
