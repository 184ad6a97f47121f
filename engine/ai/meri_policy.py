"""Hachinin Meri's policy features: what `engine.ai.policy` weighs of each legal move (issue 32).

From the seat's observation alone: whether the heuristic bot (`engine.ai.meri_heuristic`) would
play the move — so a fitted policy starts where the heuristic stands — and the facts its rules
read, for the policy to weigh as a stronger player does: the card's strength (a trump and its
rank, a plain card's rank, an honour), what it does to the trick (wins what is visible, over a
partner, against a face-down opposing trump, as the last to play, a combination with the
opponents' best trump, H-31), the lead (a trump, a master of its suit) and the hand left (a suit
emptied, how long it is). Declaring (H-12) is a move of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.meri_heuristic import (
    MeriHeuristicBot,
    is_master,
    opponents_best_trump,
    trick_so_far,
)
from engine.meri.cards import (
    COMBINATIONS,
    PLAIN_RANK,
    POWER,
    SO,
    SUIT_MASK,
    SUIT_OF,
    TENKA,
    TRUMP_MASK,
    TRUMP_RANK,
    card,
    robai,
)
from engine.meri.legal import DECLARE

FEATURES = (
    "heuristic",  # the heuristic bot's move
    "declare",  # declare the native Robai (H-12)
    "trump",
    "trump_rank",  # 0..1 among the trumps (0 for a plain card)
    "plain_rank",  # 0..1 within its suit (0 for a trump)
    "honour",  # a trump Sun, Un or Sota, Tenka or the native Robai
    "lead_trump",  # leading a trump (a Meri, H-21)
    "lead_master",  # leading a plain card no unseen card of its suit outranks
    "wins_visible",  # beats every card of the trick that is face up
    "wins_over_partner",  # ... while a partner was winning it
    "wins_last",  # ... as the last to play
    "wins_against_hidden",  # ... while an opponent's face-down trump is in it
    "combination",  # wins with the opponents' best visible trump: a combination (H-31)
    "empties_suit",  # the last card of its suit in hand
    "suit_left",  # the cards of its suit left in hand, 0..1
    "late_trump",  # a trump, weighted by how late in the deal (trick 1..9 -> 0..1)
    "discard",  # the receiver's discard (H-14)
)

_INDEX = {name: i for i, name in enumerate(FEATURES)}
_HEURISTIC = MeriHeuristicBot(0)  # deterministic: the seed only breaks no ties it meets


def move_features(obs: Any, legal: Sequence[int]) -> list[list[float]]:
    """One row of `FEATURES` per legal move, in `legal`'s order."""
    rows = [[0.0] * len(FEATURES) for _ in legal]
    chosen = _HEURISTIC.choose(obs, legal)
    for row, a in zip(rows, legal, strict=True):
        row[_INDEX["heuristic"]] = float(a == chosen)
    if obs.phase == "declare":
        for row, a in zip(rows, legal, strict=True):
            row[_INDEX["declare"]] = float(a == DECLARE)
        return rows
    trump = obs.trump
    tmask = TRUMP_MASK[trump]
    ranks = TRUMP_RANK[trump]
    top = max(ranks)
    honour = ranks[card(trump, SO)]
    hand = obs.hand
    discarding = obs.phase == "discard"
    leading = not discarding and all(c < 0 for c in obs.trick)
    following = not discarding and not leading
    if following:
        best, winner, hidden_opp, _partner, played = trick_so_far(obs)
        partner_winning = winner >= 0 and (winner ^ obs.seat) & 1 == 0
        opp_best = opponents_best_trump(obs)
        power = POWER[trump][obs.led]
    late = obs.trick_no / 8
    for row, c in zip(rows, legal, strict=True):
        is_trump = tmask >> c & 1
        suit = hand & (tmask if is_trump else SUIT_MASK[SUIT_OF[c]] & ~tmask)
        row[_INDEX["trump"]] = float(is_trump)
        row[_INDEX["trump_rank"]] = ranks[c] / top if is_trump else 0.0
        row[_INDEX["plain_rank"]] = 0.0 if is_trump else PLAIN_RANK[c] / 15
        row[_INDEX["honour"]] = float(ranks[c] >= honour or c in (TENKA, robai(trump)))
        row[_INDEX["empties_suit"]] = float(suit.bit_count() == 1)
        row[_INDEX["suit_left"]] = (suit.bit_count() - 1) / 15
        row[_INDEX["late_trump"]] = late if is_trump else 0.0
        if discarding:
            row[_INDEX["discard"]] = 1.0
            continue
        if leading:
            row[_INDEX["lead_trump"]] = float(is_trump)
            row[_INDEX["lead_master"]] = float(not is_trump and is_master(obs, c))
            continue
        if power[c] <= best:
            continue
        row[_INDEX["wins_visible"]] = 1.0
        row[_INDEX["wins_over_partner"]] = float(partner_winning)
        row[_INDEX["wins_last"]] = float(played == 7)
        row[_INDEX["wins_against_hidden"]] = float(hidden_opp)
        row[_INDEX["combination"]] = float(not obs.meri and opp_best >= 0
                                           and (c, opp_best) in COMBINATIONS[trump])
    return rows

