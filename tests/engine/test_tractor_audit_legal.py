"""Independent audit of Tractor's `legal` listing against a brute-force reading of T-16..T-20.

Leads and follows on random deals at several levels and trumps, the first 1000 sorted as plain
strings with the full `legal_count` (records.md), the lazy listing with small limits, and the
burial listing.
"""

from __future__ import annotations

import itertools
import math
import random

from engine.tractor.cards import CODES
from tests.engine.test_tractor_support import GAME, layout
from tests.engine.tractor_audit_deals import replay_ok
from tests.engine.tractor_audit_reference import (
    ALL_TRUMPS,
    RANKS,
    card_strength,
    consecutive,
    hand_codes,
    kind_of,
)


def _my_leads(hand: list[str], level: str, trump: str) -> set[str]:
    """T-16/T-17: singles, pairs, and runs of >= 2 pairs at consecutive ranks (D-3)."""
    out = set()
    distinct = sorted(set(hand), key=kind_of)
    pairs = [c for c in distinct if hand.count(c) == 2]
    for c in distinct:
        out.add(c)
    for c in pairs:
        out.add(f"{c} {c}")
    for size in range(2, len(pairs) + 1):
        for combo in itertools.combinations(pairs, size):
            grp = sorted(combo, key=lambda c: card_strength(c, level, trump)[1])
            if all(consecutive(level, trump, a, b) for a, b in itertools.pairwise(grp)):
                out.add(" ".join(sorted([c for c in combo for _ in range(2)], key=kind_of)))
    return out


def _my_follows(hand: list[str], lead: list[str], level: str, trump: str) -> set[str]:
    """T-18..T-20 read literally, by brute force over every card set of the lead's size."""
    n = len(lead)
    suit = card_strength(lead[0], level, trump)[0]
    in_suit = [c for c in hand if card_strength(c, level, trump)[0] == suit]
    held_pairs = sum(1 for c in set(in_suit) if in_suit.count(c) == 2)
    need = min(n // 2, held_pairs) if n >= 2 else 0
    out = set()
    for combo in set(itertools.combinations(sorted(hand, key=kind_of), n)):
        played = [c for c in combo if card_strength(c, level, trump)[0] == suit]
        if len(played) != min(n, len(in_suit)):
            continue
        if sum(1 for c in set(played) if played.count(c) == 2) < need:
            continue
        out.add(" ".join(combo))
    return out


def test_T16_T20_legal_listing_equals_an_independent_brute_force():
    """Random deals at several levels and trumps: every lead and follow listing (sorted as plain
    strings, first 1000, legal_count) equals the rules read literally."""
    rng = random.Random(20261129)
    checked = 0
    for seed in range(6):
        state = GAME.new_deal(seed)
        state.levels = (seed * 2 % 13, seed * 2 % 13)
        state.level = state.levels[0]
        while not state.is_over:
            if state.phase == "play" and rng.random() < 0.5:
                level = RANKS[state.level]
                trump = ALL_TRUMPS[state.trump]
                hand = hand_codes(state, state.to_act)
                if not state.trick:
                    want = _my_leads(hand, level, trump)
                elif len(state.trick[0]) <= 4 or len(hand) <= 10:
                    lead = [CODES[k] for k in state.trick[0]]
                    want = _my_follows(hand, lead, level, trump)
                else:
                    want = None
                if want is not None:
                    legal, count = GAME.legal_listing(state)
                    assert count == len(want)
                    assert legal == sorted(want)[:1000]
                    checked += 1
            state.apply(state.random_action(rng))
    assert checked > 100


def test_legal_first_1000_of_a_huge_void_follow_with_forced_cards():
    """A 3-pair tractor led into a seat holding one card of the suit: that card is forced and
    any 5 of its other 24 cards complete the play (tens of thousands): `legal` is the first
    1000 of all of them sorted as plain strings, and `legal_count` the full number."""
    lay = layout({0: "3H 3H 4H 4H 5H 5H 2S", 1: "9H"}, exclude={1: "H"})
    acts = ["declare 2S", "pass", "pass", "pass", "bury " + " ".join(lay["kitty"]),
            "3H 3H 4H 4H 5H 5H"]
    out = replay_ok(lay, acts)
    state = GAME.from_layout(lay, 0)
    for text in acts:
        state.apply(GAME.parse_action(text))
    hand = hand_codes(state, 1)
    want = _my_follows(hand, "3H 3H 4H 4H 5H 5H".split(), "2", "S")
    assert out["legal_count"] == len(want) > 4000
    assert out["legal"] == sorted(want)[:1000]
    assert all(" 9H" in t or t.startswith("9H") for t in out["legal"])


def test_legal_listing_by_search_with_small_limits_equals_brute_force():
    """The lazy plain-string listing (used when a set is over 4x the limit) with small limits,
    so it runs on follows that must include pairs (T-20), forced short-suit cards and leads."""
    rng = random.Random(7)
    checked = 0
    for seed in range(10, 14):
        state = GAME.new_deal(seed)
        while not state.is_over:
            if state.phase == "play" and state.trick and len(state.trick[0]) <= 4:
                hand = hand_codes(state, state.to_act)
                lead = [CODES[k] for k in state.trick[0]]
                want = sorted(_my_follows(hand, lead, RANKS[state.level],
                                          ALL_TRUMPS[state.trump]))
                for limit in (1, 3, 10):
                    legal, count = GAME.legal_listing(state, limit)
                    assert legal == want[:limit] and count == len(want)
                checked += 1
            state.apply(state.random_action(rng))
    assert checked > 50


def test_bury_legal_is_the_first_1000_plain_strings_of_every_burial():
    """records.md: `legal` holds the first 1000 of the sorted canonical texts. Every random
    burial of 8 of the dealer's 33 cards that sorts before the 1000th listed text is listed."""
    rng = random.Random(33)
    for seed in (3, 4):
        state = GAME.new_deal(seed)
        while state.phase == "declare":
            state.apply(state.random_action(rng))
        legal, count = GAME.legal_listing(state)
        assert len(legal) == 1000 and legal == sorted(set(legal))
        hand = hand_codes(state, state.to_act)
        assert len(hand) == 33
        distinct = len(set(hand))
        pairs = len(hand) - distinct
        want = sum(math.comb(distinct - pairs, 8 - 2 * p - s) * math.comb(pairs, p)
                   * math.comb(pairs - p, s)
                   for p in range(5) for s in range(9 - 2 * p) if 8 - 2 * p - s >= 0)
        assert count == want
        listed = set(legal)
        first = legal[0].split()[1]
        after = sorted(c for c in hand if kind_of(c) > kind_of(first))[:14]
        hits = 0
        for _ in range(3000):
            text = "bury " + " ".join(sorted([first] + rng.sample(after, 7), key=kind_of))
            if text <= legal[-1]:
                assert text in listed, text
                hits += 1
        assert hits > 50
        # the smallest burials by construction: the hand's string-smallest codes first
        for text in legal[:20]:
            clone = state.clone()
            clone.apply(GAME.parse_action(text))
