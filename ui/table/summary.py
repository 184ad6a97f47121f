"""The end-of-deal summary of every table, drawn from the engine's typed results in one place.

`result_lines(deal, match)` turns a `DealResult` and a `MatchResult` (engine/result.py) into the
panel's markup lines (every name in them escaped, `seats.seat_markup`: a name is text), the
key facts first: who won the deal, every side's score, the match
standing (with every side's recap once the match is over), then why (the deal's own
explanation lines). A `Line` is an English msgid with
`{name}` fields; it is translated here, at drawing time, so a language switch redraws it, and
its seats and teams are named as on the table. A line is shown once: the match's note that
repeats one of the deal's (Tractor's next dealer, its match winner) is not repeated below.
`deal_outcome` is the deal for the statistics. The panel itself (`SummaryPanel` in table.kv:
the pictures of `summary_cards.SummaryBody`, or these lines behind its Details toggle, and
Next deal / New match, Restart, Home) is the same for every table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.result import SEAT_FIELDS, SIDE_FIELDS, DealResult, Line, MatchResult, SideScore
from ui.i18n import tr, trf
from ui.match_length import deal_words
from ui.table.seats import seat_markup, seat_name, team_markup, team_name, you

#: Formats one argument value before it is filled in: (field name, value) -> shown value. The
#: Meri table names its cards this way (`KSu` -> `Koppu Sota`).
ValueFormat = Callable[[str, Any], Any]


def heading() -> str:
    """The first line of every summary."""
    return "[b]" + tr("End of the deal") + "[/b]"


def _bold(text: str) -> str:
    return f"[b]{text}[/b]"


def render(lines: Iterable[Line], value: ValueFormat | None = None) -> list[str]:
    """Each explanation line translated and filled in, seats and teams named as on the table:
    markup, its names escaped."""
    out = []
    for line in lines:
        if value is not None:
            line = Line(line.text, {k: value(k, v) for k, v in line.args.items()})
        out.append(line.render(tr, seat_name=seat_markup, side_name=team_markup))
    return out


def side_name(sides: tuple[SideScore, ...], index: int) -> str:
    """A side in words, plain text: its team's name where sides are teams, else its one
    player's name."""
    side = sides[index]
    return team_name(index) if len(side.seats) > 1 else seat_name(side.seats[0])


def side_markup(sides: tuple[SideScore, ...], index: int) -> str:
    """A side in words for a markup label: its team's name in its colour, or its one player's
    name, escaped."""
    side = sides[index]
    return team_markup(index) if len(side.seats) > 1 else seat_markup(side.seats[0])


def _names(line: Line, side: SideScore, index: int) -> bool:
    """The line names the side it explains (one of its seats, or the side itself)."""
    return any(key in SEAT_FIELDS and value in side.seats or key in SIDE_FIELDS and value == index
               for key, value in line.args.items())


def side_lines(sides: tuple[SideScore, ...], value: ValueFormat | None = None,
               standing: bool = False) -> list[str]:
    """Every side's explanation lines. A side whose lines do not say whose they are gets one
    line led by its name (with its score in a match `standing`): "AI 1: Pays 13 to You".
    Markup, names escaped."""
    out = []
    for index, side in enumerate(sides):
        texts = render(side.lines, value)
        if all(_names(line, side, index) for line in side.lines):
            out += texts
            continue
        name = side_markup(sides, index)
        if standing:
            name += f" ({side.score})"
        out.append(f"{name}: " + ", ".join(texts) if texts else name)
    return out


def winner_line(deal: DealResult) -> str:
    """Who won the deal, or "" on a drawn deal (the game's own lines say how it was drawn):
    markup, names escaped."""
    if not deal.winners:
        return ""
    mine = you()  # "You" only when this screen plays one seat; else every winner by name
    if mine is not None and [deal.sides[w].seats for w in deal.winners] == [(mine,)]:
        return tr("You win the deal.")
    names = [side_markup(deal.sides, w) for w in deal.winners]
    return trf("{winner} wins the deal.", winner=", ".join(names))


def progress_line(match: MatchResult | None) -> str:
    """The deal the match is at, once counted: "Deal 2 of 5" ("Deal 3" in a match of no fixed
    length); "" for a match of one deal (the deal is the match) and for a deal the match does
    not count (a lesson, a record being shown)."""
    if match is None or match.deals_total == 1 or match.deals_played < 1:
        return ""
    return deal_words(match.deals_played, match.deals_total)


def result_lines(deal: DealResult, match: MatchResult | None,
                 value: ValueFormat | None = None) -> list[str]:
    """The summary of a finished deal and the match standing, as markup lines, key facts first.

    The match part is left out for a match of one deal (the deal is the match: Chắn)."""
    out = [heading()]
    progress = progress_line(match)
    if progress:
        out.append(progress)
    won = winner_line(deal)
    if won:
        out.append(_bold(won))
    out += side_lines(deal.sides, value)
    shown: list[Line] = []
    if match is not None and match.deals_total != 1:
        notes = render(match.lines, value)
        if match.over and notes:
            notes[-1] = _bold(notes[-1])
        out += notes
        if match.over:  # the recap per side; while it goes on, the deal's sides say it
            out += side_lines(match.sides, value, standing=True)
        shown = list(match.lines)
    details = [line for line in deal.lines if line not in shown]
    if details:
        out.append("")
        out += render(details, value)
    return out


def deal_outcome(deal: DealResult, seat: int) -> tuple[str, int]:
    """("win" | "loss" | "draw", points) of the finished deal for `seat`, for the statistics:
    its side's score against the best other side's (Meri's deal points, Tractor's levels
    gained, Chắn's settlement, which is 0 against 0 on a drawn deal)."""
    mine = deal.side_of(seat)
    score = deal.sides[mine].score
    others = [s.score for i, s in enumerate(deal.sides) if i != mine]
    best = max(others) if others else 0
    outcome = "win" if score > best else "loss" if score < best else "draw"
    return outcome, score
