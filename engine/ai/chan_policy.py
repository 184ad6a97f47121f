"""Chắn's policy features: what `engine.ai.policy` weighs of each legal move (issue 32).

Built from the seat's observation alone, and from the heuristic bot's own reading of a move
(`engine.ai.chan_heuristic`): its value of the hand kept, split into the parts a stronger
player may weigh differently — the kind of move (a Chắn or a Cạ capture, a pass, a discard, a
claim), the card given away (now, or the discard a capture leads to: could it still become a
pair for this seat, could the next player take it), the timing (how much stock is left), a
refused Chắn. A policy fitted to the search's choices over these starts where the heuristic
stands (its value is one feature) and learns what it misses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.chan_heuristic import (
    CA_LIMIT,
    discard_score,
    exposed_pairs,
    hand_value,
    pass_value,
    respond_values,
)
from engine.chan.cards import CC, RANK_FACES
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
from engine.chan.state import STOCK_SIZE

FEATURES = (
    "value",  # the heuristic's value of the move, less the hand as it stands (or passing)
    "pass",
    "capture_chan",  # a capture making a Chắn (the open card's own face)
    "capture_ca",  # a capture making a Cạ (same rank, another suit)
    "ca_over_limit",  # a Cạ beyond the four a winning hand may hold
    "chiu",
    "win",
    "discard",
    "give_same",  # unseen copies of the card given away (a discard's, or the one a capture
    # leads to): what it could still pair with
    "give_rank",  # unseen cards of its rank in other suits
    "feed_same",  # the same, where the next player may capture it (C-20)
    "feed_rank",
    "break_pair",  # the card given away is one of a pair (or more) in the hand
    "break_triple",
    "give_cc",  # the card given away is Chi chi
    "stock_x_pass",  # (stock_x_…: the share of the stock left, 0..1, for such a move)
    "stock_x_capture_ca",
    "stock_x_discard_single",
    "from_stock_x_capture",  # capturing a card revealed from the stock, not a discard
)

_INDEX = {name: i for i, name in enumerate(FEATURES)}


def move_features(obs: Any, legal: Sequence[int]) -> list[list[float]]:
    """One row of `FEATURES` per legal move, in `legal`'s order."""
    stock = obs.stock_count / STOCK_SIZE
    rows = [[0.0] * len(FEATURES) for _ in legal]
    at = {a: i for i, a in enumerate(legal)}
    chan, ca = exposed_pairs(obs.exposed[obs.seat])
    if obs.phase == "discard":
        counts = list(obs.hand)
        base = hand_value(counts, chan, ca, obs.unseen)
        for a, i in at.items():
            if DISCARD_BASE <= a < PASS:
                face = a - DISCARD_BASE
                rows[i][_INDEX["discard"]] = 1.0
                _give(rows[i], obs, face, obs.hand[face], stock)
                rows[i][_INDEX["value"]] = discard_score(obs, counts, chan, ca, face) - base
    else:
        base = pass_value(obs, legal)
        for a, value, face in respond_values(obs, legal):
            row = rows[at[a]]
            row[_INDEX["value"]] = value - base
            if a == PASS:
                row[_INDEX["pass"]] = 1.0
                row[_INDEX["stock_x_pass"]] = stock
                continue
            same = a == obs.open_card
            row[_INDEX["capture_chan" if same else "capture_ca"]] = 1.0
            if not same:
                row[_INDEX["stock_x_capture_ca"]] = stock
                row[_INDEX["ca_over_limit"]] = float(ca + 1 > CA_LIMIT)
            row[_INDEX["from_stock_x_capture"]] = float(obs.open_from_stock)
            if face >= 0:
                held = obs.hand[face] - (1 if face == a else 0)  # the capture's own card leaves
                _give(row, obs, face, held, stock)
    for a, i in at.items():
        if a == CHIU:
            rows[i][_INDEX["chiu"]] = 1.0
        elif a == WIN:
            rows[i][_INDEX["win"]] = 1.0
    return rows


def _give(row: list[float], obs: Any, face: int, held: int, stock: float) -> None:
    """The features of giving away one `face` from a hand holding `held` of it."""
    unseen = obs.unseen
    same = float(unseen[face])
    rank = float(sum(unseen[g] for g in RANK_FACES[face]))
    feed = not obs.discarded[(obs.seat + 1) % 4] >> face & 1
    row[_INDEX["give_same"]] = same
    row[_INDEX["give_rank"]] = rank
    row[_INDEX["feed_same"]] = same if feed else 0.0
    row[_INDEX["feed_rank"]] = rank if feed else 0.0
    row[_INDEX["break_pair"]] = float(held >= 2)
    row[_INDEX["break_triple"]] = float(held >= 3)
    row[_INDEX["give_cc"]] = float(face == CC)
    if held == 1:
        row[_INDEX["stock_x_discard_single"]] = stock
