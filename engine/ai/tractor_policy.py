"""Tractor's policy features: what `engine.ai.policy` weighs of each candidate play (issue 32).

The moves are the search adapter's candidates (`engine.ai.tractor_search`: a follow's legal
plays are a lazy set, often huge, so the search and the policy weigh a shortlist of them). From
the seat's observation alone: whether the heuristic bot (`engine.ai.tractor_heuristic`) would
play the move — so a fitted policy starts where the heuristic stands — and the facts its rules
read, for the policy to weigh as a stronger player does: the card points in the play, its cards'
keep value and pairs, trumps; in a follow, whether it beats the trick so far, the points it
would take, as the last to play, whether nothing unseen can beat it, points fed to a winning
partner; in a lead, a play nothing unseen outranks, trumps, pairs and tractors, a suit the
partner or an opponent has shown void; and whether this seat's side is attacking (T-…: the
points count for the attackers). Bids and the burial: the heuristic's move and passing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.tractor_heuristic import (
    TractorHeuristicBot,
    beats,
    keep_value,
    opponent_void,
    play_key,
    stands,
    top_of_suit,
)
from engine.tractor.cards import POINTS, TRUMP, context
from engine.tractor.state import PASS

FEATURES = (
    "heuristic",  # the heuristic bot's move
    "pass",  # a bid's pass
    "points",  # the card points in the play, /10
    "points_x_attacking",
    "trump",  # a play of trumps
    "pairs",  # pairs in the play, per card
    "keep_value",  # the heuristic's keep value of the cards, per card, /40
    "wins",  # a follow that beats the trick so far
    "wins_x_trick_points",  # ... and the points it would take, /20
    "wins_last",
    "wins_and_stands",  # ... and nothing unseen (or void behind) can beat it
    "feeds_partner",  # points played while the partner wins the trick and stands, /10
    "lead_master",  # a lead nothing unseen in its suit outranks
    "lead_trump",
    "lead_multi",  # a lead of a pair or more
    "lead_partner_void",  # into a suit the partner has shown void (and no opponent)
    "lead_opponent_void",  # into a suit an opponent has shown void
)

_INDEX = {name: i for i, name in enumerate(FEATURES)}
_HEURISTIC = TractorHeuristicBot(0)


def move_features(obs: Any, moves: Sequence[Any]) -> list[list[float]]:
    """One row of `FEATURES` per move of `moves` (the candidates), in their order."""
    rows = [[0.0] * len(FEATURES) for _ in moves]
    _HEURISTIC.rng.seed(0)  # its tie-breaks: the same rows wherever they are computed
    chosen = _HEURISTIC.choose(obs, list(moves))
    for row, a in zip(rows, moves, strict=True):
        row[_INDEX["heuristic"]] = float(a == chosen)
        row[_INDEX["pass"]] = float(a == PASS)
    if obs.phase != "play":
        return rows
    ctx = context(obs.level, obs.trump)
    seat = obs.seat
    attacking = (seat - obs.dealer) % 2 == 1
    partner = (seat + 2) % 4
    leading = not obs.trick
    trick_points = sum(POINTS[k] for cards in obs.trick for k in cards)
    partner_stands = (not leading and obs.win_seat == partner
                      and stands(obs, ctx, obs.win_key))
    for row, a in zip(rows, moves, strict=True):
        n = len(a)
        pts = sum(POINTS[k] for k in a)
        is_trump = all(ctx.eff[k] == TRUMP for k in a)
        row[_INDEX["points"]] = pts / 10
        row[_INDEX["points_x_attacking"]] = pts / 10 if attacking else 0.0
        row[_INDEX["trump"]] = float(is_trump)
        row[_INDEX["pairs"]] = sum(1 for i in range(1, n) if a[i] == a[i - 1]) / n
        row[_INDEX["keep_value"]] = sum(keep_value(ctx, k) for k in a) / (40 * n)
        if leading:
            eff = ctx.eff[a[0]]
            opp_void = opponent_void(obs, eff)
            row[_INDEX["lead_master"]] = float(top_of_suit(obs, ctx, a))
            row[_INDEX["lead_trump"]] = float(is_trump)
            row[_INDEX["lead_multi"]] = float(n >= 2)
            row[_INDEX["lead_partner_void"]] = float(
                not is_trump and bool(obs.voids[partner] >> eff & 1) and not opp_void)
            row[_INDEX["lead_opponent_void"]] = float(not is_trump and opp_void)
            continue
        if partner_stands:
            row[_INDEX["feeds_partner"]] = pts / 10
        if not beats(obs, ctx, a):
            continue
        row[_INDEX["wins"]] = 1.0
        row[_INDEX["wins_x_trick_points"]] = (trick_points + pts) / 20
        row[_INDEX["wins_last"]] = float(len(obs.trick) == 3)
        row[_INDEX["wins_and_stands"]] = float(stands(obs, ctx, play_key(ctx, a)))
    return rows
