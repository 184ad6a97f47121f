"""Scoring a finished deal (T-25..T-27, D-1): attackers' total, promotions, next dealer, winner.

`settle` computes the outcome, `result_json` is the records.md `result` object and `deal_result`
the typed `DealResult` whose `Line`s explain it (the facts the table's summary shows). The state
parameter is a `TractorState`, typed `Any` so that this module imports no state module.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.result import CardGroup, Climb, DealResult, Line, SideScore
from engine.tractor.cards import CODES, POINTS, RANK_NAMES, SUITS, format_cards

ACE = 12
TEAMS = ((0, 2), (1, 3))
WIN_POINTS = 80  # T-27: the attackers' total that takes over the defence

# The explanation lines (English msgids; their {fields} are in each Line's args).
DEAL = "Trump {trump}, level {level}: {dealer} dealt, {defenders} defended."
TRICK_POINTS = "{team} (attackers) won {points} points in tricks: {cards}."
POINT_TRICK = "Trick {n}: {seat} won {points} points ({cards})."
KITTY = "Kitty: {cards} ({points} points)."
KITTY_BONUS = ("{seat} won the last trick for the attackers: kitty points {points}"
               " × {multiplier} = {bonus}.")
KITTY_LOST = "{seat} won the last trick for the defenders: the kitty scores nothing."
ATTACK_TOTAL = "Attackers' total: {points} points."
PROMOTION = "{team} goes up {steps} level(s), from {before} to {after}."
TAKE_OVER = "{team} take over as defenders without promotion."
NEXT_DEALER = "Next dealer: {seat}."
MATCH_WON = "{team} wins the match."
MATCH_DRAWN = "The match is a draw."  # a match of a chosen number of deals, levels equal
SIDE_LEVELS = "{team}: level {before} -> {after}."
SIDE_LEVEL = "{team}: level {level}."
# The card groups' labels (the summary's pictures).
POINT_CARDS = "{team} (attackers) won {points} points"
KITTY_SCORED = "Kitty: {points} points × {multiplier} = {bonus}"
KITTY_KEPT = "Kitty: {points} points, kept by the defenders"
#: The ladder of levels (T-2), "2" to "A", as the summary draws it.
RUNGS: tuple[str, ...] = RANK_NAMES


class Settlement(NamedTuple):
    """A finished deal's outcome with raw level indexes (a level above 12 = promoted past A)."""

    attack_points: int  # including the kitty bonus (T-26)
    kitty_bonus: int
    team_up: int  # the team promoted, or -1
    steps: int  # levels gained
    levels_after: tuple[int, int]
    next_dealer: int
    match_winner: int | None


