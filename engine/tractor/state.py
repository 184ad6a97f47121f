"""One Tractor deal: bidding (T-8..T-11), the kitty (T-15), tricks (T-16..T-24), scoring (T-25..T-27).

Everything is ints: hands are lists of 54 counts, plays are sorted tuples of kinds. Actions:
`PASS`, `(DECLARE, *kinds)`, `(BURY, *kinds)` and a play = the sorted tuple of its kinds.
`apply` checks in the order of records.md / T-28 (turn, form, held, then rules) before it changes
anything, so an `IllegalAction` leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

from engine.errors import IllegalAction
from engine.game import State
from engine.tractor.cards import (
    BJ,
    CODES,
    KIND_RANK,
    KIND_SUIT,
    KINDS,
    NKINDS,
    NT,
    PAIR,
    POINTS,
    RJ,
    SINGLE,
    TRUMP,
    Context,
    context,
    shape,
)
from engine.tractor.legal import Combos
from engine.tractor.observation import TractorObservation, observe
from engine.tractor.scoring import result_json

PASS: tuple[int, ...] = (-1,)
DECLARE = -2
BURY = -3
DECLARE_PHASE, BURY_PHASE, PLAY_PHASE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("declare", "bury", "play", "over")
KITTY_SIZE = 8
HAND_SIZE = 25
#: What `_vouch` holds when no action is vouched for (an object no caller can pass).
NO_ACTION: Any = object()


def declaration_strength(cards: tuple[int, ...], level: int) -> tuple[int, int]:
    """(strength, suit) of a declaration's sorted cards (T-8), or (0, -1) if it has no valid form.

    Strengths (T-9): 1 single level card, 2 level pair, 3 Black-Joker pair, 4 Red-Joker pair.
    """
    if len(cards) == 1:
        k = cards[0]
        return (1, KIND_SUIT[k]) if KIND_RANK[k] == level else (0, -1)
    if len(cards) == 2 and cards[0] == cards[1]:
        k = cards[0]
        if k == RJ:
            return 4, NT
        if k == BJ:
            return 3, NT
        if KIND_RANK[k] == level:
            return 2, KIND_SUIT[k]
    return 0, -1


class TractorState(State):
    """A deal in progress. Mutated in place by `apply`; `clone` copies the few mutable lists."""

    __slots__ = (
        "levels", "level", "dealer", "bid_start", "hands", "kitty", "deal", "ph", "actor",
        "decl_seat", "decl_strength", "decl_suit", "first_decl", "passes", "bids", "revealed",
        "trump", "ctx", "trick", "leader", "lead_suit", "win_seat", "win_key", "tricks",
        "points", "bonus", "voids", "nopairs",
        # The action `random_action` last drew for this very state (NO_ACTION when none, reset
        # by every transition): `apply` of that same object skips the checks it already passed.
        "_vouch",
        # The leads or bids `legal_actions()` last listed for this very state (() when none,
        # reset by every transition): `apply` of one of those very objects skips the checks.
        "_listed",
        # `is_over` is a plain slot kept equal to `ph == OVER` (set where `ph` becomes OVER), not
        # the ABC's property: every playout loop reads it once per decision (as in Meri).
        "is_over",
    )

    def __init__(
        self,
        levels: tuple[int, int],
        dealer: int | None,
        bid_start: int,
        hands: list[list[int]],
        kitty: list[int],
    ) -> None:
        self.levels = levels
        self.dealer = -1 if dealer is None else dealer
        self.level = levels[dealer % 2] if dealer is not None else levels[0]  # T-7
        self.bid_start = bid_start
        self.hands = hands
        self.kitty: tuple[int, ...] = tuple(kitty)  # dealt order until the burial, then buried
        self.deal = (tuple(tuple(h) for h in hands), tuple(kitty), dealer)  # as dealt (layout_of)
        self.ph = DECLARE_PHASE
        self.is_over = False
        self.actor = bid_start
        self.decl_seat = -1
        self.decl_strength = 0
        self.decl_suit = -1
        self.first_decl = -1
        self.passes = 0
        self.bids: tuple[tuple[int, tuple[int, ...]], ...] = ()
        self.revealed: tuple[int, ...] = ()  # the kitty turned up after four passes (T-10)
        self.trump = -1
        self.ctx: Context | None = None
        self.trick: tuple[tuple[int, ...], ...] = ()
        self.leader = -1
        self.lead_suit = -1
        self.win_seat = -1
        self.win_key = -1
        self.tricks: tuple[tuple[int, tuple[tuple[int, ...], ...], int], ...] = ()
        self.points = 0  # attackers' card points from tricks (T-26), kitty bonus apart
        self.bonus = 0
        self.voids = [0, 0, 0, 0]  # bit e: seat has shown void in effective suit e
        self.nopairs = [0, 0, 0, 0]  # bit e: seat has shown it holds no pair of suit e (T-20)
        self._vouch = NO_ACTION
        self._listed: tuple[tuple[int, ...], ...] = ()

    # -- State API -------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return None if self.ph == OVER else self.actor

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self.ph]

    @property
    def result(self) -> dict[str, Any] | None:
        return result_json(self)

    def clone(self) -> TractorState:
        new = TractorState.__new__(TractorState)
        # explicit copies: about twice as fast as a loop over __slots__ (search clones a lot)
        new.levels = self.levels
        new.level = self.level
        new.dealer = self.dealer
        new.bid_start = self.bid_start
        h = self.hands
        new.hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
        new.kitty = self.kitty
        new.deal = self.deal
        new.ph = self.ph
        new.is_over = self.is_over
        new.actor = self.actor
        new.decl_seat = self.decl_seat
        new.decl_strength = self.decl_strength
        new.decl_suit = self.decl_suit
        new.first_decl = self.first_decl
        new.passes = self.passes
        new.bids = self.bids
        new.revealed = self.revealed
        new.trump = self.trump
        new.ctx = self.ctx
        new.trick = self.trick
        new.leader = self.leader
        new.lead_suit = self.lead_suit
        new.win_seat = self.win_seat
        new.win_key = self.win_key
        new.tricks = self.tricks
        new.points = self.points
        new.bonus = self.bonus
        new.voids = self.voids[:]
        new.nopairs = self.nopairs[:]
        new._vouch = NO_ACTION
        new._listed = ()
        return new

    def observation(self, seat: int) -> TractorObservation:
        return observe(self, seat)

    def snapshot(self) -> tuple:
        """Every field as plain values (tests compare snapshots before and after an action)."""
        out = []
        for name in TractorState.__slots__:
            if name in ("_vouch", "_listed"):  # caches, not part of the deal
                continue
            value = getattr(self, name)
            if name == "hands":
                value = tuple(tuple(h) for h in value)
            elif isinstance(value, list):
                value = tuple(value)
            elif isinstance(value, Context):
                value = (value.level, value.trump)
            out.append(value)
        return tuple(out)

    @property
    def attackers(self) -> int:
        """The attacking team (T-3): the team without the dealer."""
        return 1 - self.dealer % 2

    # -- legality ----------------------------------------------------------------------------
    def legal_actions(self) -> Any:
        ph = self.ph
        if ph == PLAY_PHASE:
            if self.trick:
                return self._follow_set()
            out = self._leads()
            self._listed = tuple(out)  # our own copy: the caller may change the list it gets
            return out
        if ph == DECLARE_PHASE:
            out = self._declarations()
            self._listed = tuple(out)
            return out
        if ph == BURY_PHASE:
            hand = self.hands[self.actor]
            pool = [(k, c) for k, c in enumerate(hand) if c]
            return Combos((BURY,), (), pool, KITTY_SIZE, 0, self._is_legal, "bury ")
        return []

    def random_action(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random legal action; the common small follows are drawn directly.

        The draws are those of `legal[rng.randrange(len(legal))]` (or the lazy set's `sample`),
        with CPython's `randrange(n)` written out (`getrandbits` of n's bit length, redrawn
        while >= n) as in `engine.meri.deal`. The action is vouched for: `apply` of this very
        object, before any other transition, skips the checks (they would pass).
        """
        if self.ph == PLAY_PHASE:
            if self.trick:
                action = self._random_small_follow(rng)
                if action is None:
                    action = self._follow_set().sample(rng)
            else:
                legal = self._leads()
                n = len(legal)
                bits, b = rng.getrandbits, n.bit_length()
                r = bits(b)
                while r >= n:
                    r = bits(b)
                action = legal[r]
        else:
            legal = self.legal_actions()
            sample = getattr(legal, "sample", None)
            action = sample(rng) if sample is not None else legal[rng.randrange(len(legal))]
        self._vouch = action
        return action

    def _random_small_follow(self, rng: random.Random) -> tuple[int, ...] | None:
        """Uniform draws for single and pair leads, whose legal sets are simple (speed only:
        the same distribution and draws as sampling `_follow_set`); None for the other cases."""
        n = len(self.trick[0])
        if n > 2:
            return None
        hand = self.hands[self.actor]
        ctx, e = self.ctx, self.lead_suit
        assert ctx is not None
        # The held kinds of the led suit in suit order, listed in C (compress, itemgetter).
        kinds = list(compress(ctx.suit_kinds[e], ctx.suit_counts[e](hand)))
        bits = rng.getrandbits
        if n == 1:
            if not kinds:
                kinds = list(compress(KINDS, hand))
            m = len(kinds)
            b = m.bit_length()
            r = bits(b)
            while r >= m:
                r = bits(b)
            return SINGLE[kinds[r]]
        if not kinds:
            return None
        pairs = [k for k in kinds if hand[k] == 2]
        if pairs:  # T-20: a pair must be played
            m = len(pairs)
            b = m.bit_length()
            r = bits(b)
            while r >= m:
                r = bits(b)
            return PAIR[pairs[r]]
        m = len(kinds)
        if m >= 2:
            if m > 21:  # (a suit has at most 18 kinds) CPython's other `sample` branch
                a, c = rng.sample(kinds, 2)
                return (a, c) if a < c else (c, a)
            # `rng.sample(kinds, 2)` written out (its pool branch for n <= 21): the same draws.
            b = m.bit_length()
            r = bits(b)
            while r >= m:
                r = bits(b)
            a = kinds[r]
            kinds[r] = kinds[m - 1]
            m -= 1
            b = m.bit_length()
            r = bits(b)
            while r >= m:
                r = bits(b)
            c = kinds[r]
            return (a, c) if a < c else (c, a)
        first = kinds[0]
        rest = list(compress(KINDS, hand))
        rest.remove(first)
        m = len(rest)
        b = m.bit_length()
        r = bits(b)
        while r >= m:
            r = bits(b)
        other = rest[r]
        return (first, other) if first < other else (other, first)

    def _is_legal(self, action: tuple[int, ...]) -> bool:
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True

    def _declarations(self) -> list[tuple[int, ...]]:
        hand, level, need = self.hands[self.actor], self.level, self.decl_strength
        out = [PASS]
        if hand[RJ] == 2 and need < 4:
            out.append((DECLARE, RJ, RJ))
        if hand[BJ] == 2 and need < 3:
            out.append((DECLARE, BJ, BJ))
        for suit in range(4):
            k = 2 + suit * 13 + (12 - level)
            if hand[k] == 2 and need < 2:
                out.append((DECLARE, k, k))
            if hand[k] and need < 1:
                out.append((DECLARE, k))
        return out

    def _leads(self) -> list[tuple[int, ...]]:
        """Every legal lead (T-16): singles, pairs and tractors (every run of >= 2 pairs)."""
        hand, ctx = self.hands[self.actor], self.ctx
        assert ctx is not None
        out = []
        pairs = []
        for k in compress(KINDS, hand):  # the held kinds, found in C
            out.append(SINGLE[k])
            if hand[k] == 2:
                out.append(PAIR[k])
                pairs.append(k)
        if len(pairs) >= 2:
            size = len(out)
            _tractor_leads(pairs, ctx, out)
            if len(out) > size:  # singles and pairs alone are already in order
                out.sort()
        return out

    def _follow_set(self) -> Combos:
        """The legal follows as a lazy set (T-18..T-21)."""
        hand, ctx = self.hands[self.actor], self.ctx
        assert ctx is not None
        lead = self.trick[0]
        n = len(lead)
        suit_kinds = ctx.suit_kinds[self.lead_suit]
        have = sum(hand[k] for k in suit_kinds)
        if have >= n:
            pool = sorted((k, hand[k]) for k in suit_kinds if hand[k])
            q = 0
            if n >= 2:
                q = min(n // 2, sum(1 for k in suit_kinds if hand[k] == 2))
            return Combos((), (), pool, n, q, self._is_legal)
        fixed = []
        for k in suit_kinds:
            c = hand[k]
            if c:
                fixed.extend((k,) * c)
        fixed.sort()
        in_suit = set(suit_kinds)
        pool = [(k, c) for k, c in enumerate(hand) if c and k not in in_suit]
        return Combos((), tuple(fixed), pool, n - have, 0, self._is_legal)

    def _check(self, action: Any) -> tuple[int, ...]:
        """Raise `IllegalAction` for the first failed check (records.md order); change nothing.

        Returns the action in canonical form (cards sorted), which is what `_do` applies.
        """
        ph = self.ph
        action = _normalize(action)
        verb = action[0]
        if ph == OVER:
            raise IllegalAction("turn", "the deal is over")
        if ph == DECLARE_PHASE:
            if action == PASS:
                return action
            if verb != DECLARE:
                raise IllegalAction("turn", "bidding: pass or declare")
            cards = action[1:]
            strength, _suit = declaration_strength(cards, self.level)
            if not strength:
                raise IllegalAction(
                    "T-8", "declare one level-rank card, a pair of them, or a pair of jokers")
            self._check_held(cards)
            if strength <= self.decl_strength:
                raise IllegalAction("T-9", "an overcall must be strictly stronger")
            return action
        if ph == BURY_PHASE:
            if verb != BURY:
                raise IllegalAction("turn", "the dealer must bury 8 cards")
            if len(action) - 1 != KITTY_SIZE:
                raise IllegalAction("T-15", f"bury exactly {KITTY_SIZE} cards")
            self._check_held(action[1:])
            return action
        if verb < 0:
            raise IllegalAction("turn", "play cards")
        ctx = self.ctx
        assert ctx is not None
        if not self.trick:
            if shape(ctx, action)[0] < 0:
                raise IllegalAction(
                    "T-16", "lead a single, a pair or a tractor of one effective suit")
            self._check_held(action)
            return action
        lead = self.trick[0]
        n = len(lead)
        if len(action) != n:
            raise IllegalAction("T-18", f"play {n} card{'s' if n > 1 else ''} like the lead")
        self._check_held(action)
        hand = self.hands[self.actor]
        eff, suit = ctx.eff, self.lead_suit
        have = sum(hand[k] for k in ctx.suit_kinds[suit])
        played = sum(1 for k in action if eff[k] == suit)
        if played != min(n, have):
            raise IllegalAction("T-19", "follow the led suit as far as possible")
        if n >= 2:
            held_pairs = sum(1 for k in ctx.suit_kinds[suit] if hand[k] == 2)
            need = min(n // 2, held_pairs)
            if _pairs_in(action, eff, suit) < need:
                raise IllegalAction("T-20", f"play {need} pair{'s' if need > 1 else ''} of the led suit")
        return action

    def _check_held(self, cards: tuple[int, ...]) -> None:
        hand = self.hands[self.actor]
        prev, run = -1, 0
        for k in cards:
            run = run + 1 if k == prev else 1
            prev = k
            if run > hand[k]:
                raise IllegalAction("held", f"seat {self.actor} does not hold {CODES[k]}"
                                    + (" twice" if run > 1 else ""))

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: tuple[int, ...]) -> None:
        if action is self._vouch:  # drawn by `random_action` for this state: already legal
            self._do(action)
            return
        listed = self._listed
        if listed and action.__class__ is tuple:  # one of the very tuples listed as legal?
            try:
                i = listed.index(action)
            except Exception:  # (not there; or elements that cannot even be compared)
                i = -1
            if i >= 0 and listed[i] is action:
                self._do(action)
                return
        self._do(self._check(action))

    def _do(self, action: tuple[int, ...]) -> None:
        """Apply an action already known to be legal (the fast path of playouts)."""
        self._vouch = NO_ACTION
        self._listed = ()
        ph = self.ph
        if ph == PLAY_PHASE:
            self._play(action)
        elif ph == DECLARE_PHASE:
            self._bid(action)
        else:
            self._bury(action)

    def _bid(self, action: tuple[int, ...]) -> None:
        seat = self.actor
        self.bids = self.bids + ((seat, action),)
        if action == PASS:
            self.passes += 1
            if self.decl_seat >= 0 and self.passes == 3:
                self._end_bidding(self.decl_suit)
                return
            if self.decl_seat < 0 and self.passes == 4:
                self.revealed = self.kitty
                first = next(k for k in self.kitty if k > BJ)  # T-10: first non-joker card
                if self.dealer < 0:
                    self.dealer = self.bid_start  # T-11 / D-2
                self._end_bidding(KIND_SUIT[first])
                return
        else:
            strength, suit = declaration_strength(action[1:], self.level)
            self.decl_seat, self.decl_strength, self.decl_suit = seat, strength, suit
            self.passes = 0
            if self.first_decl < 0:
                self.first_decl = seat
                if self.dealer < 0:
                    self.dealer = seat  # T-11: the first declarer deals the first deal
        self.actor = (seat + 1) & 3

    def _end_bidding(self, trump: int) -> None:
        self.trump = trump
        self.ctx = context(self.level, trump)
        hand = self.hands[self.dealer][:]
        for k in self.kitty:
            hand[k] += 1
        self.hands[self.dealer] = hand
        self.ph = BURY_PHASE
        self.actor = self.dealer

    def _bury(self, action: tuple[int, ...]) -> None:
        hand = self.hands[self.actor][:]
        cards = action[1:]
        for k in cards:
            hand[k] -= 1
        self.hands[self.actor] = hand
        self.kitty = cards
        self.ph = PLAY_PHASE
        self.leader = self.actor

    def _play(self, cards: tuple[int, ...]) -> None:
        seat = self.actor
        hand = self.hands[seat]
        for k in cards:
            hand[k] -= 1
        ctx = self.ctx
        assert ctx is not None
        trick = self.trick
        if not trick:
            if len(cards) == 1:
                suit, top = ctx.eff[cards[0]], ctx.pos[cards[0]]  # `shape` of a single
            else:
                suit, top = shape(ctx, cards)
            self.lead_suit = suit
            self.win_seat = seat
            self.win_key = top + (100 if suit == TRUMP else 0)
        else:
            self._follow_effects(seat, cards, ctx)
        trick = trick + (cards,)
        self.trick = trick
        if len(trick) < 4:
            self.actor = (seat + 1) & 3
            return
        self._close_trick(trick, ctx)

    def _follow_effects(self, seat: int, cards: tuple[int, ...], ctx: Context) -> None:
        eff, suit, n = ctx.eff, self.lead_suit, len(cards)
        if n == 1:  # the common case written out: the same effects as below
            k = cards[0]
            e = eff[k]
            if e != suit:
                self.voids[seat] |= 1 << suit
                self.nopairs[seat] |= 1 << suit
                if e != TRUMP:
                    return
                key = ctx.pos[k] + 100
            else:
                key = ctx.pos[k] + (100 if e == TRUMP else 0)
            if key > self.win_key:
                self.win_key = key
                self.win_seat = seat
            return
        played = 0
        for k in cards:
            if eff[k] == suit:
                played += 1
        if played < n:
            self.voids[seat] |= 1 << suit
            self.nopairs[seat] |= 1 << suit
        elif n >= 2 and _pairs_in(cards, eff, suit) < n // 2:
            self.nopairs[seat] |= 1 << suit
        # T-22: only the lead's format, in the led suit or all trumps, can win.
        s, top = shape(ctx, cards)
        if s < 0 or (s != suit and s != TRUMP):
            return
        key = top + (100 if s == TRUMP else 0)
        if key > self.win_key:  # T-23: equal strength favours the earlier play
            self.win_key = key
            self.win_seat = seat

    def _close_trick(self, trick: tuple[tuple[int, ...], ...], ctx: Context) -> None:
        winner = self.win_seat
        self.tricks = self.tricks + ((self.leader, trick, winner),)
        if (winner & 1) == self.attackers:
            pts = 0
            for cards in trick:
                for k in cards:
                    pts += POINTS[k]
            self.points += pts
        self.trick = ()
        self.lead_suit = -1
        self.leader = winner
        self.actor = winner
        if not any(self.hands[winner]):
            if (winner & 1) == self.attackers:  # T-26: kitty bonus on the last trick
                kitty_pts = sum(POINTS[k] for k in self.kitty)
                self.bonus = kitty_pts * 2 * len(trick[0])
            self.ph = OVER
            self.is_over = True


def _normalize(action: Any) -> tuple[int, ...]:
    """A well-typed action with its cards sorted; `turn` for anything that is not an action."""
    if not isinstance(action, (tuple, list)) or not action:
        raise IllegalAction("turn", "not an action")
    for x in action:
        if type(x) is not int or not -3 <= x < NKINDS:
            raise IllegalAction("turn", "not an action")
    head = action[0]
    if head < 0:
        if any(x < 0 for x in action[1:]) or (head == -1 and len(action) > 1):
            raise IllegalAction("turn", "not an action")
        return (head,) + tuple(sorted(action[1:]))
    if any(x < 0 for x in action):
        raise IllegalAction("turn", "not an action")
    return tuple(sorted(action))


def _pairs_in(cards: tuple[int, ...], eff: tuple[int, ...], suit: int) -> int:
    """Identical pairs of effective suit `suit` in sorted `cards` (T-20)."""
    pairs, prev = 0, -1
    for k in cards:
        if k == prev and eff[k] == suit:
            pairs += 1
            prev = -1
        else:
            prev = k
    return pairs


def _tractor_leads(pairs: list[int], ctx: Context, out: list[tuple[int, ...]]) -> None:
    """Append every tractor made of the held `pairs` (T-16, T-17, D-3): runs of >= 2 pairs of one
    effective suit at consecutive positions. Several kinds can share a position (off-suit level
    cards); each choice makes another tractor."""
    pos, eff = ctx.pos, ctx.eff
    keys = {eff[k] << 5 | pos[k] for k in pairs}  # (suit, position); positions are < 32
    if not any(key + 1 in keys for key in keys):
        return  # no two pairs are consecutive: no tractor (the common case)
    by_pos: dict[tuple[int, int], list[int]] = {}
    for k in pairs:
        by_pos.setdefault((eff[k], pos[k]), []).append(k)
    if len(by_pos) < 2:
        return
    for (suit, p), kinds in by_pos.items():
        q = p + 1
        if (suit, q) not in by_pos:
            continue
        partial = [[k] for k in kinds]
        while (suit, q) in by_pos:
            partial = [c + [k] for c in partial for k in by_pos[(suit, q)]]
            for c in partial:
                out.append(tuple(sorted(c + c)))
            q += 1
