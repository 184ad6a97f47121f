"""A Chắn match: deals one after another with running settlement totals.

C-2: one deal is a whole game; a match is a sitting of `length` deals (the registry's default,
`engine.registry.DEFAULT_LENGTHS`, or the players' choice), settled after each (S-5) with
running totals. Each deal is dealt by `deal.deal(random.Random(seed))` (what
`ChanGame.new_deal(seed)` does) from a seed drawn from the match's RNG, so the dealer of every deal is drawn from the
seeded RNG too (D-1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.chan.deal import deal
from engine.errors import MalformedRecord
from engine.game import Match, State, check_length
from engine.result import Line, MatchResult, SideScore

# The match's first line, the caption of its running totals' chart (an English msgid).
STANDING = "Running totals after deal {done} of {deals}"


def _rng_state_to_json(state: tuple) -> list:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_state_from_json(data: Any) -> tuple:
    try:
        version, internal, gauss = data
        internal = tuple(int(x) for x in internal)
        if len(internal) != 625:
            raise ValueError("wrong length")
        return (int(version), internal, gauss)
    except (TypeError, ValueError) as exc:
        raise MalformedRecord(f"bad chan match RNG state: {exc}") from None


class ChanMatch(Match):
    """Deals, totals and the RNG that seeds every deal."""

    def __init__(self, seed: int = 0, deals: int = 1) -> None:
        self.rng = random.Random(seed)
        self.length = check_length(deals)
        self.played = 0
        self.totals = [0, 0, 0, 0]
        self.wins = [0, 0, 0, 0]
        self.draws = 0
        self.history: list[list[int]] = []  # each deal's settlement per seat (S-5)

    @property
    def is_over(self) -> bool:
        return self.played >= self.length

    @property
    def deals_finished(self) -> int:
        return self.played

    def next_deal(self) -> State:
        if self.is_over:
            raise ValueError("the match is over: start a new one")
        return deal(random.Random(self.rng.getrandbits(32)))

    def finish_deal(self, state: State) -> None:
        result = state.result
        if result is None:
            raise ValueError("the deal is not over")
        self.played += 1
        for s in range(4):
            self.totals[s] += result["settlement"][s]
        self.history.append([int(v) for v in result["settlement"]])
        if result["winner"] is None:
            self.draws += 1
        else:
            self.wins[result["winner"]] += 1

    def _leader(self) -> int | None:
        """The single seat with the best total once the match is over, else None."""
        best = max(self.totals)
        leaders = [s for s in range(4) if self.totals[s] == best]
        return leaders[0] if self.is_over and len(leaders) == 1 else None

    def result(self) -> MatchResult:
        """Each player is a side: its running settlement total (S-5) with its deals won; the
        match's drawn deals (C-14); the single leader wins once the match is over (a shared
        lead is a drawn match)."""
        sides = tuple(
            SideScore((s,), self.totals[s], (Line("Deals won: {wins}", {"wins": self.wins[s]}),))
            for s in range(4))
        return MatchResult(
            sides=sides,
            deals_played=self.played,
            deals_total=self.length,
            over=self.is_over,
            winner=self._leader(),
            lines=self._lines(),
            history=self.running(),
        )

    def _lines(self) -> tuple[Line, ...]:
        """The match in words: where it stands (the chart's caption), and its drawn deals
        (C-14) when there were any."""
        lines = [Line(STANDING, {"done": self.played, "deals": self.length})]
        if self.draws:
            lines.append(Line("Drawn deals: {draws}", {"draws": self.draws}))
        return tuple(lines)

    def running(self) -> tuple[tuple[int, ...], ...]:
        """The running settlement totals (S-5): nothing before the first deal, then after each
        deal kept in `history` (a match saved before it kept them shows only its totals)."""
        out = [(0, 0, 0, 0)]
        for settled in self.history:
            out.append(tuple(a + b for a, b in zip(out[-1], settled, strict=True)))
        if len(out) != self.played + 1:
            return ((0, 0, 0, 0), tuple(self.totals)) if self.played else out[:1]
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "chan",
            "deals": self.length,
            "played": self.played,
            "totals": list(self.totals),
            "wins": list(self.wins),
            "draws": self.draws,
            "history": [list(h) for h in self.history],
            "rng": _rng_state_to_json(self.rng.getstate()),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChanMatch:
        """The match saved by `to_dict`; `MalformedRecord` if it does not fit."""
        if not isinstance(data, Mapping):
            raise MalformedRecord("a chan match must be an object")
        try:
            match = cls(0, check_length(data["deals"]))
            match.played = int(data["played"])
            match.totals = [int(x) for x in data["totals"]]
            match.wins = [int(x) for x in data["wins"]]
            match.draws = int(data["draws"])
            match.history = [[int(v) for v in h] for h in data.get("history", [])]
            match.rng.setstate(_rng_state_from_json(data["rng"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedRecord(f"bad chan match: {exc}") from None
        if match.played > match.length:
            raise MalformedRecord("bad chan match: more deals played than the match has")
        if len(match.totals) != 4 or len(match.wins) != 4:
            raise MalformedRecord("bad chan match: totals and wins need four seats")
        if len(match.history) > match.played or any(len(h) != 4 for h in match.history):
            raise MalformedRecord("bad chan match: history needs four seats per deal played")
        return match
