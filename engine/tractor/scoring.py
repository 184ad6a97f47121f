"""Scoring a finished deal (T-25..T-27, D-1): attackers' total, promotions, next dealer, winner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.tractor.cards import RANK_NAMES, SUITS

if TYPE_CHECKING:
    from engine.tractor.state import TractorState

ACE = 12


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
    if total < 80:
        team, steps = defenders, (3 if total == 0 else 2 if total < 40 else 1)
        next_dealer = (dealer + 2) % 4  # the dealer's partner
    else:
        team, steps = attackers, max(0, (total - 80) // 40)
        next_dealer = (dealer + 1) % 4  # the player after the old dealer
    after = list(levels)
    after[team] += steps
    winner = team if after[team] > ACE else None  # D-1: past A by any amount ends the match
    return Settlement(total, 0, team if steps else -1, steps, (after[0], after[1]), next_dealer,
                      winner)


def settle(state: TractorState) -> Settlement:
    total = state.points + state.bonus
    s = promote(total, state.dealer, state.levels)
    return s._replace(kitty_bonus=state.bonus)


def level_name(level: int) -> str:
    """A level index as its rank string; past A still shows "A" (records.md)."""
    return RANK_NAMES[min(level, ACE)]


def deal_result(state: TractorState) -> dict[str, Any]:
    """The records.md `result` object of a finished deal."""
    s = settle(state)
    return {
        "trump": "NT" if state.trump == 4 else SUITS[state.trump],
        "dealer": state.dealer,
        "attack_points": s.attack_points,
        "kitty_bonus": s.kitty_bonus,
        "levels_after": [level_name(s.levels_after[0]), level_name(s.levels_after[1])],
        "next_dealer": s.next_dealer,
        "match_winner": s.match_winner,
    }
