"""A rule-based Hachinin Meri bot: sensible play from the observation alone (no search).

The rules, in the order they are tried:
- Declaration (H-12): conceal the native Robai (pass) when the hand also holds the trump Sota,
  otherwise declare and take the Okie. Concealing makes both Robai combinations worth 5 (H-32):
  a gain when the Robai beats an opposing Rei, a loss when an opposing Sota beats the Robai —
  which cannot happen while we hold the Sota. (Measured against always/never declaring: this
  rule was as good as always declaring and clearly better than never.)
- Discard (H-14): the weakest non-trump, preferring one that empties a short suit.
- Lead: draw trumps with a Meri (H-21) when holding the highest trump not yet seen and at least
  two trumps; else lead a plain card that no unseen card of its suit outranks (a master); else
  the weakest plain card (keeping high trumps for combinations); a receiver with only trumps in
  trick 1 leads its lowest trump (D-2).
- Follow: never overtake a partner who is winning with a face-up card while no opponent trump is
  face down, nor a partner who played a face-down trump — throw the weakest legal card instead. Otherwise win as cheaply as possible
  when the trick can be won for sure from what is visible (a higher card of the led suit, or the
  lowest trump that beats a plain lead; in a Meri the lowest trump that beats the best trump);
  prefer a winning trump that makes a combination with the opponents' best visible trump (H-31).
  Against a face-down opponent trump, whose rank is unknown, only a Sun, Un or Sota is played to
  win; else throw the weakest card. The trump honours (Sun, Un, Sota, Tenka, native Robai) are
  never thrown cheaply: "weakest" ranks every trump above every plain card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.meri.cards import (
    COMBINATIONS,
    PLAIN_RANK,
    POWER,
    SO,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_MASK,
    TRUMP_ORDER,
    TRUMP_RANK,
    card,
    cards_of,
)
from engine.meri.legal import DECLARE, PASS
from engine.meri.observation import FACE_DOWN, MeriObservation


def is_master(obs: MeriObservation, c: int) -> bool:
    """True when no unseen card of c's plain suit outranks it."""
    suit = SUIT_MASK[SUIT_OF[c]] & ~TRUMP_MASK[obs.trump]
    rank = PLAIN_RANK[c]
    return not any(PLAIN_RANK[x] > rank for x in cards_of(obs.pool & suit))


class TrickSoFar(NamedTuple):
    """The trick being played as a seat sees it (a suit has been led)."""

    best: int  # the best face-up card's power (`POWER`), 0 if none
    winner: int  # its seat, -1 if none
    hidden_opp: bool  # an opponent played a face-down trump
    hidden_partner: bool  # a partner did
    played: int  # cards in the trick


def trick_so_far(obs: MeriObservation) -> TrickSoFar:
    """The trick so far, in playing order from its leader."""
    seat = obs.seat
    power = POWER[obs.trump][obs.led]
    best, winner, played = 0, -1, 0
    hidden_opp = hidden_partner = False
    for k in range(8):
        s = (obs.leader + k) & 7
        c = obs.trick[s]
        if c < 0:
            break
        played += 1
        if c == FACE_DOWN:
            if (s ^ seat) & 1:
                hidden_opp = True
            else:
                hidden_partner = True
            continue
        if power[c] > best:
            best, winner = power[c], s
    return TrickSoFar(best, winner, hidden_opp, hidden_partner, played)


def opponents_best_trump(obs: MeriObservation) -> int:
    """The opponents' highest face-up trump in the trick (-1: none)."""
    ranks = TRUMP_RANK[obs.trump]
    out, rank = -1, 0
    for s, c in enumerate(obs.trick):
        if 0 <= c < FACE_DOWN and (s ^ obs.seat) & 1 and ranks[c] > rank:
            out, rank = c, ranks[c]
    return out


class MeriHeuristicBot:
    """The rule-based bot described in the module docstring (deterministic; `seed` breaks ties)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: MeriObservation, legal_actions: Sequence[Any]) -> Any:
        obs = observation
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        if obs.phase == "declare":
            sota = obs.hand >> card(obs.trump, SO) & 1
            return PASS if sota or DECLARE not in legal else DECLARE
        if obs.phase == "discard":
            return self._discard(obs, legal)
        if all(c < 0 for c in obs.trick):
            return self._lead(obs, legal)
        return self._follow(obs, legal)

    # ---- helpers -------------------------------------------------------------------------
    def _value(self, obs: MeriObservation, c: int) -> int:
        """How much a card is worth keeping: trumps above all plain cards."""
        rank = TRUMP_RANK[obs.trump][c]
        return 100 + rank if rank else PLAIN_RANK[c]

    def _weakest(self, obs: MeriObservation, legal: list[int]) -> int:
        hand = obs.hand
        # Among equally weak cards, empty the shortest suit first (fewer obligations later).
        return min(legal, key=lambda c: (self._value(obs, c),
                                         (hand & SUIT_MASK[SUIT_OF[c]]).bit_count(), c))

    def _discard(self, obs: MeriObservation, legal: list[int]) -> int:
        hand = obs.hand
        return min(legal, key=lambda c: ((hand & SUIT_MASK[SUIT_OF[c]]).bit_count() > 2,
                                         self._value(obs, c), c))

    def _lead(self, obs: MeriObservation, legal: list[int]) -> int:
        tmask = TRUMP_MASK[obs.trump]
        trumps = [c for c in legal if tmask >> c & 1]
        plain = [c for c in legal if not tmask >> c & 1]
        if trumps and not plain:
            return min(trumps, key=lambda c: TRUMP_RANK[obs.trump][c])
        if len(trumps) >= 2:
            seen = obs.hand
            for _lead, cards, _w, _m, _t in obs.tricks:
                for c in cards:
                    seen |= 1 << c
            top = next(c for c in TRUMP_ORDER[obs.trump] if not seen >> c & 1 or obs.hand >> c & 1)
            if obs.hand >> top & 1:
                return top
        masters = [c for c in plain if is_master(obs, c)]
        if masters:
            return max(masters, key=lambda c: PLAIN_RANK[c])
        return self._weakest(obs, plain or legal)

    def _follow(self, obs: MeriObservation, legal: list[int]) -> int:
        trump, seat = obs.trump, obs.seat
        power = POWER[trump][obs.led]
        best, winner, hidden_opp, hidden_partner, _played = trick_so_far(obs)
        partner_winning = winner >= 0 and (winner ^ seat) & 1 == 0
        if partner_winning and not hidden_opp:
            return self._weakest(obs, legal)
        if hidden_partner:  # the partner may be winning with an unknown trump: don't overtake
            return self._weakest(obs, legal)
        if hidden_opp:
            high = [c for c in legal if TRUMP_RANK[trump][c] >= TRUMP_RANK[trump][card(trump, SO)]]
            return min(high, key=lambda c: power[c]) if high else self._weakest(obs, legal)
        winners = [c for c in legal if power[c] > best]
        if not winners:
            return self._weakest(obs, legal)
        # Prefer a winning trump that forms a combination with the opponents' best visible trump.
        opp_best = opponents_best_trump(obs)
        if not obs.meri and opp_best >= 0:
            combos = [c for c in winners if (c, opp_best) in COMBINATIONS[trump]]
            if combos:
                return combos[0]
        return min(winners, key=lambda c: power[c])


__all__ = ["MeriHeuristicBot", "TrickSoFar", "is_master", "opponents_best_trump",
           "trick_so_far"]
