"""A rule-of-thumb Tractor bot: sensible bids, a tidy burial, strong leads, points to partners.

It reads only its observation and the legal actions (a lazy set for follows: it never lists a
huge one, it builds a few candidate plays and keeps the legal ones). Rules of thumb:
- Bidding: declare the suit (or no-trump) that would give the most and strongest trumps, only
  when that hand is long enough; otherwise pass.
- Burial: keep trumps, points and high cards; void the shortest plain suits when they fit in 8,
  then bury the lowest plain non-point cards.
- Leads: the strongest plain tractor, then a plain pair or single that is top of its suit
  (nothing higher unseen), else a low plain card; trumps only when little else is left.
- Follows: when the partner is winning, feed points; when the trick can be won cheaply, win it
  (more readily the more points it holds); otherwise throw the cheapest cards. Jokers and trump
  pairs count as expensive, so they are not wasted on pointless tricks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.tractor.cards import (
    BJ,
    KIND_SUIT,
    NKINDS,
    POINTS,
    RJ,
    TRUMP,
    Context,
    context,
    shape,
)
from engine.tractor.state import BURY, PASS

Action = tuple[int, ...]
ENUMERATE_LIMIT = 400


def keep_value(ctx: Context, k: int) -> float:
    """How much a card is worth keeping: trumps far above plain cards, jokers most."""
    p = ctx.pos[k]
    if ctx.eff[k] == TRUMP:
        return 30.0 + 3.0 * p
    return float(p) + (4.0 if p == ctx.top_plain else 0.0)


def stands(obs: Any, ctx: Context, key: int) -> bool:
    """Will a play of strength `key` (the trick's key scale) most likely win the trick?
    Yes when nothing unseen can beat it in its suit (a pair or longer needs two unseen
    copies) and, for a plain play, no opponent still to play has shown a void in that suit."""
    if len(obs.trick) == 3:
        return True
    trump = key >= 100
    top = key - 100 if trump else key
    suit = TRUMP if trump else obs.lead_suit
    need = 1 if len(obs.trick[0]) == 1 else 2
    if any(obs.unseen[k] >= need and ctx.pos[k] > top for k in ctx.suit_kinds[suit]):
        return False
    if not trump:
        later = [(obs.seat + i) % 4 for i in range(1, 4 - len(obs.trick))]
        if any(obs.voids[s] >> obs.lead_suit & 1 for s in later if (s - obs.seat) % 2):
            return False
    return True


def top_of_suit(obs: Any, ctx: Context, action: Action) -> bool:
    """Nothing unseen in the play's effective suit is stronger than its cards."""
    k = action[-1] if len(action) > 1 else action[0]
    lowest = min(ctx.pos[c] for c in action)
    return not any(obs.unseen[c] and ctx.pos[c] > lowest for c in ctx.suit_kinds[ctx.eff[k]])


def opponent_void(obs: Any, suit: int) -> bool:
    """An opponent of the seat has shown a void in effective suit `suit`."""
    seat = obs.seat
    return any(obs.voids[s] >> suit & 1 for s in ((seat + 1) % 4, (seat + 3) % 4))


def play_key(ctx: Context, action: Action) -> int:
    """A play's strength on the trick's key scale (trumps above every plain card)."""
    s, top = shape(ctx, action)
    return top + (100 if s == TRUMP else 0)


def beats(obs: Any, ctx: Context, action: Action) -> bool:
    """A follow that beats the trick so far (a single, pair or tractor of the led suit or of
    trumps above the winning play)."""
    s, top = shape(ctx, action)
    if s < 0 or (s != obs.lead_suit and s != TRUMP):
        return False
    return top + (100 if s == TRUMP else 0) > obs.win_key


class TractorHeuristicBot:
    """The rule-of-thumb bot described above; `seed` breaks ties reproducibly."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Any, legal: Sequence[Action]) -> Action:
        if obs.phase == "declare":
            return self._bid(obs, legal)
        if obs.phase == "bury":
            return self._bury(obs, legal)
        if not obs.trick:
            return self._lead(obs, legal)
        return self._follow(obs, legal)

    # -- bidding -----------------------------------------------------------------------------
    def _bid(self, obs: Any, legal: Sequence[Action]) -> Action:
        hand = obs.hand
        best, best_score = PASS, 0.0
        for action in legal:
            if action == PASS:
                continue
            cards = action[1:]
            trump = 4 if cards[0] in (RJ, BJ) else KIND_SUIT[cards[0]]
            ctx = context(obs.level, trump)
            trumps = [k for k in range(NKINDS) if hand[k] and ctx.eff[k] == TRUMP]
            count = sum(hand[k] for k in trumps)
            pairs = sum(1 for k in trumps if hand[k] == 2)
            score = count + 1.5 * pairs + 0.3 * sum(ctx.pos[k] * hand[k] for k in trumps) / 10
            need = 9.0 if trump != 4 else 8.0
            if score >= need and score > best_score:
                best, best_score = action, score
        return best

    # -- burial -------------------------------------------------------------------------------
    def _bury(self, obs: Any, legal: Sequence[Action]) -> Action:
        ctx = context(obs.level, obs.trump)
        hand = list(obs.hand)
        chosen: list[int] = []
        plain = {s: [k for k in ctx.suit_kinds[s] if hand[k]] for s in range(4)}
        lengths = sorted((sum(hand[k] for k in ks), s) for s, ks in plain.items() if ks)
        for length, s in lengths:
            kinds = plain[s]
            strong = any(ctx.pos[k] == ctx.top_plain or hand[k] == 2 for k in kinds)
            if length <= 8 - len(chosen) and not strong and length <= 4:
                for k in kinds:
                    chosen.extend((k,) * hand[k])
                    hand[k] = 0
        rest = sorted(
            (k for k in range(NKINDS) for _ in range(hand[k])),
            key=lambda k: (ctx.eff[k] == TRUMP, POINTS[k] > 0, hand[k] == 2, keep_value(ctx, k)),
        )
        chosen.extend(rest[: 8 - len(chosen)])
        action = (BURY,) + tuple(sorted(chosen))
        return action if action in legal else legal[0]

    # -- leading ------------------------------------------------------------------------------
    def _lead(self, obs: Any, legal: Sequence[Action]) -> Action:
        ctx = context(obs.level, obs.trump)

        partner = (obs.seat + 2) % 4

        def opp_void(suit: int) -> bool:
            return opponent_void(obs, suit)

        def key(action: Action) -> tuple:
            suit, top = shape(ctx, action)
            trump = suit == TRUMP
            pts = sum(POINTS[k] for k in action)
            n = len(action)
            if n >= 4:
                return (4 if not trump else 3, n, top)
            if not trump and top_of_suit(obs, ctx, action):
                return (2 if not opp_void(suit) else 0.5, n, top)
            if trump:
                return (-1, -top, 0)
            if obs.voids[partner] >> suit & 1 and not opp_void(suit):
                return (1, -pts, -top)  # the partner can trump it
            return (0 if pts == 0 else -0.5, -top, -n)

        trumps_left = sum(obs.hand[k] for k in ctx.suit_kinds[TRUMP])
        if trumps_left == sum(obs.hand):
            return min(legal, key=lambda a: (len(a) == 1, sum(keep_value(ctx, k) for k in a)))
        return max(legal, key=key)

    # -- following ----------------------------------------------------------------------------
    def _follow(self, obs: Any, legal: Sequence[Action]) -> Action:
        ctx = context(obs.level, obs.trump)
        seat = obs.seat
        partner_winning = obs.win_seat == (seat + 2) % 4
        last = len(obs.trick) == 3
        trick_points = sum(POINTS[k] for cards in obs.trick for k in cards)
        candidates = self._candidates(obs, ctx, legal)

        def wins(action: Action) -> bool:
            return beats(obs, ctx, action)

        def cost(action: Action) -> float:
            c = sum(keep_value(ctx, k) for k in action)
            pairs = sum(1 for i in range(1, len(action)) if action[i] == action[i - 1])
            return c + (8.0 * pairs if ctx.eff[action[0]] == TRUMP else 2.0 * pairs)

        safe = partner_winning and stands(obs, ctx, obs.win_key)

        def score(action: Action) -> float:
            pts = sum(POINTS[k] for k in action)
            if safe:
                return 3.0 * pts - cost(action) * 0.5
            if partner_winning:  # not safe yet: neither overtake the partner nor add points
                return -1.0 * pts - cost(action)
            if wins(action):
                worth = trick_points + pts
                gain = 10.0 + 2.0 * worth if (last or worth >= 10) else 4.0
                if not last and not stands(obs, ctx, play_key(ctx, action)):
                    gain *= 0.5  # may well be overtaken: worth less, and keep points back
                    return gain - cost(action) * 0.4 - pts
                return gain - cost(action) * 0.4 + (pts if last else -pts * 0.5)
            return -2.5 * pts - cost(action)

        return max(candidates, key=score)

    def _candidates(self, obs: Any, ctx: Context, legal: Sequence[Action]) -> list[Action]:
        if len(legal) <= ENUMERATE_LIMIT:
            return list(legal)
        out = []
        hand = list(obs.hand)
        n = len(obs.trick[0])
        suit = obs.lead_suit
        in_suit = [k for k in ctx.suit_kinds[suit] if hand[k]]
        have = sum(hand[k] for k in in_suit)
        for mode in ("low", "high", "points"):
            if have >= n:
                pool = in_suit
                pairs = sorted((k for k in pool if hand[k] == 2), key=lambda k: keep_value(ctx, k),
                               reverse=mode == "high")
                cards: list[int] = []
                for k in pairs[: n // 2]:
                    cards += [k, k]
                rest = [k for k in pool for _ in range(hand[k] - cards.count(k))]
            else:
                cards = [k for k in in_suit for _ in range(hand[k])]
                rest = [k for k in range(NKINDS) if ctx.eff[k] != suit
                        for _ in range(hand[k])]
            if mode == "points":
                rest.sort(key=lambda k: (-POINTS[k], keep_value(ctx, k)))
            else:
                rest.sort(key=lambda k: keep_value(ctx, k), reverse=mode == "high")
            cards += rest[: n - len(cards)]
            action = tuple(sorted(cards))
            if action in legal:
                out.append(action)
        for _ in range(20):
            out.append(legal.sample(self.rng) if hasattr(legal, "sample")
                       else legal[self.rng.randrange(len(legal))])
        return out


__all__ = ["TractorHeuristicBot", "beats", "keep_value", "opponent_void", "play_key", "stands",
           "top_of_suit"]
