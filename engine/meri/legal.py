"""Legality of a Meri decision as pure functions on bitmasks (H-12, H-14, H-22..H-27, D-2, D-7).

Both the state (`apply`, `legal_actions`) and the observation (a bot's own legal actions) use
these, so the rules are written once. A *legal mask* is the set of cards a player may play.

Also the vocabulary both sides share: the action ids (a card id 0..74, `DECLARE`, `PASS`), with
`is_card` / `card_actions` telling cards from the two declaration answers (so a table never tests
an id range), and the phase numbers of a deal (the state's `_phase`, read by the observation).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.meri.cards import NCARDS, PLAIN_SUIT_MASK, SU, TRUMP_MASK, card

DECLARE = 75  # action ids next to the 75 card ids
PASS = 76
# The phases of a deal, in order (records.md names: `MeriState.phase` gives PHASES[_phase]).
DECLARE_PHASE, DISCARD_PHASE, PLAY_PHASE, OVER_PHASE = range(4)
PHASES = ("declare", "discard", "play", "over")
SUN_BIT: tuple[int, ...] = tuple(1 << card(t, SU) for t in range(5))


def is_card(action: int) -> bool:
    """True if `action` discards or plays a card; False for the answers `DECLARE` and `PASS`."""
    return 0 <= action < NCARDS


def card_actions(actions: Iterable[int]) -> list[int]:
    """The actions of `actions` (e.g. a legal list) that are cards, in their order."""
    return [a for a in actions if 0 <= a < NCARDS]


def discard_mask(hand: int, trump: int) -> int:
    """H-14: discard a non-trump; D-2: a hand of only trumps may discard a trump."""
    plain = hand & ~TRUMP_MASK[trump]
    return plain if plain else hand


def play_mask(
    hand: int, trump: int, trick_no: int, n_played: int, led: int, meri: bool,
    meri_seen: bool, sun_exception: bool,
) -> int:
    """The cards `hand` may play to the current trick (H-22 at a lead, H-25/H-26, H-27)."""
    tmask = TRUMP_MASK[trump]
    if n_played == 0:
        if trick_no == 0:  # H-22, D-2
            plain = hand & ~tmask
            return plain if plain else hand
        return hand
    if meri:  # H-25 with the Sun exception H-26
        trumps = hand & tmask
        if trumps and not (sun_exception and trumps == SUN_BIT[trump]):
            return trumps
        return hand
    if meri_seen:  # H-27 Monchi
        follow = hand & PLAIN_SUIT_MASK[trump][led]
        if follow:
            return follow | (hand & tmask)
    return hand  # H-23: no obligation before the first Meri
