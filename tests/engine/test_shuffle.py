"""engine/shuffle.py: the written-out shuffle is exactly `random.Random.shuffle` (seeds, records
and arena results depend on it)."""

from __future__ import annotations

import random

from engine.shuffle import shuffle, shuffle_steps


def test_shuffle_is_random_shuffle_for_every_deck_size_and_seed():
    for size in (1, 2, 3, 75, 100, 108):
        steps = shuffle_steps(size)
        for seed in range(40):
            ours, theirs = random.Random(seed), random.Random(seed)
            deck, expected = list(range(size)), list(range(size))
            shuffle(deck, ours, steps)
            theirs.shuffle(expected)
            assert deck == expected
            assert ours.getstate() == theirs.getstate()  # the same draws, no more, no fewer
