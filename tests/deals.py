"""Finished deals for tests (the replay store, the replay viewer and its steps): a seeded
session played to its end with seeded random legal moves."""

from __future__ import annotations

import random

from engine.session import Session


def finished(game: str, seed: int) -> Session:
    """`game`'s first deal from `seed`, played to its end by random legal moves (same seed)."""
    session = Session.new(game, seed)
    rng = random.Random(seed)
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    return session
