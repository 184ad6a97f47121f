"""A Tractor match (T-2, T-11, T-27, D-1, D-2): both teams' levels, the dealer, deals, the winner.

Every deal is dealt by `engine.tractor.deal.deal` from the match's one RNG: the first with no
dealer (the bidding seat is drawn, D-2), later ones by the dealer the last deal named (T-27).

The rules' match ends when a team is promoted past A (T-2): `length` 0, the default. The
players may choose a match of `length` deals instead: it ends after that many deals, or sooner
when a team passes A; after the last deal the team on the higher level wins, equal levels are
a drawn match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.errors import MalformedRecord
from engine.game import Match, check_length
from engine.result import Line, MatchResult, SideScore
from engine.tractor.cards import RANK_TO_INDEX
from engine.tractor.deal import deal
from engine.tractor.scoring import (
    ACE,
    MATCH_DRAWN,
    MATCH_WON,
    NEXT_DEALER,
    RUNGS,
    SIDE_LEVEL,
    TEAMS,
    level_name,
    settle,
)
from engine.tractor.state import TractorState


class TractorMatch(Match):
    """Deals until a team is promoted past A (T-2, D-1), or `length` deals when the players
    chose a number (0: no fixed number, the rules' match)."""

    has_own_end = True  # T-2: a team passing A

    def __init__(
        self,
        rng: random.Random,
        levels: tuple[int, int] = (0, 0),
        dealer: int | None = None,
        deals: int = 0,
        winner: int | None = None,
        history: list[dict[str, Any]] | None = None,
        start: tuple[int, int] | None = None,
        length: int = 0,
    ) -> None:
        self.length = check_length(length, own_end=True)
        self.rng = rng
        self.levels = levels
        self.dealer = dealer
        self.deals = deals
        self.winner = winner
        self.history = history if history is not None else []
        self.start = start if start is not None else levels  # the levels before the first deal

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.out_of_deals

    @property
    def out_of_deals(self) -> bool:
        """A match of a chosen number of deals has played them all."""
        return 0 < self.length <= self.deals

    @property
    def deals_finished(self) -> int:
        return self.deals

    def leader(self) -> int | None:
        """The winner: the team that passed A, else once the match's deals are played the team
        on the higher level (None on equal levels: a drawn match), else None."""
        if self.winner is not None or not self.out_of_deals:
            return self.winner
        a, b = self.levels
        return None if a == b else (0 if a > b else 1)

    def next_deal(self) -> TractorState:
        if self.is_over:
            raise ValueError("the match is over")
        return deal(self.rng, self.dealer, self.levels)

    def finish_deal(self, state: Any) -> None:
        if not isinstance(state, TractorState) or not state.is_over:
            raise ValueError("finish_deal needs a finished Tractor deal")
        s = settle(state)
        self.history.append({"dealer": state.dealer, "attack_points": s.attack_points,
                             "levels_after": [level_name(v) for v in s.levels_after],
                             "levels": list(s.levels_after)})
        self.levels = s.levels_after
        self.dealer = s.next_dealer
        self.winner = s.match_winner
        self.deals += 1

    def result(self) -> MatchResult:
        """The standings: each team's level index (0 = "2"; above 12 = promoted past A, D-1) with
        a line naming the level, the deals played (of the match's length, None when it plays to
        A), and the winner once over; the match's lines name the next dealer while it goes on,
        the winning team (or a drawn match) once over."""
        sides = tuple(
            SideScore(seats, self.levels[team],
                      (Line(SIDE_LEVEL, {"team": team, "level": level_name(self.levels[team])}),))
            for team, seats in enumerate(TEAMS))
        lines: tuple[Line, ...] = ()
        winner = self.leader()
        if winner is not None:
            lines = (Line(MATCH_WON, {"team": winner}),)
        elif self.is_over:
            lines = (Line(MATCH_DRAWN),)
        elif self.dealer is not None:
            lines = (Line(NEXT_DEALER, {"seat": self.dealer}),)
        return MatchResult(sides, self.deals, self.length or None, self.is_over, winner, lines,
                           history=self.level_history(), rungs=RUNGS)

    def level_history(self) -> tuple[tuple[int, ...], ...]:
        """Both teams' level indexes before the first deal and after each deal kept in
        `history` (an entry saved without raw levels reads its level names, past A as A)."""
        out: list[tuple[int, ...]] = [tuple(self.start)]
        for entry in self.history:
            raw = entry.get("levels")
            if raw is None:
                raw = [RANK_TO_INDEX.get(name, ACE) for name in entry.get("levels_after", ())]
            if len(raw) == 2:
                out.append((int(raw[0]), int(raw[1])))
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "length": self.length,
            "levels": list(self.levels),
            "dealer": self.dealer,
            "deals": self.deals,
            "winner": self.winner,
            "history": list(self.history),
            "start": list(self.start),
            "rng": [version, list(internal), gauss],
        }


def _levels_ok(levels: Any) -> bool:
    """Two level indexes, each a plain int within the ladder or just past it (D-1)."""
    return (isinstance(levels, list) and len(levels) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= ACE + 4
                    for v in levels))


def restore_match(data: Mapping[str, Any]) -> TractorMatch:
    """Rebuild a match saved by `TractorMatch.to_dict`; `MalformedRecord` if it does not fit.
    A match saved before matches had a length of their own plays to A (T-2)."""
    try:
        length = check_length(data.get("length", 0), own_end=True)
        levels = tuple(int(v) for v in data["levels"])
        dealer = data["dealer"]
        deals = int(data["deals"])
        winner = data["winner"]
        version, internal, gauss = data["rng"]
        history = list(data.get("history", []))
        start = tuple(int(v) for v in data.get("start", (0, 0)))
        rng = random.Random()
        rng.setstate((int(version), tuple(int(v) for v in internal), gauss))
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedRecord(f"saved tractor match is incomplete: {exc}") from None
    if len(levels) != 2 or not all(0 <= v <= ACE + 4 for v in levels):
        raise MalformedRecord("saved tractor match: bad levels")
    if len(start) != 2 or not all(0 <= v <= ACE for v in start):
        raise MalformedRecord("saved tractor match: bad start levels")
    if not all(isinstance(e, Mapping) and _levels_ok(e.get("levels", [0, 0])) for e in history):
        raise MalformedRecord("saved tractor match: bad history")
    if dealer is not None and dealer not in (0, 1, 2, 3):
        raise MalformedRecord("saved tractor match: bad dealer")
    if winner is not None and winner not in (0, 1):
        raise MalformedRecord("saved tractor match: bad winner")
    if deals < 0 or (length and deals > length):
        raise MalformedRecord("saved tractor match: more deals played than the match has")
    return TractorMatch(rng, (levels[0], levels[1]), dealer, deals, winner, history,
                        (start[0], start[1]), length)
