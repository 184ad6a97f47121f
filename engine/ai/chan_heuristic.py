"""A rule-of-thumb Chắn bot: builds toward ten pairs with at least six Chắn.

- Wins whenever offered (Thiên ù, a revealed stock card) and claims every Chíu (four identical
  cards count as two Chắn; a winning Chíu wins at once).
- Captures when the hand it would keep (after its best discard) is worth more than the hand it
  has: a Chắn counts 2, a Cạ 1.2 up to the four a winning hand may hold (more are a burden),
  every unpaired card costs 2 (a step away from waiting on a win) less what it can still become
  (how many copies of its face and of its rank this seat has not seen). Passing a legal Chắn
  costs a little more: it refuses the face (C-19).
- Discards the card whose loss costs least, minus a penalty for feeding the next player: copies
  still unseen could let them capture it (none at all if they discarded that face, C-20).

It reads only its observation: the hand, public memory and the count of unseen cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.chan.cards import CC, FACES, RANK_FACES
from engine.chan.determinize import shell
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
from engine.chan.observation import ChanObservation

CHAN_VALUE = 2.0
CA_VALUE = 1.2
CA_LIMIT = 4  # W-2: at least six Chắn among ten pairs
EXTRA_CA_COST = 1.5
SINGLE_COST = 2.0  # every unpaired card is a step away from a win
LIVE_SAME = 0.2  # per unseen copy of the single's face (a future Chắn)
LIVE_RANK = 0.06  # per unseen card of the same rank in another suit (a future Cạ)
TRIPLE_BONUS = 0.3  # per unseen fourth copy (a future Chíu)
FEED_SAME = 0.25
FEED_RANK = 0.08
REFUSE_COST = 0.5


def hand_value(counts: Sequence[int], chan: int, ca: int, unseen: Sequence[int]) -> float:
    """How close a hand is to a win: pairs made, unpaired cards left, and what those can still
    become (copies of their face and rank this seat has not seen)."""
    singles: list[int] = []
    value = 0.0
    for f in range(FACES):
        c = counts[f]
        chan += c >> 1
        if c & 1:
            singles.append(f)
        if c == 3:
            value += TRIPLE_BONUS * unseen[f]
    left: list[int] = []
    seen_rank: dict[int, int] = {}
    for f in singles:
        if f == CC:
            left.append(f)
            continue
        partner = next((g for g in RANK_FACES[f] if g in seen_rank), None)
        if partner is not None:
            del seen_rank[partner]
            ca += 1
        else:
            seen_rank[f] = 1
    left.extend(seen_rank)
    value += CHAN_VALUE * chan + CA_VALUE * min(ca, CA_LIMIT) - EXTRA_CA_COST * max(0, ca - CA_LIMIT)
    for f in left:
        value += LIVE_SAME * unseen[f] + LIVE_RANK * sum(unseen[g] for g in RANK_FACES[f])
        value -= SINGLE_COST
    return value


def exposed_pairs(pairs: Sequence[Sequence[int]]) -> tuple[int, int]:
    """How many Chắn and Cạ a row of exposed pairs holds (a Chíu counts as two Chắn)."""
    chan = ca = 0
    for pair in pairs:
        if len(pair) == 4:
            chan += 2
        elif pair[0] == pair[1]:
            chan += 1
        else:
            ca += 1
    return chan, ca


def discard_score(obs: ChanObservation, counts: list[int], chan: int, ca: int,
                  f: int) -> float:
    """The hand kept after discarding face `f` (`counts` is restored), less the risk of
    feeding the next player (copies still unseen could let them capture it)."""
    counts[f] -= 1
    value = hand_value(counts, chan, ca, obs.unseen)
    counts[f] += 1
    return value - feed_risk(obs, f)


def feed_risk(obs: ChanObservation, f: int) -> float:
    """What discarding face `f` risks giving the next player: none if they discarded that face
    (C-20: they may not capture it), else its unseen copies and those of its rank."""
    nxt = (obs.seat + 1) % 4
    if obs.discarded[nxt] >> f & 1:
        return 0.0
    return FEED_SAME * obs.unseen[f] + FEED_RANK * sum(obs.unseen[g] for g in RANK_FACES[f])


def pass_value(obs: ChanObservation, legal: Sequence[int]) -> float:
    """What passing keeps: the hand as it is, less `REFUSE_COST` when a Chắn capture is legal
    (passing it refuses the face, C-19)."""
    chan, ca = exposed_pairs(obs.exposed[obs.seat])
    value = hand_value(obs.hand, chan, ca, obs.unseen)
    if any(a == obs.open_card for a in legal):
        value -= REFUSE_COST
    return value


def respond_values(obs: ChanObservation, legal: Sequence[int]) -> list[tuple[int, float, int]]:
    """Each legal response but a Chíu or a win, as the bot weighs it: (action, value, the face
    it would discard next or -1). Pass is worth `pass_value`; a capture its best discard after
    (left out when no discard follows)."""
    chan, ca = exposed_pairs(obs.exposed[obs.seat])
    out: list[tuple[int, float, int]] = []
    own = None
    for a in legal:
        if a == PASS:
            out.append((PASS, pass_value(obs, legal), -1))
            continue
        if a in (CHIU, WIN):
            continue
        if own is None:
            own = shell(obs)
        trial = own.clone()
        trial._do(a)
        counts = list(trial.counts[obs.seat * FACES:(obs.seat + 1) * FACES])
        c2 = chan + (1 if a == obs.open_card else 0)
        k2 = ca + (0 if a == obs.open_card else 1)
        discards = trial.legal_actions()
        if not discards:
            continue
        value, face = max((discard_score(obs, counts, c2, k2, d - DISCARD_BASE),
                           DISCARD_BASE - d) for d in discards)
        out.append((a, value, -face))
    return out


class ChanHeuristicBot:
    """Heuristic Chắn player (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Any, legal_actions: Sequence[int]) -> int:
        obs: ChanObservation = observation
        legal = list(legal_actions)
        if WIN in legal:
            return WIN
        if CHIU in legal:
            return CHIU
        if len(legal) == 1:
            return legal[0]
        if obs.phase == "discard":
            return self._discard(obs, legal)
        return self._respond(obs, legal)

    def _discard(self, obs: ChanObservation, legal: list[int]) -> int:
        counts = list(obs.hand)
        chan, ca = exposed_pairs(obs.exposed[obs.seat])
        best = max(legal, key=lambda a: (discard_score(obs, counts, chan, ca,
                                                       a - DISCARD_BASE), -a))
        return best

    def _respond(self, obs: ChanObservation, legal: list[int]) -> int:
        best, best_value = PASS, pass_value(obs, legal)
        for a, value, _ in respond_values(obs, legal):
            if a != PASS and value > best_value:
                best, best_value = a, value
        return best
