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
