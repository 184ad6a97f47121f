"""A Tractor match (T-2, T-11, T-27, D-1, D-2): both teams' levels, the dealer, deals, the winner.

Dealing (the engine's own method, `deal_from_rng`): for the first deal of a match (no dealer yet)
the seat that starts the bidding is drawn first with `rng.randrange(4)` (D-2); later deals start
the bidding at the known dealer. Then the 108 cards in canonical order (each kind twice) are
shuffled with `rng.shuffle` and dealt one at a time in play order starting at the bidding seat:
card i of the first 100 goes to seat (bid_start + i) mod 4; the last 8, in order, are the kitty.
`new_deal(seed)` is `deal_from_rng(random.Random(seed), ("2", "2"), None)`, which is also the first
deal of `new_match(seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.errors import MalformedRecord
from engine.game import Match
from engine.tractor.cards import NKINDS
from engine.tractor.scoring import ACE, level_name, settle
from engine.tractor.state import TractorState


def deal_from_rng(rng: random.Random, levels: tuple[int, int], dealer: int | None) -> TractorState:
    """Deal one hand as documented above."""
    bid_start = rng.randrange(4) if dealer is None else dealer
    deck = [k for k in range(NKINDS) for _ in range(2)]
    rng.shuffle(deck)
    hands = [[0] * NKINDS for _ in range(4)]
    for i in range(100):
        hands[(bid_start + i) % 4][deck[i]] += 1
    return TractorState(levels, dealer, bid_start, hands, deck[100:])


class TractorMatch(Match):
    """Deals until a team is promoted past A (T-2, D-1)."""

    def __init__(
        self,
        rng: random.Random,
        levels: tuple[int, int] = (0, 0),
        dealer: int | None = None,
        deals: int = 0,
        winner: int | None = None,
        history: list[dict[str, Any]] | None = None,
    ) -> None:
        self.rng = rng
        self.levels = levels
        self.dealer = dealer
        self.deals = deals
        self.winner = winner
        self.history = history if history is not None else []

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def next_deal(self) -> TractorState:
        if self.is_over:
            raise ValueError("the match is over")
        return deal_from_rng(self.rng, self.levels, self.dealer)

    def finish_deal(self, state: Any) -> None:
        if not isinstance(state, TractorState) or not state.is_over:
            raise ValueError("finish_deal needs a finished Tractor deal")
        s = settle(state)
        self.history.append({"dealer": state.dealer, "attack_points": s.attack_points,
                             "levels_after": [level_name(v) for v in s.levels_after]})
        self.levels = s.levels_after
        self.dealer = s.next_dealer
        self.winner = s.match_winner
        self.deals += 1

    def summary(self) -> dict[str, Any]:
        return {
            "levels": [level_name(v) for v in self.levels],
            "dealer": self.dealer,
            "deals": self.deals,
            "winner": self.winner,
        }

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "levels": list(self.levels),
            "dealer": self.dealer,
            "deals": self.deals,
            "winner": self.winner,
            "history": list(self.history),
            "rng": [version, list(internal), gauss],
        }


def restore_match(data: Mapping[str, Any]) -> TractorMatch:
    """Rebuild a match saved by `TractorMatch.to_dict`; `MalformedRecord` if it does not fit."""
    try:
        levels = tuple(int(v) for v in data["levels"])
        dealer = data["dealer"]
        deals = int(data["deals"])
        winner = data["winner"]
        version, internal, gauss = data["rng"]
        history = list(data.get("history", []))
        rng = random.Random()
        rng.setstate((int(version), tuple(int(v) for v in internal), gauss))
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedRecord(f"saved tractor match is incomplete: {exc}") from None
    if len(levels) != 2 or not all(0 <= v <= ACE + 4 for v in levels):
        raise MalformedRecord("saved tractor match: bad levels")
    if dealer is not None and dealer not in (0, 1, 2, 3):
        raise MalformedRecord("saved tractor match: bad dealer")
    if winner is not None and winner not in (0, 1):
        raise MalformedRecord("saved tractor match: bad winner")
    return TractorMatch(rng, (levels[0], levels[1]), dealer, deals, winner, history)
