"""Match lengths in the app (issue 33): the lengths each game offers, in words, and the deal a
match is at ("Deal 2 of 5").

A length is a number of deals, or 0 where a game has an end of its own (Tractor: until a team
passes A, T-2); the lengths offered and the defaults are the engine registry's
(`engine.registry.LENGTHS`, `DEFAULT_LENGTHS`), which the config schema checks `[game]
<game>_deals` against. The settings screen chooses a game's length, the seating screen shows it
and changes it before Play; both go through the app (`ParlorApp.set_match_length`), which
keeps it in the store as that game's setting.
"""

from __future__ import annotations

from typing import Any

from engine import registry
from ui.games import get
from ui.i18n import N_, tr, trf


def lengths(game: str) -> tuple[int, ...]:
    """The lengths offered for `game` (deals; 0 = its own end)."""
    return registry.lengths(game)


def checked(game: str, value: Any) -> int:
    """`value` if it is one of `game`'s lengths (a setting read back from the store may be
    anything), else the game's default."""
    if type(value) is int and value in lengths(game):
        return value
    return registry.default_length(game)


def step(game: str, current: int) -> int:
    """The length after `current` among `game`'s, round to the first (a button that steps)."""
    offered = lengths(game)
    index = offered.index(current) if current in offered else -1
    return offered[(index + 1) % len(offered)]


def words(game: str, deals: int) -> str:
    """A length in words: "8 deals", "1 deal", or the game's own end ("To Ace")."""
    if deals == 0:
        return tr(get(game).own_end or N_("To the end"))
    if deals == 1:
        return tr("1 deal")
    return trf("{n} deals", n=deals)


def match_words(game: str, deals: int) -> str:
    """The match's length as the seating screen's button says it: "Match: 8 deals"."""
    if deals == 0 and get(game).own_end_match:
        return tr(get(game).own_end_match)
    return trf("Match: {length}", length=words(game, deals))


def deal_words(deal: int, total: int | None) -> str:
    """The deal a match is at: "Deal 2 of 5", or "Deal 3" in a match of no fixed length."""
    if total:
        return trf("Deal {n} of {total}", n=deal, total=total)
    return trf("Deal {n}", n=deal)
