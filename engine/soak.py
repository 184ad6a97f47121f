"""`python -m engine study GAME soak`: a long random-playout conformance run (tests run short ones).

Every deal is played by uniformly random legal actions through the checked `apply`, recorded as
the UI records it (`GameRecord`). After each deal: it ended; every tenth deal, replaying its
record from JSON reproduces every seat's observation and the result; and the game's own
invariants hold (Chắn: all 100 cards in place, settlements sum to 0, the replayed state is the
same state). The first broken invariant stops the run with the deal's record, so it can be
replayed. Prints deals, decisions and the time taken (engine/measure.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TextIO

from engine import registry
from engine.descriptor import load
from engine.game import State
from engine.measure import peak_rss_mb, print_figures
from engine.records import GameRecord


class SoakFailure(Exception):
    """An invariant broke: the message names it, `record` is the deal's record JSON."""

    def __init__(self, message: str, record: str) -> None:
        super().__init__(message)
        self.record = record


#: The games' own invariants of a finished deal (`again`: the replayed state, when replayed)
#: loaded so far: each descriptor's `invariants` (`engine.info.<game>`), imported when a soak of
#: the game starts (a test may plant one here).
INVARIANTS: dict[str, Callable[[Any, Any | None], str | None]] = {}


def invariants(game_name: str) -> Callable[[Any, Any | None], str | None] | None:
    """`game_name`'s own invariants of a finished deal, if it has any (loaded once)."""
    if game_name not in INVARIANTS:
        ref = registry.info(game_name).invariants if game_name in registry.names() else None
        if ref is None:
            return None
        INVARIANTS[game_name] = load(ref)
    return INVARIANTS[game_name]


def _replay_differs(game_name: str, state: State, again: State) -> str | None:
    game = registry.get(game_name)
    if game.result_json(again) != game.result_json(state):
        return "the replayed record gives another result"
    for seat in range(game.players):
        if again.observation(seat) != state.observation(seat):
            return f"the replayed record shows seat {seat} something else"
    return None


def soak(game_name: str, deals: int, seed: int, out: TextIO) -> dict[str, float]:
    """Play `deals` random deals of `game_name` with every check; print and return the figures.
    `SoakFailure` on the first broken invariant."""
    game = registry.get(game_name)
    extra = invariants(game_name)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for index in range(deals):
        state = game.new_deal(rng.getrandbits(32))
        record = GameRecord.deal(game, index, state=state)
        while not state.is_over:
            record.apply(state.random_action(rng))
        decisions += len(record.actions)
        again = GameRecord.from_json(record.to_json()).state if index % 10 == 0 else None
        problem = _replay_differs(game_name, state, again) if again is not None else None
        if problem is None and extra is not None:
            problem = extra(state, again)
        if problem is not None:
            raise SoakFailure(f"deal {index}: {problem}", record.to_json())
    took = time.perf_counter() - start
    figures = {"deals": float(deals), "decisions": float(decisions), "seconds": took,
               "deals_per_s": deals / took if took > 0 else 0.0, "max_rss_mb": peak_rss_mb()}
    print_figures(f"{game_name} soak, seed {seed}: every invariant held", figures, out, digits=2)
    return figures
