"""A Meri match: 8 deals (H-3; the app may choose another length), the dealer moving left after
each, cumulative team scores (H-3, H-4).

Every random choice comes from the match's own `random.Random(seed)`: first the first dealer
(D-1), then one shuffle per deal (`engine.meri.deal.deal`). `to_dict()` saves the RNG state
so a match resumes exactly where it was (after a power cut, between deals). `result()` gives the
standings as an `engine.result.MatchResult`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.errors import MalformedRecord
from engine.game import Match, check_length
from engine.meri.deal import deal
from engine.meri.scoring import TEAMS
from engine.meri.state import MeriState
from engine.result import Line, MatchResult, SideScore

DEALS = 8  # H-3: the rules' match, the length of one saved without a length of its own

# The standings' explanation texts (English msgids; `team` is a team index, as in scoring).
DEAL_SCORE = "Deal {n}: {score}"
STANDING = "Match after deal {done} of {deals}: {us} to {them}"
DRAW = "The match is a draw."
WINS = "{team} wins the match."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any) -> int:
    """A saved integer, exactly (no bools, strings or floats passed off as one)."""
    if not _is_int(value):
        raise ValueError(f"{value!r} is not an integer")
    return value


class MeriMatch(Match):
    """`length` deals (8 by H-3); `scores` are the teams' cumulative deal scores (team 0 =
    seats 0, 2, 4, 6)."""

    def __init__(self, seed: int, deals: int = DEALS) -> None:
        self.length = check_length(deals)
        self.rng = random.Random(seed)
        self.dealer = self.rng.randrange(8)  # D-1
        self.deals_played = 0
        self.scores = [0, 0]
        self.deal_scores: list[list[int]] = []

    @property
    def is_over(self) -> bool:
        return self.deals_played >= self.length

    @property
    def deals_finished(self) -> int:
        return self.deals_played

    def next_deal(self) -> MeriState:
        """Shuffle and deal the next hand with the current dealer."""
        if self.is_over:
            raise ValueError("the match is over: start a new one")
        return deal(self.rng, self.dealer)

    def finish_deal(self, state: MeriState) -> None:
        """Add the finished deal's team scores and move the dealer left (H-3)."""
        if not state.is_over:
            raise ValueError("the deal is not over")
        a, b = state.team_scores
        self.scores[0] += a
        self.scores[1] += b
        self.deal_scores.append([a, b])
        self.deals_played += 1
        self.dealer = (self.dealer + 1) % 8

    def winner(self) -> int | None:
        """H-4: the team with the higher total after the match's deals (8); None while playing
        or on a draw."""
        if not self.is_over or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def result(self) -> MatchResult:
        """The standings (H-3, H-4): each team's total with one line per deal it scored, the
        deals played of the match's length, and the winner once the match is over (None on a draw)."""
        sides = tuple(
            SideScore(seats, self.scores[team], tuple(
                Line(DEAL_SCORE, {"n": n, "score": scores[team]})
                for n, scores in enumerate(self.deal_scores, start=1)))
            for team, seats in enumerate(TEAMS))
        winner = self.winner()
        lines = [Line(STANDING, {"done": self.deals_played, "deals": self.length,
                                 "us": self.scores[0], "them": self.scores[1]})]
        if self.is_over:
            lines.append(Line(DRAW) if winner is None else Line(WINS, {"team": winner}))
        return MatchResult(sides, self.deals_played, self.length, self.is_over, winner,
                           tuple(lines),
                           history=self.history())

    def history(self) -> tuple[tuple[int, ...], ...]:
        """The teams' cumulative scores before the first deal and after each deal (H-33)."""
        out = [(0, 0)]
        for a, b in self.deal_scores:
            out.append((out[-1][0] + a, out[-1][1] + b))
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "length": self.length,
            "dealer": self.dealer,
            "deals_played": self.deals_played,
            "scores": list(self.scores),
            "deal_scores": [list(s) for s in self.deal_scores],
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MeriMatch:
        """The match saved by `to_dict`; `MalformedRecord` with one line if it does not fit.
        A match saved before matches had a length of their own is the rules' 8 deals (H-3)."""
        try:
            match = cls.__new__(cls)
            length = check_length(data.get("length", DEALS))
            dealer, played = data["dealer"], data["deals_played"]
            scores = [_int(x) for x in data["scores"]]
            deal_scores = [[_int(a), _int(b)] for a, b in data["deal_scores"]]
            version, internal, gauss = data["rng"]
            if not (_is_int(dealer) and 0 <= dealer < 8 and _is_int(played)
                    and 0 <= played <= length and len(scores) == 2 and len(deal_scores) == played):
                raise ValueError("dealer, deals_played or scores out of range")
            match.rng = random.Random()
            match.rng.setstate((version, tuple(_int(x) for x in internal), gauss))
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise MalformedRecord(f"saved meri match does not fit: {exc}") from None
        match.length = length
        match.dealer = dealer
        match.deals_played = played
        match.scores = scores
        match.deal_scores = deal_scores
        return match
