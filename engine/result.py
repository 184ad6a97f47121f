"""The typed outcome of a deal and of a match, one shape for every game.

A *side* is what scores together: a team in Meri (seats 0, 2, 4, 6 against 1, 3, 5, 7) and
Tractor (0, 2 against 1, 3), a single player in Chắn. Every score carries its explanation as
`Line`s: an English message (a gettext msgid with `{name}` fields) and its values, so the UI
translates and formats it while the engine stays free of any language.

Who is who stays out of the words: a field in `SEAT_FIELDS` holds a seat number and one in
`SIDE_FIELDS` a side index, and the text never says "seat" or "team" around them — the reader
names them ("You", "AI 3", "Your team"), in its language, when it renders the line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

SEAT_FIELDS = frozenset({"seat", "dealer", "winner", "by"})  # values are seat numbers
SIDE_FIELDS = frozenset({"team", "defenders", "loser"})  # values are side indexes


def _seat(seat: int) -> str:
    return f"seat {seat}"


def _side(side: int) -> str:
    return f"team {side}"


@dataclass(frozen=True)
class Line:
    """One explanation line: `text` is an English msgid with `{name}` fields, `args` their values."""

    text: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def render(
        self,
        translate: Callable[[str], str] | None = None,
        seat_name: Callable[[int], str] = _seat,
        side_name: Callable[[int], str] = _side,
    ) -> str:
        """The line in words: the msgid through `translate` (gettext; else English), seats and
        sides named by `seat_name` / `side_name`, the first letter a capital."""
        template = translate(self.text) if translate is not None else self.text
        values = {
            key: seat_name(value) if key in SEAT_FIELDS else
            side_name(value) if key in SIDE_FIELDS else value
            for key, value in self.args.items()
        }
        text = template.format(**values)
        return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class SideScore:
    """One side's score in a deal or a match, and the lines that explain it."""

    seats: tuple[int, ...]
    score: int
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True)
class DealResult:
    """A finished deal: every side's score, which sides won it (none on a draw), and notes."""

    sides: tuple[SideScore, ...]
    winners: tuple[int, ...]
    lines: tuple[Line, ...] = ()

    def side_of(self, seat: int) -> int:
        """The index in `sides` of the side `seat` plays for."""
        return side_of(self.sides, seat)


@dataclass(frozen=True)
class MatchResult:
    """Standings of a match: cumulative side scores, progress, and the winner once over.

    `winner` is a side index, or None while the match goes on and on a drawn match; `deals_total`
    is None where the match has no fixed length (Tractor plays until a team passes A).
    """

    sides: tuple[SideScore, ...]
    deals_played: int
    deals_total: int | None
    over: bool
    winner: int | None
    lines: tuple[Line, ...] = ()

    def side_of(self, seat: int) -> int:
        """The index in `sides` of the side `seat` plays for."""
        return side_of(self.sides, seat)


def side_of(sides: tuple[SideScore, ...], seat: int) -> int:
    """The index of the side that `seat` belongs to; `ValueError` if none does."""
    for index, side in enumerate(sides):
        if seat in side.seats:
            return index
    raise ValueError(f"seat {seat} is on no side")
