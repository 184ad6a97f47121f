"""The typed outcome of a deal and of a match, one shape for every game.

A *side* is what scores together: a team in Meri (seats 0, 2, 4, 6 against 1, 3, 5, 7) and
Tractor (0, 2 against 1, 3), a single player in Chắn. Every score carries its explanation as
`Line`s: an English message (a gettext msgid with `{name}` fields) and its values, so the UI
translates and formats it while the engine stays free of any language.

Who is who stays out of the words: a field in `SEAT_FIELDS` holds a seat number and one in
`SIDE_FIELDS` a side index, and the text never says "seat" or "team" around them — the reader
names them ("You", "AI 3", "Your team"), in its language, when it renders the line.

For the summary's pictures a result also carries structure, in the same language-free way:
`CardGroup`s (the cards that made a score, each with a `Line` saying what they are), `Climb`s on
a ladder of named rungs (Tractor's levels), and a match's `history` (each side's standing after
every deal, for a progress chart). A game fills what it has; the UI draws whatever is there.
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
class CardGroup:
    """Cards that made (part of) a score, shown together: `cards` are card codes (records.md),
    `label` says what they are. `side` is the side they count for (None: nobody's); `points`
    what they are worth or move to that side (None: not a score of their own); `breaks` indexes
    before which the cards split into sub-groups (a hand laid out in its pairs); `mark` the
    index of one card to single out (the winning card), -1 for none. An empty `cards` means
    the whole of the hand shown before it (a bonus of the whole hand)."""

    cards: tuple[str, ...]
    label: Line
    side: int | None = None
    points: int | None = None
    breaks: tuple[int, ...] = ()
    mark: int = -1


@dataclass(frozen=True)
class Climb:
    """A side's move on a ladder of named rungs in one deal (Tractor's levels): rung indexes
    into the result's `rungs`, `after` past the last rung when the side climbed off the top."""

    side: int
    before: int
    after: int


@dataclass(frozen=True)
class DealResult:
    """A finished deal: every side's score, which sides won it (none on a draw), and notes;
    for pictures, the card `groups` that made the score and the sides' `climbs` on the ladder
    of `rungs` (both empty where the game has none)."""

    sides: tuple[SideScore, ...]
    winners: tuple[int, ...]
    lines: tuple[Line, ...] = ()
    groups: tuple[CardGroup, ...] = ()
    rungs: tuple[str, ...] = ()
    climbs: tuple[Climb, ...] = ()

    def side_of(self, seat: int) -> int:
        """The index in `sides` of the side `seat` plays for."""
        return side_of(self.sides, seat)


@dataclass(frozen=True)
class MatchResult:
    """Standings of a match: cumulative side scores, progress, and the winner once over.

    `winner` is a side index, or None while the match goes on and on a drawn match; `deals_total`
    is None where the match has no fixed length (Tractor plays until a team passes A).
    `history` is every side's standing (as its `score` here) before the first deal, then after
    each deal played (deals_played + 1 entries where the match kept them all; a match saved
    before it kept them may have fewer); `rungs` names the standings where they are rungs of a
    ladder (Tractor's levels "2".."A"), empty where they are plain numbers.
    """

    sides: tuple[SideScore, ...]
    deals_played: int
    deals_total: int | None
    over: bool
    winner: int | None
    lines: tuple[Line, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    rungs: tuple[str, ...] = ()

    def side_of(self, seat: int) -> int:
        """The index in `sides` of the side `seat` plays for."""
        return side_of(self.sides, seat)


def side_of(sides: tuple[SideScore, ...], seat: int) -> int:
    """The index of the side that `seat` belongs to; `ValueError` if none does."""
    for index, side in enumerate(sides):
        if seat in side.seats:
            return index
    raise ValueError(f"seat {seat} is on no side")
