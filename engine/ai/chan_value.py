"""A learned leaf value for the Chắn search: a linear model over hand features.

The search's round playout stops after one round (`engine.ai.chan_search`) and scores the
position. The heuristic's score is HAND_WEIGHT × (the seat's hand value minus the others' mean);
the learned one is `w · (φ(seat) − mean φ(others))`, with `φ` a few hand features (below) and
`w` fitted by `engine.ai.train` to the final settlement (S-5) of self-play deals. The difference
form keeps it zero-sum like the settlement.

What it sees: at a leaf of the search, a *sampled* world (drawn from the deciding seat's
observation, `ChanAdapter.sample`), so the other seats' hands in it are guesses, never the real
hidden cards; `unseen` is the deciding seat's observation's count of unseen cards, and the
stock's progress (`sp`) is public. Nothing else is read. In training the same features are taken
from the true deal (the targets are that deal's outcome), with the recording seat's `unseen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.chan_heuristic import CA_LIMIT, exposed_pairs, hand_value
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


def seat_features(counts: Sequence[int], exposed: Sequence[Sequence[int]],
                  unseen: Sequence[int], progress: float) -> list[float]:
    """φ of one seat: its concealed face `counts` (25), its exposed pairs, the deciding seat's
    `unseen` counts and the stock's `progress` in [0, 1]; in `FEATURES` order."""
    chan, ca = exposed_pairs(exposed)
    hv = hand_value(counts, chan, ca, unseen)
    red = sum(1 for pair in exposed for f in pair if IS_RED[f])
    triples = 0
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
    left: list[int] = []
    rank_open: list[int] = []
    for f in singles:  # pair singles of one rank into Cạ (as hand_value does)
        if f == CC:
            left.append(f)
            continue
        partner = next((g for g in RANK_FACES[f] if g in rank_open), None)
        if partner is not None:
            rank_open.remove(partner)
            ca += 1
        else:
            rank_open.append(f)
    left.extend(rank_open)
    live_same = float(sum(unseen[f] for f in left))
    live_rank = float(sum(unseen[g] for f in left for g in RANK_FACES[f]))
    waiting = 1.0 if len(left) <= 1 else 0.0
    waiting_live = waiting * (live_same + live_rank)
    base = [hv, float(chan), float(min(ca, CA_LIMIT)), float(max(0, ca - CA_LIMIT)),
            float(len(left)), live_same, live_rank, waiting, waiting_live, float(triples),
            float(red)]
    return base + [x * progress for x in base]


def state_features(state: Any, seat: int, unseen: Sequence[int]) -> list[float]:
    """φ(seat) − mean φ(others) in a full Chắn state (a sampled world at a search leaf)."""
    progress = min(1.0, state.sp / STOCK_SIZE)
    counts, exposed = state.counts, state.exposed
    per = [seat_features(counts[s * FACES:(s + 1) * FACES], exposed[s], unseen, progress)
           for s in range(4)]
    mine = per[seat]
    n = len(mine)
    others = [0.0] * n
    for s in range(4):
        if s != seat:
            row = per[s]
            for i in range(n):
                others[i] += row[i]
    return [mine[i] - others[i] / 3.0 for i in range(n)]


class LinearValue:
    """`weights · features` (pure Python: a dot product over a few dozen numbers)."""

    def __init__(self, weights: Sequence[float]) -> None:
        self.weights = tuple(float(w) for w in weights)

    def __call__(self, features: Sequence[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, features, strict=True))
