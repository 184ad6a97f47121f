"""The summary panel's one drawing function over the engine's typed results (ui/table/summary.py):
every line of the deal and the match, translated and filled in, in order."""

from __future__ import annotations

from engine.result import DealResult, Line, MatchResult, SideScore
from ui.table import summary
from ui.table.seats import seat_name, team_name


def test_result_lines_draw_every_explanation_in_order() -> None:
    deal = DealResult(
        sides=(SideScore((0, 2), 5, (Line("{team}: {tricks} tricks", {"team": 0, "tricks": 5}),)),
               SideScore((1, 3), 4, (Line("{team}: {tricks} tricks", {"team": 1, "tricks": 4}),))),
        winners=(0,),
        lines=(Line("Trick {n}: {seat} wins", {"n": 1, "seat": 0}),),
    )
    match = MatchResult(sides=(SideScore((0, 2), 5), SideScore((1, 3), 4)), deals_played=1,
                        deals_total=8, over=False, winner=None,
                        lines=(Line("Match after deal {done} of {deals}: {us} to {them}",
                                    {"done": 1, "deals": 8, "us": 5, "them": 4}),))
    us, them = team_name(0), team_name(1)
    assert summary.result_lines(deal, match) == [
        "[b]End of the deal[/b]", f"Trick 1: {seat_name(0)} wins", f"{us}: 5 tricks",
        f"{them}: 4 tricks", "",
        "Match after deal 1 of 8: 5 to 4",
    ]
    assert summary.result_lines(deal, None)[-1] == f"{them}: 4 tricks"
    assert seat_name(0) != seat_name(1) and us != them
