"""End-of-deal scoring of Hachinin Meri (H-30..H-33, D-3, D-4, D-8, D-9) and its explanation.

The state calls `combination_transfer` and `score_trick` as each trick closes; once the deal is
over `result_json` gives the records.md `result` object and `deal_result` the typed
`engine.result.DealResult`: the two teams in `MeriGame.teams` order with their deal score, the
winning team, and the explanation as `Line`s.

Line arguments follow one convention so a table can show names and the CLI plain values: `seat`
is a seat number, `team` / `loser` a team index (0 = seats 0, 2, 4, 6; 1 = seats 1, 3, 5, 7),
`card` / `w` / `y` a card code (`KSu`), `n` the trick number (1..9); the rest are counts. The
texts are the ones the Meri table already translates where the fact is the same.

This module reads a state (see `ScoredDeal`) and never imports `engine.meri.state`: the state
imports it.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.meri.cards import CODES, COMBINATIONS, TRUMP_MASK, TRUMP_RANK, robai
from engine.result import CardGroup, DealResult, Line, SideScore

TEAMS = ((0, 2, 4, 6), (1, 3, 5, 7))  # H-2

Trick = tuple[int, tuple[int, ...], int, bool, int]  # (leader, cards by seat, winner, meri, transfer)

# The explanation texts (English gettext msgids; see the module docstring for their fields).
DECLARED = "{seat} declared the native Robai {card} and took the Okie"
OKIE_IS_ROBAI = "The Okie {card} is the native Robai: it counts as declared"
ALL_PASSED = "All passed: {seat}, the dealer, took the Okie"
NOT_DECLARED = "The native Robai {card} was not declared"
NOT_DEALT = "The native Robai {card} was not dealt"
TRICK_WON = "Trick {n}: {seat} wins with {card}: +1 for {team}"
MERI = "Trick {n} was a Meri: no combination"
FACE_DOWN_TRUMPS = "Trick {n}: trumps played face down: {count}"
COMBINATION = "Combination {w} over {y}: {points} points from {loser} to {team}"
COMBINATION_TRICK_9 = "Combination {w} over {y} in trick 9: {points} points from {loser} to {team}"
COMBINATION_UNDECLARED = ("Combination {w} over {y}, the native Robai not declared: "
                          "{points} points from {loser} to {team}")
TEAM_TOTAL = "{team}: {tricks} tricks, combinations {transfers:+d} = {score}"
# The card groups' labels (the summary's pictures).
TRICKS_TAKEN = "{team}: {tricks} tricks"
COMBINATION_GROUP = "Trick {n}: {points} points to {team}"


class ScoredDeal(Protocol):
    """What scoring reads of a deal (`MeriState` has it): public attributes only."""

    dealer: int
    trump: int
    okie: int
    undealt: tuple[int, ...]
    declarer: int
    receiver: int
    declared: bool
    is_over: bool
    tricks: list[Trick]
    team_scores: list[int]
    team_tricks: list[int]


def opposing_best(cards: tuple[int, ...], winner: int, trump: int) -> int:
    """H-31: the strongest trump played by the team not winning the trick, or -1 if none."""
    ranks = TRUMP_RANK[trump]
    y, best = -1, 0
    for k in (1, 3, 5, 7):  # the opposing team's seats
        c = cards[(winner + k) & 7]
        if ranks[c] > best:
            y, best = c, ranks[c]
    return y


def combination_transfer(cards: tuple[int, ...], winner: int, trump: int, declared: bool,
                         last: bool) -> int:
    """H-31, H-32: points a non-Meri trick's combination moves to the winner's team (0, 2 or 5).

    `last` is trick 9 (D-3: never a Meri, 5 points); `declared` whether the native Robai counts
    as declared (H-12, D-9): an undeclared one makes its Sota–Robai and Robai–Rei pairs worth 5.
    """
    w = cards[winner]
    if not TRUMP_MASK[trump] >> w & 1:
        return 0
    y = opposing_best(cards, winner, trump)
    if y < 0:
        return 0
    robai_pair = COMBINATIONS[trump].get((w, y))
    if robai_pair is None:
        return 0
    return 5 if last or (robai_pair and not declared) else 2


def score_trick(deal: ScoredDeal, leader: int, cards: tuple[int, ...], winner: int, meri: bool,
                transfer: int) -> None:
    """H-30, H-33: one point per trick; the combination moves `transfer` between the teams."""
    team = winner & 1
    deal.team_tricks[team] += 1
    deal.team_scores[team] += 1 + transfer
    deal.team_scores[team ^ 1] -= transfer
    deal.tricks.append((leader, cards, winner, meri, transfer))


def result_json(deal: ScoredDeal) -> dict[str, Any] | None:
    """records.md's meri `result` (card codes), or None until the deal is over."""
    if not deal.is_over:
        return None
    return {
        "tricks": [
            {"leader": lead, "cards": [CODES[c] for c in cards], "winner": win,
             "meri": meri, "transfer": transfer}
            for lead, cards, win, meri, transfer in deal.tricks
        ],
        "team_scores": list(deal.team_scores),
    }


