"""The summary panel's one drawing function over the engine's typed results (ui/table/summary.py):
every line of the deal and the match, translated and filled in, in order."""

from __future__ import annotations

from engine.result import DealResult, Line, MatchResult, SideScore
from ui.table import summary


def test_result_lines_draw_every_explanation_in_order() -> None:
    deal = DealResult(
        sides=(SideScore((0, 2), 5, (Line("{team}: {tricks} tricks", {"team": "A", "tricks": 5}),)),
               SideScore((1, 3), 4, (Line("{team}: {tricks} tricks", {"team": "B", "tricks": 4}),))),
        winners=(0,),
        lines=(Line("Trick {n}: {seat} wins", {"n": 1, "seat": "You"}),),
    )
    match = MatchResult(sides=(SideScore((0, 2), 5), SideScore((1, 3), 4)), deals_played=1,
                        deals_total=8, over=False, winner=None,
                        lines=(Line("Match after deal {done} of {deals}: {us} to {them}",
                                    {"done": 1, "deals": 8, "us": 5, "them": 4}),))
    assert summary.result_lines(deal, match) == [
        "[b]End of the deal[/b]", "Trick 1: You wins", "A: 5 tricks", "B: 4 tricks", "",
        "Match after deal 1 of 8: 5 to 4",
    ]
    assert summary.result_lines(deal, None)[-1] == "B: 4 tricks"
