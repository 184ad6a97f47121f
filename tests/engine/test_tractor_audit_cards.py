"""Independent audit of the Tractor card order against shared/rules/tractor.md.

Every card's effective suit and order at every level and trump (T-13, T-14), and tractors of two
pairs through every rank and the longest trump runs (T-17, D-3), against the audit's own reading
(tests/engine/tractor_audit_reference.py).
"""

from __future__ import annotations

import itertools

import pytest

from engine.tractor.cards import CODES, context, shape
from tests.engine.tractor_audit_reference import (
    ALL_TRUMPS,
    RANKS,
    SUITS,
    TRUMP_ID,
    card_strength,
    consecutive,
    kind_of,
)


@pytest.mark.parametrize("level", RANKS)
def test_T13_T14_effective_suit_and_order_of_every_card_at_every_level(level):
    for trump in ALL_TRUMPS:
        ctx = context(RANKS.index(level), TRUMP_ID[trump])
        for a, ca in enumerate(CODES):
            sa, ga = card_strength(ca, level, trump)
            assert ctx.is_trump(a) == (sa == "T"), (level, trump, ca)
            if sa != "T":
                assert ctx.eff[a] == SUITS.index(sa), (level, trump, ca)
            for b, cb in enumerate(CODES):
                sb, gb = card_strength(cb, level, trump)
                if sa != sb:
                    continue
                assert (ctx.pos[a] < ctx.pos[b]) == (ga < gb), (level, trump, ca, cb)
                assert (ctx.pos[a] == ctx.pos[b]) == (ga == gb), (level, trump, ca, cb)


@pytest.mark.parametrize("level", RANKS)
def test_T17_D3_two_pair_tractors_through_every_rank_at_every_level(level):
    """Every pair of pairs at every level and trump (incl. level A, level 2, no-trump): a
    tractor exactly when the two ranks are adjacent in the effective suit's order."""
    for trump in ALL_TRUMPS:
        ctx = context(RANKS.index(level), TRUMP_ID[trump])
        for a, b in itertools.combinations(range(len(CODES)), 2):
            cards = (a, a, b, b)
            want = consecutive(level, trump, CODES[a], CODES[b])
            got = shape(ctx, cards)[0] >= 0
            assert got == want, (level, trump, CODES[a], CODES[b])


def _chain(level: str, trump: str) -> list[list[str]]:
    """The trump chain as groups of codes, lowest first (T-13, D-3)."""
    groups: dict[int, list[str]] = {}
    for code in CODES:
        suit, g = card_strength(code, level, trump)
        if suit == "T":
            groups.setdefault(g, []).append(code)
    return [groups[g] for g in sorted(groups)]


@pytest.mark.parametrize(("level", "trump"), [("2", "S"), ("A", "H"), ("7", "D"), ("2", "NT"),
                                              ("A", "NT"), ("10", "C"), ("K", "S")])
def test_D3_longest_trump_runs_are_tractors_and_skipping_a_rank_is_not(level, trump):
    ctx = context(RANKS.index(level), TRUMP_ID[trump])
    chain = _chain(level, trump)
    for length in (2, 3, 5, len(chain)):
        for start in range(len(chain) - length + 1):
            codes = [grp[-1] for grp in chain[start:start + length]]
            cards = tuple(sorted(kind_of(c) for c in codes for _ in range(2)))
            suit, _top = shape(ctx, cards)
            assert suit == 4, (level, trump, codes)
            # the same run with its second pair replaced by the one two ranks up is broken
            if start + length < len(chain) and length >= 3:
                broken = codes[:1] + codes[2:] + [chain[start + length][-1]]
                cards = tuple(sorted(kind_of(c) for c in broken for _ in range(2)))
                assert shape(ctx, cards)[0] < 0, (level, trump, broken)
    # off-suit level pairs are equal and never consecutive with each other (T-17)
    if trump != "NT":
        off = [f"{level}{s}" for s in SUITS if s != trump]
        cards = tuple(sorted(kind_of(c) for c in off[:2] for _ in range(2)))
        assert shape(ctx, cards)[0] < 0
