"""A learned leaf value for the Chắn search: a linear model over hand features.

The search's round playout stops after one round (`engine.ai.chan_search`) and scores the
position. The heuristic's score is HAND_WEIGHT × (the seat's hand value minus the others' mean);
the learned one is `w · (φ(seat) − mean φ(others))`, with `φ` a few hand features (below) and
`w` fitted by `engine.ai.tools.train` to the final settlement (S-5) of self-play deals. The
difference form keeps it zero-sum like the settlement.

What it sees: at a leaf of the search, a *sampled* world (drawn from the deciding seat's
observation, `ChanAdapter.sample`), so the other seats' hands in it are guesses, never the real
hidden cards; `unseen` is the deciding seat's observation's count of unseen cards, and the
stock's progress (`sp`) is public. Nothing else is read. In training the same features are taken
from the true deal (the targets are that deal's outcome), with the recording seat's `unseen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.chan_heuristic import (
    CA_LIMIT,
    CA_VALUE,
    CHAN_VALUE,
    EXTRA_CA_COST,
    LIVE_RANK,
    LIVE_SAME,
    SINGLE_COST,
    TRIPLE_BONUS,
    exposed_pairs,
)
from engine.chan.cards import CC, FACES, IS_RED, RANK_FACES

STOCK_SIZE = 23  # engine.chan.state: the stock's cards after the deal

#: The per-seat features, each also taken × the stock's progress (0 at the deal, 1 at its end).
BASE_FEATURES = (
    "hand_value",  # the heuristic's hand value (engine.ai.chan_heuristic.hand_value)
    "chan",  # Chắn held, concealed and exposed (a Chíu counts two)
    "ca",  # Cạ, up to the four a win may hold
    "ca_extra",  # Cạ beyond four (a burden)
    "singles",  # cards left unpaired
    "live_same",  # unseen copies of the singles' faces
    "live_rank",  # unseen cards of the singles' ranks in the other suits
    "waiting",  # at most one single: one card from a win
    "waiting_live",  # waiting × unseen cards that would complete it
    "triples",  # faces held three times concealed
    "red",  # red cards held (several bonuses count them)
)
FEATURES = BASE_FEATURES + tuple(f"{n}*progress" for n in BASE_FEATURES)


def rank_unseen(unseen: Sequence[int]) -> list[int]:
    """Per face, the unseen cards of its rank in the other suits (a future Cạ)."""
    return [sum(unseen[g] for g in RANK_FACES[f]) for f in range(FACES)]


def seat_features(counts: Sequence[int], exposed: Sequence[Sequence[int]],
                  unseen: Sequence[int], progress: float,
                  rank_live: Sequence[int] | None = None) -> list[float]:
    """φ of one seat: its concealed face `counts` (25), its exposed pairs, the deciding seat's
    `unseen` counts (and their `rank_unseen`, if computed already) and the stock's `progress` in
    [0, 1]; in `FEATURES` order."""
    base = base_features(counts, exposed, unseen, rank_live)
    return base + [x * progress for x in base]


def base_features(counts: Sequence[int], exposed: Sequence[Sequence[int]],
                  unseen: Sequence[int], rank_live: Sequence[int] | None = None) -> list[float]:
    """The `BASE_FEATURES` of one seat (see `seat_features`). `hand_value` is computed in the
    same pass, term by term as `engine.ai.chan_heuristic.hand_value` does (a test keeps them
    equal)."""
    if rank_live is None:
        rank_live = rank_unseen(unseen)
    chan, ca = exposed_pairs(exposed)
    red = 0
    for pair in exposed:
        for f in pair:
            if IS_RED[f]:
                red += 1
    triples = triple_live = 0
    singles: list[int] = []
    for f in range(FACES):
        c = counts[f]
        if c:
            chan += c >> 1
            if IS_RED[f]:
                red += c
            if c & 1:
                singles.append(f)
                if c == 3:
                    triples += 1
                    triple_live += unseen[f]
    left = 0
    live_same = live_rank = 0
    last = -1
    rank_open: list[int] = []
    for f in singles:  # pair singles of one rank into Cạ (as hand_value does)
        if f != CC:
            partner = next((g for g in RANK_FACES[f] if g in rank_open), None)
            if partner is not None:
                rank_open.remove(partner)
                ca += 1
                continue
            rank_open.append(f)
            continue
        left += 1
        live_same += unseen[f]
        live_rank += rank_live[f]
        last = f
    for f in rank_open:
        left += 1
        live_same += unseen[f]
        live_rank += rank_live[f]
        last = f
    ca_kept, ca_extra = min(ca, CA_LIMIT), max(0, ca - CA_LIMIT)
    hv = (TRIPLE_BONUS * triple_live + CHAN_VALUE * chan + CA_VALUE * ca_kept
          - EXTRA_CA_COST * ca_extra + LIVE_SAME * live_same + LIVE_RANK * live_rank
          - SINGLE_COST * left)
    waiting = 1.0 if left <= 1 else 0.0
    waiting_live = float(unseen[last] + rank_live[last]) if left == 1 else 0.0
    return [hv, float(chan), float(ca_kept), float(ca_extra), float(left), float(live_same),
            float(live_rank), waiting, waiting_live, float(triples), float(red)]


def state_features(state: Any, seat: int, unseen: Sequence[int]) -> list[float]:
    """φ(seat) − mean φ(others) in a full Chắn state (a sampled world at a search leaf)."""
    progress = min(1.0, state.sp / STOCK_SIZE)
    counts, exposed = state.counts, state.exposed
    rank_live = rank_unseen(unseen)
    mine: list[float] = []
    others = [0.0] * len(FEATURES)
    for s in range(4):
        row = seat_features(counts[s * FACES:(s + 1) * FACES], exposed[s], unseen, progress,
                            rank_live)
        if s == seat:
            mine = row
        else:
            for i, x in enumerate(row):
                others[i] += x
    return [m - o / 3.0 for m, o in zip(mine, others, strict=True)]


def leaf_value(weights: Sequence[float], state: Any, seat: int, unseen: Sequence[int]) -> float:
    """`weights · state_features(state, seat, unseen)`, computed faster for the search's leaves:
    by linearity, the progress terms fold into the weights and each seat's base features meet
    them in one dot product (no feature vectors built)."""
    progress = min(1.0, state.sp / STOCK_SIZE)
    w = weights
    n = len(BASE_FEATURES)
    eff = [w[i] + w[i + n] * progress for i in range(n)]
    counts, exposed = state.counts, state.exposed
    rank_live = rank_unseen(unseen)
    total = 0.0
    for s in range(4):
        v = sum(a * b for a, b in zip(eff, base_features(
            counts[s * FACES:(s + 1) * FACES], exposed[s], unseen, rank_live), strict=True))
        total += v if s == seat else -v / 3.0
    return total
