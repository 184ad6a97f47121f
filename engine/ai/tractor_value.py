"""A learned leaf value for the Tractor search: a linear model over the position at the horizon.

A mid-play playout of the search stops `HORIZON` tricks on (`engine.ai.tractor_search`) and is
scored. The plain score is the card points each team has won so far; the learned one predicts
the deal's final `card points + 20 × levels` (the arena's metrics, the value of a finished
playout) from the position: the points won so far, who holds the points and the trumps still in
play, the kitty, who leads next. It is `w · φ`, with `φ` from the attackers' side (the other
team's value is its negative: zero-sum like the final score) and `w` fitted by
`engine.ai.tools.train` to the outcome of self-play deals. Each base feature is also taken × the
share of cards still in hand, so its weight can fade as the deal runs out.

What it sees: at a leaf of the search, a *sampled* world (drawn from the deciding seat's
observation, `TractorAdapter.sample`), so the hidden hands and the kitty in it are guesses,
never the real hidden cards. In training the features are taken from the true deal (the target
is that deal's outcome).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.tractor.cards import BJ, POINTS, RJ, TRUMP
from engine.tractor.state import HAND_SIZE

#: The base features, attackers' team minus defenders' team where per team.
BASE_FEATURES = (
    "bias",  # 1: the attackers' side of an average deal
    "won_diff",  # card points won in tricks so far, attackers minus defenders
    "attack_points",  # the attackers' card points so far (the promotion thresholds are on it)
    "over_40",  # the attackers have 40 or more (a defence of one level only)
    "over_80",  # 80 or more: they take over the defence (T-27)
    "over_120",  # 120 or more: they climb a level
    "held_points",  # card points still in the attackers' hands minus the defenders'
    "kitty_points",  # the kitty's card points (a bonus if the attackers take the last trick)
    "trumps",  # trumps held
    "top_trumps",  # jokers and trump-suit level cards held
    "trump_pairs",  # trump pairs held
    "plain_tops",  # cards of the top position of a plain suit (aces, mostly) held
    "plain_pairs",  # plain pairs held
    "voids",  # plain suits a seat holds none of (it can ruff)
    "lead",  # +1 if an attacker leads the next trick, −1 if a defender does
)
FEATURES = BASE_FEATURES + tuple(f"{n}*left" for n in BASE_FEATURES)
N_BASE = len(BASE_FEATURES)


def base_features(state: Any) -> list[float]:
    """The `BASE_FEATURES` of a Tractor state in the play phase or over, attackers' view."""
    attackers = state.attackers
    ctx = state.ctx
    eff, pos = ctx.eff, ctx.pos
    top_plain = ctx.top_plain
    taken = 0
    for _leader, plays, _w in state.tricks:
        for cards in plays:
            for k in cards:
                taken += POINTS[k]
    points = state.points
    per_team = [[0] * 7, [0] * 7]  # held points, trumps, top trumps, trump pairs, tops, pairs, voids
    for s in range(4):
        row = per_team[(s & 1) ^ attackers]  # 0: attackers, 1: defenders
        hand = state.hands[s]
        plain = [0, 0, 0, 0]
        for k in range(54):
            c = hand[k]
            if not c:
                continue
            row[0] += POINTS[k] * c
            e = eff[k]
            if e == TRUMP:
                row[1] += c
                if k == RJ or k == BJ or pos[k] == 13:
                    row[2] += c
                if c == 2:
                    row[3] += 1
            else:
                plain[e] += c
                if pos[k] == top_plain:
                    row[4] += c
                if c == 2:
                    row[5] += 1
        row[6] += sum(1 for n in plain if not n)
    a, d = per_team
    leader = state.leader  # the next trick's leader, or this trick's
    return [1.0, float(2 * points - taken), float(points), float(points >= 40),
            float(points >= 80), float(points >= 120), float(a[0] - d[0]),
            float(sum(POINTS[k] for k in state.kitty)), float(a[1] - d[1]), float(a[2] - d[2]),
            float(a[3] - d[3]), float(a[4] - d[4]), float(a[5] - d[5]), float(a[6] - d[6]),
            1.0 if leader & 1 == attackers else -1.0]


def state_features(state: Any) -> list[float]:
    """φ of a Tractor state (play phase or over): the base features, then each × the share of
    cards still in hand (1 at the first trick, 0 at the end)."""
    base = base_features(state)
    left = sum(state.hands[0]) / HAND_SIZE
    return base + [x * left for x in base]


def leaf_value(weights: Sequence[float], state: Any) -> float:
    """`weights · state_features(state)` (the attackers' predicted final score) without building
    the long vector: the share-left terms fold into the weights."""
    left = sum(state.hands[0]) / HAND_SIZE
    return sum((weights[i] + weights[i + N_BASE] * left) * x
               for i, x in enumerate(base_features(state)))
