"""The end-of-deal explanation of a Meri deal: every trick point and every combination.

Built from seat 0's observation (the whole deal is public once it is over) as plain lines
(Kivy markup), so the summary panel and the tests read the same text.
"""

from __future__ import annotations

from typing import Any

from engine.meri.cards import COMBINATIONS, TRUMP_RANK, name
from ui.i18n import tr, trf
from ui.table.seats import seat_name, team_name


def opposing_best(cards: tuple[int, ...], winner: int, trump: int) -> int:
    """The strongest trump the team not winning the trick played (H-31), or -1."""
    ranks = TRUMP_RANK[trump]
    best, card = 0, -1
    for k in (1, 3, 5, 7):
        c = cards[(winner + k) & 7]
        if ranks[c] > best:
            best, card = ranks[c], c
    return card


def trick_lines(obs: Any) -> list[str]:
    """One line per trick, plus one per combination with its transfer and why it is 2 or 5."""
    lines = []
    for number, (_leader, cards, winner, meri, transfer) in enumerate(obs.tricks, start=1):
        team = winner & 1
        text = trf(
            "Trick {n}: {seat} wins with {card}: +1 for {team}",
            n=number, seat=seat_name(winner), card=name(cards[winner]), team=team_name(team),
        )
        if meri:
            text += "  " + tr("(Meri: no combination)")
        lines.append(text)
        if transfer:
            y = opposing_best(cards, winner, obs.trump)
            pair = (cards[winner], y)
            why = ""
            if transfer == 5:
                robai_pair = COMBINATIONS[obs.trump].get(pair, False)
                why = tr("trick 9") if number == 9 else ""
                if robai_pair and not obs.declared and number != 9:
                    why = tr("the native Robai was not declared")
            lines.append(
                "    "
                + trf(
                    "Combination {w} over {y}: {points} points from {loser} to {team}",
                    w=name(pair[0]), y=name(y) if y >= 0 else "?", points=transfer,
                    loser=team_name(team ^ 1), team=team_name(team),
                )
                + (f" ({why})" if why else "")
            )
    return lines


def totals_lines(obs: Any, match: dict[str, Any]) -> list[str]:
    """Tricks and transfers per team, the deal score, and the match standing."""
    transfers = [0, 0]
    for _leader, _cards, winner, _meri, transfer in obs.tricks:
        transfers[winner & 1] += transfer
        transfers[(winner & 1) ^ 1] -= transfer
    lines = []
    for team in (0, 1):
        lines.append(
            trf(
                "{team}: {tricks} tricks, combinations {transfers:+d} = {score}",
                team=team_name(team), tricks=obs.team_tricks[team], transfers=transfers[team],
                score=obs.team_scores[team],
            )
        )
    scores = match.get("scores", [0, 0])
    lines.append(
        trf(
            "Match after deal {done} of {deals}: {us} to {them}",
            done=match.get("deals_played", 0), deals=match.get("deals", 8),
            us=scores[0], them=scores[1],
        )
    )
    if match.get("over"):
        if match.get("draw"):
            lines.append("[b]" + tr("The match is a draw.") + "[/b]")
        elif match.get("winner") == 0:
            lines.append("[b]" + tr("Your team wins the match!") + "[/b]")
        else:
            lines.append("[b]" + tr("The other team wins the match.") + "[/b]")
    return lines
