"""The end-of-deal summary: its text, drawn from the engine's typed results, in one function.

`result_lines(deal, match)` turns a `DealResult` and a `MatchResult` (engine/result.py) into the
panel's markup lines: the deal's notes, every side's explanation lines, then the match's. A
`Line` is an English msgid with `{name}` fields; it is translated here, at drawing time, so a
language switch redraws it. Tables whose engine does not give typed results yet draw their own
lines (`TableScreen.summary_lines`). The panel itself (`SummaryPanel` in table.kv: the text, an
optional row of cards, Next deal / New match, Restart, Home) is the same for every table.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.result import DealResult, Line, MatchResult
from ui.i18n import tr
from ui.table.seats import seat_name, team_name


def heading() -> str:
    """The first line of every summary."""
    return "[b]" + tr("End of the deal") + "[/b]"


def render(lines: Iterable[Line]) -> list[str]:
    """Each explanation line translated and filled in, seats and teams named as on the table."""
    return [line.render(tr, seat_name=seat_name, side_name=team_name) for line in lines]


def result_lines(deal: DealResult, match: MatchResult | None) -> list[str]:
    """The summary of a finished deal and the match standing, as markup lines."""
    out = [heading()]
    out += render(deal.lines)
    for side in deal.sides:
        out += render(side.lines)
    if match is not None:
        out.append("")
        out += render(match.lines)
        for side in match.sides:
            out += render(side.lines)
    return out
