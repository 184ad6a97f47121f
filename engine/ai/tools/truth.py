"""The "truth" teacher of `imitate`: each candidate move valued by playing the *true* deal on.

A measuring device for training, never a bot: it reads the whole deal. At a decision of a
self-play deal, each of the search adapter's candidate moves is applied to a copy of the true
state, and the deal is played to its end by the game's heuristic in every seat; the move's value
is the seat's figure at the end (the search adapter's `value` of a finished deal: Chắn's
settlement, Meri's team points, Tractor's card points and levels), averaged over `worlds`
re-draws of what is still left to chance (Chắn: the order of the stock not yet drawn; Meri and
Tractor deal every card at the start, so one play-out says it all).

Why it is a fair teacher for a policy that reads only the observation: the true deal is one draw
from exactly the distribution of deals that fit what the seat has seen (the real one), so over
many positions a policy fitted to these values learns what each kind of move is worth *given
the observation* — with the hands that actually happen, not the sampler's guesses, which in
Chắn tell almost nothing about the other hands (`engine.ai.tools.chan_study overlap`). Each
single label is noisy (one deal of the many the seat cannot tell apart); the fit averages it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine import registry
from engine.ai.bots import make_adapter, make_bot

TEACHER = "truth"


def _reshuffle_stock(state: Any, rng: random.Random) -> Any:
    """A copy of a Chắn state with the stock's undrawn cards in a fresh random order."""
    world = state.clone()
    rest = list(state.stock[state.sp:])
    rng.shuffle(rest)
    world.stock = state.stock[:state.sp] + tuple(rest)
    return world


def _same(state: Any, rng: random.Random) -> Any:
    return state.clone()


#: Per game: a copy of the true state with what is left to chance drawn again, and whether it
#: draws anything (if not, one play-out per move is the whole value).
REDRAW: dict[str, tuple[Callable[[Any, random.Random], Any], bool]] = {
    "chan": (_reshuffle_stock, True),
    "meri": (_same, False),
    "tractor": (_same, False),
}


class TruthTeacher:
    """Values a decision's moves on the true deal (module docstring); `choose` the best."""

    def __init__(self, game: str, seed: int, worlds: int) -> None:
        if game not in REDRAW:
            raise ValueError(f"the truth teacher does not know {game}")
        self.game = game
        self.redraw, chance = REDRAW[game]
        self.worlds = worlds if chance else 1
        self.rng = random.Random(seed)
        self.adapter = make_adapter(game, seed)
        self.players = [make_bot(game, "heuristic", seed * 8 + s)
                        for s in range(registry.get(game).players)]

    def finish(self, state: Any) -> None:
        """Play `state` to its end with the heuristic in every seat."""
        players = self.players
        while not state.is_over:
            seat = state.to_act
            state.apply(players[seat].choose(state.observation(seat), state.legal_actions()))

    def values(self, state: Any, seat: int, moves: Sequence[Any]) -> list[float]:
        """The mean value of each move for `seat`, every move on the same re-draws."""
        totals = [0.0] * len(moves)
        for _ in range(self.worlds):
            world = self.redraw(state, self.rng)
            for i, move in enumerate(moves):
                trial = world.clone()
                trial.apply(move)
                self.finish(trial)
                totals[i] += self.adapter.value(trial, seat)
        return [t / self.worlds for t in totals]
