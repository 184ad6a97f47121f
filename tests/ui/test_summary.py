"""The summary panel's one drawing function over the engine's typed results (ui/table/summary.py):
the key facts first (who won the deal, every side's score, the match standing), then why; every
line translated and filled in, seats and teams named as on the table, none shown twice."""

from __future__ import annotations

from engine.result import DealResult, Line, MatchResult, SideScore
from ui.table import seats, summary
from ui.table.seats import seat_markup as seat_name
from ui.table.seats import team_markup as team_name

TRICKS = "{team}: {tricks} tricks"


def teams_deal() -> DealResult:
    return DealResult(
        sides=(SideScore((0, 2), 5, (Line(TRICKS, {"team": 0, "tricks": 5}),)),
               SideScore((1, 3), 4, (Line(TRICKS, {"team": 1, "tricks": 4}),))),
        winners=(0,),
        lines=(Line("Trick {n}: {seat} wins", {"n": 1, "seat": 0}),
               Line("Next dealer: {seat}.", {"seat": 1})),
    )


def test_result_lines_put_the_key_facts_first() -> None:
    match = MatchResult(sides=(SideScore((0, 2), 5, (Line("Deal {n}: {score}", {"n": 1, "score": 5}),)),
                               SideScore((1, 3), 4, (Line("Deal {n}: {score}", {"n": 1, "score": 4}),))),
                        deals_played=1, deals_total=8, over=False, winner=None,
                        lines=(Line("Match after deal {done} of {deals}: {us} to {them}",
                                    {"done": 1, "deals": 8, "us": 5, "them": 4}),
                               Line("Next dealer: {seat}.", {"seat": 1})))
    us, them = team_name(0), team_name(1)
    assert summary.result_lines(teams_deal(), match) == [
        "[b]End of the deal[/b]", "Deal 1 of 8", f"[b]{us} wins the deal.[/b]", f"{us}: 5 tricks",
        f"{them}: 4 tricks",
        "Match after deal 1 of 8: 5 to 4", f"Next dealer: {seat_name(1)}.",
        "", f"Trick 1: {seat_name(0)} wins",  # the next dealer is not said twice
    ]
    over = MatchResult(match.sides, 8, 8, True, 0, match.lines)
    assert summary.result_lines(teams_deal(), over)[7:9] == [  # the recap once it is over
        f"{us} (5): Deal 1: 5", f"{them} (4): Deal 1: 4"]
    assert summary.result_lines(teams_deal(), None)[-2:] == [
        f"Trick 1: {seat_name(0)} wins", f"Next dealer: {seat_name(1)}."]
    assert seat_name(0) != seat_name(1) and us != them


def test_a_match_won_is_bold_and_a_one_deal_match_is_the_deal() -> None:
    over = MatchResult(sides=(SideScore((0, 2), 9), SideScore((1, 3), 3)), deals_played=8,
                       deals_total=8, over=True, winner=0,
                       lines=(Line("{team} wins the match.", {"team": 0}),))
    assert f"[b]{team_name(0)} wins the match.[/b]" in summary.result_lines(teams_deal(), over)
    single = MatchResult(sides=over.sides, deals_played=1, deals_total=1, over=True, winner=0,
                         lines=(Line("Drawn deals: {draws}", {"draws": 0}),))
    assert summary.result_lines(teams_deal(), single) == summary.result_lines(teams_deal(), None)


def test_the_deal_the_match_is_at_is_said_in_words() -> None:
    """Issue 33: "Deal 2 of 5" on every summary; "Deal 3" in a Tractor match to A (no fixed
    length); nothing for a one-deal match, nor for a deal the match does not count (a lesson,
    a record shown: no deal counted yet)."""
    from ui.i18n import translator

    sides = (SideScore((0, 2), 1), SideScore((1, 3), 0))
    at = MatchResult(sides, deals_played=2, deals_total=5, over=False, winner=None)
    assert summary.progress_line(at) == "Deal 2 of 5"
    assert summary.result_lines(teams_deal(), at)[1] == "Deal 2 of 5"
    to_ace = MatchResult(sides, deals_played=3, deals_total=None, over=False, winner=None)
    assert summary.progress_line(to_ace) == "Deal 3"
    assert summary.progress_line(MatchResult(sides, 1, 1, True, 0)) == ""
    assert summary.progress_line(MatchResult(sides, 0, 5, False, None)) == ""
    assert summary.progress_line(None) == ""
    try:
        translator.set_language("vi")
        assert summary.progress_line(at) == "Ván 2/5"
        assert summary.progress_line(to_ace) == "Ván 3"
    finally:
        translator.set_language("en")


def test_players_as_sides_are_named_when_their_lines_do_not_say_whose() -> None:
    deal = DealResult(
        sides=(SideScore((0,), 6, (Line("Receives {amount}", {"amount": 6}),)),
               SideScore((1,), -6, (Line("Pays {score} to {winner}", {"score": 6, "winner": 0}),))),
        winners=(0,))
    assert summary.result_lines(deal, None) == [
        "[b]End of the deal[/b]", "[b]You win the deal.[/b]", "You: Receives 6",
        f"{seat_name(1)}: Pays 6 to You"]
    lost = DealResult(sides=deal.sides, winners=(1,))
    assert summary.result_lines(lost, None)[1] == f"[b]{seat_name(1)} wins the deal.[/b]"
    drawn = DealResult(sides=deal.sides, winners=(), lines=(Line("Drawn"),))
    assert summary.result_lines(drawn, None)[1] == "You: Receives 6"


def test_deal_outcome_compares_with_the_best_other_side() -> None:
    assert summary.deal_outcome(teams_deal(), 2) == ("win", 5)
    assert summary.deal_outcome(teams_deal(), 1) == ("loss", 4)
    chan = DealResult(sides=tuple(SideScore((s,), 39 if s == 2 else -13) for s in range(4)),
                      winners=(2,))
    assert summary.deal_outcome(chan, 0) == ("loss", -13)
    assert summary.deal_outcome(chan, 2) == ("win", 39)
    drawn = DealResult(sides=tuple(SideScore((s,), 0) for s in range(4)), winners=())
    assert summary.deal_outcome(drawn, 0) == ("draw", 0)


def test_names_are_escaped_in_the_markup_lines_only() -> None:
    """A name is text: plain where a label is plain, escaped where it is markup (issue 33)."""
    seats.use_names(["[b]Bo[/b]", "Tom & Jerry", "", ""], None)
    try:
        assert seats.seat_name(0) == "[b]Bo[/b]" and seats.team_name(1) == "Tom & Jerry's team"
        assert seats.seat_markup(0) == "&bl;b&br;Bo&bl;/b&br;"
        assert seats.team_markup(1) == "[color=ff8a50]Tom &amp; Jerry's team[/color]"
        lines = summary.result_lines(teams_deal(), None)
        assert "[b][color=5aa0ff]&bl;b&br;Bo&bl;/b&br;'s team[/color] wins the deal.[/b]" in lines
        assert "Trick 1: &bl;b&br;Bo&bl;/b&br; wins" in lines
        assert summary.side_name(teams_deal().sides, 0) == "[b]Bo[/b]'s team"  # the chart's
    finally:
        seats.use_names([])
