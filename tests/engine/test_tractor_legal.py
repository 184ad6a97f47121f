"""The lazy legal sets (engine/tractor/legal.py) against brute force: counts, indexing, sampling,
membership and records.md's first-N plain-string listing (T-19, T-20 sets of any size)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.tractor.cards import CODES
from engine.tractor.legal import Combos


def _brute(fixed, pool, m, q):
    cards = [k for k, c in pool for _ in range(c)]
    out = set()
    for combo in itertools.combinations(cards, m):
        pairs = sum(1 for k in set(combo) if combo.count(k) == 2)
        if pairs >= q:
            out.add(tuple(sorted(fixed + combo)))
    return out


def _text(prefix_text, action, cut):
    return prefix_text + " ".join(CODES[k] for k in action[cut:])


@pytest.mark.parametrize("seed", range(12))
def test_combos_match_brute_force(seed):
    rng = random.Random(seed)
    kinds = sorted(rng.sample(range(54), rng.randint(5, 11)))
    pool_kinds = kinds[: len(kinds) - (2 if seed % 3 == 0 else 0)]
    fixed_kinds = kinds[len(pool_kinds):]
    pool = [(k, rng.choice((1, 2))) for k in pool_kinds]
    fixed = tuple(sorted(fixed_kinds))
    m = rng.randint(1, min(6, sum(c for _k, c in pool)))
    q = 0 if fixed else rng.randint(0, m // 2)
    prefix, head = ((-3,), "bury ") if seed % 2 else ((), "")
    expected = {prefix + a for a in _brute(fixed, pool, m, q)}
    legal = Combos(prefix, fixed, pool, m, q, lambda a: a in expected, head)
    assert len(legal) == len(expected)
    listed = list(legal)
    assert len(set(listed)) == len(listed) and set(listed) == expected
    assert [legal[i] for i in range(len(legal))] == listed  # index order = iteration order
    for _ in range(10):
        if expected:
            assert legal.sample(rng) in expected
    texts = sorted(_text(head, a, len(prefix)) for a in expected)
    for limit in (1, 7, max(1, len(texts) // 5), len(texts) + 3):
        assert legal.texts(limit) == texts[:limit]


def test_combos_listing_by_search_matches_a_full_sort_on_a_large_set():
    """Above 4 x limit the listing is a pruned search, not a sort: check it on ~20 000 sets."""
    rng = random.Random(3)
    pool = [(k, rng.choice((1, 2))) for k in sorted(rng.sample(range(54), 16))]
    for fixed, m, q in (((), 5, 0), ((), 6, 2), ((7, 7, 9), 3, 0)):
        pool_ = [(k, c) for k, c in pool if k not in fixed]
        expected = _brute(fixed, pool_, m, q)
        legal = Combos((), fixed, pool_, m, q, lambda a, e=expected: a in e)
        assert len(legal) == len(expected) > 400
        texts = sorted(" ".join(CODES[k] for k in a) for a in expected)
        assert legal.texts(100) == texts[:100]


@pytest.mark.parametrize("seed", range(6))
def test_a_pickled_set_keeps_its_actions_and_its_membership(seed):
    """A lazy set sent to the UI's bot process pickles as its shape: the same actions, and its
    membership test (read off the shape) answers as the state's checker does (T-18..T-21), on
    sampled legal actions and on near misses (a card more or less, cards not held, any order)."""
    import pickle

    from engine import registry

    state = registry.get("tractor").new_deal(seed)
    rng = random.Random(seed)
    sets = answers = 0
    seen = {True: 0, False: 0}
    while not state.is_over:
        legal = state.legal_actions()
        if hasattr(legal, "sample"):
            back = pickle.loads(pickle.dumps(legal))
            assert len(back) == len(legal) and back.head == legal.head
            assert [back[i] for i in range(0, len(legal), max(1, len(legal) // 7))] == \
                [legal[i] for i in range(0, len(legal), max(1, len(legal) // 7))]
            held = [k for k, c in enumerate(state.hands[state.actor]) for _ in range(c)]
            size = len(legal[0]) - len(legal.prefix)
            tries = [legal.sample(rng) for _ in range(10)]
            for _ in range(40):
                cards = rng.sample(held, min(size, len(held)))
                tries.append(legal.prefix + tuple(cards))
                tries.append(legal.prefix + tuple(reversed(cards)))
                tries.append(legal.prefix + tuple(cards[1:]))
                tries.append(legal.prefix + tuple(cards) + (rng.randrange(54),))
                tries.append(legal.prefix + tuple(rng.randrange(54) for _ in range(size)))
            for action in tries:
                verdict = action in legal
                assert (action in back) == verdict, action
                seen[verdict] += 1
                answers += 1
            sets += 1
        state.apply(state.random_action(rng))
    assert sets > 10 and seen[True] > 100 and seen[False] > 100, (sets, seen)
