"""The constrained hidden-card sampler (engine/ai/sampler.py): always consistent, never dead-ends."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai import sampler


def _check(deal, pool, capacity, allowed):
    assert Counter(c for cards in deal.values() for c in cards) == Counter(pool)
    for loc, cards in deal.items():
        assert len(cards) == capacity[loc]
        assert all(loc in allowed(c) for c in cards)


def test_tight_constraints_always_give_a_consistent_deal():
    """Suits 0..3, cards c -> suit c % 4; hand1 void in suits 0,1; hand2 void in 2; kitty anything.

    The room is exactly enough, so a careless greedy pass dead-ends often; the exact fallback must
    always find a placement.
    """
    pool = list(range(16)) + [0, 4, 8]  # duplicates allowed
    capacity = {"hand1": 6, "hand2": 8, "kitty": 5}
    voids = {"hand1": {0, 1}, "hand2": {2}, "kitty": set()}

    def allowed(card):
        return [loc for loc in capacity if card % 4 not in voids[loc]]

    for seed in range(300):
        deal = sampler.deal_hidden(pool, capacity, allowed, random.Random(seed))
        _check(deal, pool, capacity, allowed)


def test_exact_assignment_handles_chains():
    """A chain where only one arrangement fits: a forces x, b then must go to y, c to z."""
    pool = [1, 2, 3]
    capacity = {"x": 1, "y": 1, "z": 1}
    table = {1: ["x"], 2: ["x", "y"], 3: ["y", "z", "x"]}
    for seed in range(50):
        options = {c: tuple(table[c]) for c in pool}
        deal = sampler._exact(pool, capacity, options, random.Random(seed))
        assert deal == {"x": [1], "y": [2], "z": [3]}


def test_impossible_constraints_are_reported():
    with pytest.raises(sampler.NoConsistentDeal):
        sampler.deal_hidden([1, 2], {"x": 1, "y": 1}, lambda c: ["x"], random.Random(0))
    with pytest.raises(sampler.NoConsistentDeal):
        sampler.deal_hidden([1, 2, 3], {"x": 1, "y": 1}, lambda c: ["x", "y"], random.Random(0))


def test_unconstrained_sampling_is_roughly_uniform():
    """Card 0 lands in a 1-card location about 1/4 of the time when 4 places are free."""
    counts = Counter()
    for seed in range(2000):
        deal = sampler.deal_hidden([0, 1, 2, 3], {"a": 1, "b": 3}, lambda c: ["a", "b"],
                                   random.Random(seed))
        counts[deal["a"][0]] += 1
    assert all(400 < counts[c] < 600 for c in range(4))