def promote(total: int, dealer: int, levels: tuple[int, int]) -> Settlement:
    """Apply T-27 to the attackers' `total` for a deal dealt by `dealer` at `levels`."""
    defenders = dealer % 2
    attackers = 1 - defenders
    if total < WIN_POINTS:
        team, steps = defenders, (3 if total == 0 else 2 if total < 40 else 1)
        next_dealer = (dealer + 2) % 4  # the dealer's partner
    else:
        team, steps = attackers, max(0, (total - WIN_POINTS) // 40)
        next_dealer = (dealer + 1) % 4  # the player after the old dealer
    after = list(levels)
    after[team] += steps
    winner = team if after[team] > ACE else None  # D-1: past A by any amount ends the match
    return Settlement(total, 0, team if steps else -1, steps, (after[0], after[1]), next_dealer,
                      winner)


def settle(state: Any) -> Settlement:
    """The outcome of the finished deal `state` (T-26, T-27, D-1)."""
    total = state.points + state.bonus
    s = promote(total, state.dealer, state.levels)
    return s._replace(kitty_bonus=state.bonus)


def level_name(level: int) -> str:
    """A level index as its rank string; past A still shows "A" (records.md)."""
    return RANK_NAMES[min(level, ACE)]


def trump_code(trump: int) -> str:
    """The records.md name of a trump suit: a suit letter, or "NT" for no-trump (T-12)."""
    return "NT" if trump == 4 else SUITS[trump]


def result_json(state: Any) -> dict[str, Any] | None:
    """The records.md `result` object of a finished deal, None while it goes on."""
    if not state.is_over:
        return None
    s = settle(state)
    return {
        "trump": trump_code(state.trump),
        "dealer": state.dealer,
        "attack_points": s.attack_points,
        "kitty_bonus": s.kitty_bonus,
        "levels_after": [level_name(s.levels_after[0]), level_name(s.levels_after[1])],
        "next_dealer": s.next_dealer,
        "match_winner": s.match_winner,
    }


def _points(cards: tuple[int, ...] | list[int]) -> int:
    return sum(POINTS[k] for k in cards)


def deal_result(state: Any) -> DealResult:
    """The finished deal as a `DealResult`; `ValueError` while it goes on.

    Sides are the teams (0, 2) and (1, 3); a side's score is the levels it gained this deal
    (T-27), explained by its level before -> after. The deal is won by the attackers when their
    total reaches 80 (they take over the defence), else by the defenders. `lines`: trump, level
    and dealer; the attackers' card points and the point cards they captured, trick by trick
    (T-25, T-26); the kitty, its bonus and multiplier (T-26); the attackers' total; the promotion
    or take-over (T-27); the next dealer; the match winner if the deal ended the match (D-1).
    `groups`: the point cards the attackers captured, then the kitty with its bonus (T-26);
    `climbs`: each team's level before and after on the ladder `RUNGS` (T-27).
    """
    if not state.is_over:
        raise ValueError("the deal is not over")
    s = settle(state)
    dealer, defenders = state.dealer, state.dealer % 2
    attackers = 1 - defenders
    sides = []
    for team, seats in enumerate(TEAMS):
        before, after = state.levels[team], s.levels_after[team]
        sides.append(SideScore(seats, after - before, (
            Line(SIDE_LEVELS, {"team": team, "before": level_name(before),
                               "after": level_name(after), "steps": after - before}),)))
    winners = (attackers,) if s.attack_points >= WIN_POINTS else (defenders,)
    lines = [Line(DEAL, {"trump": trump_code(state.trump), "level": level_name(state.level),
                         "dealer": dealer, "defenders": defenders})]
    captured: list[int] = []
    trick_lines = []
    for number, (_leader, plays, winner) in enumerate(state.tricks, start=1):
        cards = [k for c in plays for k in c if POINTS[k]]
        if cards and winner % 2 == attackers:
            captured.extend(cards)
            trick_lines.append(Line(POINT_TRICK, {"n": number, "seat": winner,
                                                  "points": _points(cards),
                                                  "cards": format_cards(cards)}))
    lines.append(Line(TRICK_POINTS, {"team": attackers, "points": s.attack_points - s.kitty_bonus,
                                     "cards": format_cards(captured)}))
    lines.extend(trick_lines)
    kitty_points = _points(state.kitty)
    lines.append(Line(KITTY, {"cards": format_cards(state.kitty), "points": kitty_points}))
    _leader, last_plays, last_winner = state.tricks[-1]
    multiplier = 2 * len(last_plays[0])
    bonus_args = {"seat": last_winner, "points": kitty_points, "multiplier": multiplier,
                  "bonus": s.kitty_bonus}
    lines.append(Line(KITTY_BONUS if last_winner % 2 == attackers else KITTY_LOST, bonus_args))
    lines.append(Line(ATTACK_TOTAL, {"points": s.attack_points}))
    if s.team_up >= 0:
        lines.append(Line(PROMOTION, {"team": s.team_up, "steps": s.steps,
                                      "before": level_name(state.levels[s.team_up]),
                                      "after": level_name(s.levels_after[s.team_up])}))
    else:
        lines.append(Line(TAKE_OVER, {"team": attackers}))
    lines.append(Line(NEXT_DEALER, {"seat": s.next_dealer}))
    if s.match_winner is not None:
        lines.append(Line(MATCH_WON, {"team": s.match_winner}))
    groups = (
        CardGroup(_codes(captured), Line(POINT_CARDS, {"team": attackers,
                                                      "points": s.attack_points - s.kitty_bonus}),
                  side=attackers, points=s.attack_points - s.kitty_bonus),
        CardGroup(_codes(state.kitty),
                  Line(KITTY_SCORED, bonus_args) if last_winner % 2 == attackers else
                  Line(KITTY_KEPT, bonus_args),
                  side=attackers if last_winner % 2 == attackers else None,
                  points=s.kitty_bonus if last_winner % 2 == attackers else None),
    )
    climbs = tuple(Climb(team, state.levels[team], s.levels_after[team]) for team in (0, 1))
    return DealResult(tuple(sides), winners, tuple(lines), groups=groups, rungs=RUNGS,
                      climbs=climbs)


def _codes(kinds: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    """Card codes in the order `format_cards` writes them (by kind)."""
    return tuple(CODES[k] for k in sorted(kinds))
