"""A learned leaf value for the Meri search: a linear model over the position at a trick boundary.

With the model on (`MeriAdapter.use_model`), a playout from the middle of the play stops
`engine.ai.meri_search.HORIZON` tricks on and is scored here instead of being played to the end.
The plain score of an unfinished deal would be the team points won so far (H-30..H-33); the
learned one predicts the deal's final team score difference (the search's value of a finished
playout, H-33) from the position: the points so far, who holds the trumps — the top five of the
trump order one by one (they decide the Meris and the combinations, H-31, H-32) — the plain
masters (the highest card still in play of each plain suit), the plain Suns and Uns, the voids
(where a face-down trump can win, H-24), and who leads the next trick. It is `w · φ`, with `φ`
from team 0's side, every feature team 0's count minus team 1's (so the value of team 1 is its
negative, like the final score; no bias: the teams are alike), and `w` fitted by
`engine.ai.tools.train meri` to the outcome of heuristic self-play. Each base feature is also taken
× the share of tricks still to play, so its weight can fade as the deal runs out.

What it sees: at a leaf of the search, a *sampled* world (drawn from the deciding seat's
observation, `MeriAdapter.sample`), so the hidden hands in it are guesses, never the real hidden
cards. In training the features are taken from the true deal (the target is that deal's
outcome).

Two fits, both from positions of heuristic self-play (`python -m engine.ai.tools.train meri
--deals 20000 --seed 1 [--target playouts]`, held-out: 28000 positions of the last 4000 deals):
to the deal's outcome, MSE 6.58 against 12.15 for the score so far and 19.56 for 0; to the mean
of 4 of the search's own playouts from the position (`--target playouts`, the shipped
`engine/ai/weights/meri.json`, about a CPU minute), MSE 1.98 against 7.39 and 14.49. Neither
makes the search measurably stronger, so it is off in the levels: `engine.ai.meri_search`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.meri.cards import NCARDS, PLAIN_RANK, PLAIN_SUIT_MASK, TRUMP_MASK, TRUMP_ORDER

#: The base features, team 0 minus team 1.
BASE_FEATURES = (
    "score_diff",  # the team points won so far (tricks and combinations, H-30..H-33)
    "trumps",  # trumps held
    "trump1",  # the trump Sun held (+1 team 0, -1 team 1, 0 gone)
    "trump2",  # the trump Un
    "trump3",  # the trump Sota
    "trump4",  # Tenka (H-10)
    "trump5",  # the native Robai (Rei when Pao is trump: Tenka is its Robai, D-8)
    "masters",  # plain cards that are the highest still in play of their suit
    "plain_tops",  # plain Suns and Uns held
    "voids",  # plain suits a seat holds none of (a face-down trump may win there, H-24)
    "lead",  # +1 if team 0 leads the next trick, -1 if team 1 does
)
FEATURES = BASE_FEATURES + tuple(f"{n}*left" for n in BASE_FEATURES)
N_BASE = len(BASE_FEATURES)
TRICKS = 9

#: TOP_BITS[trump]: the one-card masks of the five highest trumps (H-16).
TOP_BITS = tuple(tuple(1 << c for c in TRUMP_ORDER[t][:5]) for t in range(5))
#: PLAIN_HIGH_TO_LOW[trump][suit]: the one-card masks of a plain suit's cards, highest first
#: (empty for the trump suit; Tenka is never a plain card, H-27).
PLAIN_HIGH_TO_LOW = tuple(
    tuple(tuple(1 << c for c in sorted((c for c in range(NCARDS)
                                        if PLAIN_SUIT_MASK[t][s] >> c & 1),
                                       key=lambda c: -PLAIN_RANK[c]))
          for s in range(5))
    for t in range(5))
#: PLAIN_TOPS[trump]: the plain Suns and Uns (the two highest cards of every plain suit).
PLAIN_TOPS = tuple(sum(bits[0] | bits[1] for bits in PLAIN_HIGH_TO_LOW[t] if bits)
                   for t in range(5))
SUITS_OF_PLAIN = tuple(tuple(PLAIN_SUIT_MASK[t][s] for s in range(5) if s != t) for t in range(5))


def base_features(state: Any) -> list[float]:
    """The `BASE_FEATURES` of a Meri state (play phase or over), team 0's view."""
    trump = state.trump
    tmask = TRUMP_MASK[trump]
    hands = state.hands
    team = [0, 0]  # the union of each team's hands
    trumps = voids = 0
    plain_suits = SUITS_OF_PLAIN[trump]
    for s in range(8):
        hand = hands[s]
        sign = 1 - 2 * (s & 1)
        team[s & 1] |= hand
        trumps += sign * (hand & tmask).bit_count()
        if hand:
            voids += sign * sum(1 for m in plain_suits if not hand & m)
    even, odd = team
    live = even | odd
    tops = [float((even & b != 0) - (odd & b != 0)) for b in TOP_BITS[trump]]
    masters = 0
    for bits in PLAIN_HIGH_TO_LOW[trump]:
        for b in bits:
            if live & b:
                masters += (even & b != 0) - (odd & b != 0)
                break
    plain_tops = PLAIN_TOPS[trump]
    scores = state.team_scores
    return [float(scores[0] - scores[1]), float(trumps), *tops, float(masters),
            float((even & plain_tops).bit_count() - (odd & plain_tops).bit_count()),
            float(voids), 1.0 if state.leader >= 0 and state.leader & 1 == 0 else -1.0]


def tricks_left(state: Any) -> float:
    """The share of the nine tricks still to play (1 before the first, 0 when over)."""
    return max(0, TRICKS - state.trick_no) / TRICKS


def state_features(state: Any) -> list[float]:
    """φ of a Meri state (play phase or over): the base features, then each × the share of
    tricks still to play."""
    base = base_features(state)
    left = tricks_left(state)
    return base + [x * left for x in base]


def leaf_value(weights: Sequence[float], state: Any) -> float:
    """`weights · state_features(state)` (team 0's predicted final score difference) without
    building the long vector: the share-left terms fold into the weights."""
    left = tricks_left(state)
    return sum((weights[i] + weights[i + N_BASE] * left) * x
               for i, x in enumerate(base_features(state)))