def transfers_of(deal: ScoredDeal) -> list[int]:
    """Per team, the combination points received minus paid over the deal's tricks (H-33)."""
    out = [0, 0]
    for _leader, _cards, winner, _meri, transfer in deal.tricks:
        out[winner & 1] += transfer
        out[(winner & 1) ^ 1] -= transfer
    return out


def declaration_lines(deal: ScoredDeal) -> list[Line]:
    """Who took the Okie and whether the native Robai counts as declared (H-12, H-13, D-9)."""
    native = robai(deal.trump)
    card = CODES[native]
    if deal.declarer >= 0:
        return [Line(DECLARED, {"seat": deal.declarer, "card": card})]
    lines = [Line(ALL_PASSED, {"seat": deal.dealer})]
    if deal.okie == native:
        lines.insert(0, Line(OKIE_IS_ROBAI, {"card": card}))
    elif native in deal.undealt[1:]:
        lines.append(Line(NOT_DEALT, {"card": card}))
    else:
        lines.append(Line(NOT_DECLARED, {"card": card}))
    return lines


def trick_lines(deal: ScoredDeal) -> list[Line]:
    """Per trick: its winner and point (H-30); a Meri (H-21: no combination), else its face-down
    trumps (H-24, tricks 1-8) and its combination with why it is worth 2 or 5 (H-31, H-32)."""
    tmask = TRUMP_MASK[deal.trump]
    lines = []
    for number, (leader, cards, winner, meri, transfer) in enumerate(deal.tricks, start=1):
        team = winner & 1
        lines.append(Line(TRICK_WON, {"n": number, "seat": winner, "card": CODES[cards[winner]],
                                      "team": team}))
        if meri:
            lines.append(Line(MERI, {"n": number}))
            continue
        if number < 9:  # trick 9 turns every card up at once (H-29)
            down = sum(1 for s in range(8) if s != leader and tmask >> cards[s] & 1)
            if down:
                lines.append(Line(FACE_DOWN_TRUMPS, {"n": number, "count": down}))
        if not transfer:
            continue
        w, y = cards[winner], opposing_best(cards, winner, deal.trump)
        if transfer == 5:
            text = COMBINATION_TRICK_9 if number == 9 else COMBINATION_UNDECLARED
        else:
            text = COMBINATION
        lines.append(Line(text, {"n": number, "w": CODES[w], "y": CODES[y], "points": transfer,
                                 "loser": team ^ 1, "team": team}))
    return lines


def card_groups(deal: ScoredDeal) -> list[CardGroup]:
    """The deal's cards that made the score: per team the winning card of every trick it took
    (H-30: a point each), then each combination's pair, the winner's trump over the opposing
    best (H-31), with the points it moved to the winner's team (H-32: 2 or 5)."""
    groups = []
    for team in (0, 1):
        won = tuple(CODES[cards[winner]] for _lead, cards, winner, _meri, _t in deal.tricks
                    if winner & 1 == team)
        groups.append(CardGroup(won, Line(TRICKS_TAKEN, {"team": team, "tricks": len(won)}),
                                side=team, points=len(won)))
    for number, (_lead, cards, winner, _meri, transfer) in enumerate(deal.tricks, start=1):
        if transfer:
            w, y = cards[winner], opposing_best(cards, winner, deal.trump)
            groups.append(CardGroup(
                (CODES[w], CODES[y]),
                Line(COMBINATION_GROUP, {"n": number, "points": transfer, "team": winner & 1}),
                side=winner & 1, points=transfer, mark=0))
    return groups


def deal_result(deal: ScoredDeal) -> DealResult:
    """The finished deal as a `DealResult` (team 0 first); `ValueError` while it goes on.

    Each side's score is its deal score (H-33: tricks + transfers in - transfers out), explained
    by one `TEAM_TOTAL` line; the winner is the team with more (the scores sum to 9, so never a
    draw); `lines` are `declaration_lines` then `trick_lines`.
    """
    if not deal.is_over:
        raise ValueError("the deal is not over")
    transfers = transfers_of(deal)
    sides = tuple(
        SideScore(seats, deal.team_scores[team], (
            Line(TEAM_TOTAL, {"team": team, "tricks": deal.team_tricks[team],
                              "transfers": transfers[team], "score": deal.team_scores[team]}),))
        for team, seats in enumerate(TEAMS))
    a, b = deal.team_scores
    winners = (0,) if a > b else (1,) if b > a else ()
    return DealResult(sides, winners, tuple(declaration_lines(deal) + trick_lines(deal)),
                      groups=tuple(card_groups(deal)))
