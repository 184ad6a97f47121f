"""The Chắn deal in progress (C-7…C-23, X-1…X-3, K-1…K-4, W-1…W-5): ints and bitmasks only.

Layout of the state (all plain ints so `clone` is a few list copies):
- `counts[s*25 + f]`: how many of face f seat s holds concealed.
- `mem[s*8 + k]`: per-seat memory (the slots are named in `legal`).
- `gates[s]`: tuple of the cards lying in s's gate, `face | 32` for a revealed stock card.
- `exposed[s]`: tuple of exposed pairs (`(hand, captured)`, Chíu `(F, F, F, F)`).
- `queue`: the claim offers still due on the open card (`seat*8 + phase`), in K-2 order.
- `log`: every decision as `(seat, phase, action, open face)`; observations show its public part.

The legality checks are `legal`'s functions and the end-of-deal score is `scoring`'s; this
module holds the transitions. Hot paths (`legal_actions`, `apply`, `clone`) do no string work.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.chan.cards import FACES, RANK_FACES
from engine.chan.legal import (
    CADISC,
    CAPCA,
    CAPL,
    CHIU,
    CHIU_OFFER,
    DISC,
    DISCARD,
    DISCARD_BASE,
    HEAVENLY,
    NCA,
    ODD,
    OVER,
    OWN_CARD,
    PASS,
    PHASES,
    REF,
    RESPOND,
    STOCK_FLAG,
    WIN,
    WIN_OFFER,
    X3,
    can_win,
    chan_ok,
    check,
    chiu_ok,
    heavenly_ok,
    legal_actions,
)
from engine.chan.observation import observe
from engine.chan.scoring import DRAWN, NOT_OVER, WON_CHIU, WON_HEAVENLY, WON_STOCK, result_json
from engine.game import State

STOCK_SIZE = 23
#: What `_vouch` holds when no action is vouched for (an object no caller can pass).
NO_ACTION: Any = object()
_BIT = tuple(1 << f for f in range(FACES))
# PARTNER_MASK[f]: the faces that can make a Cạ with f (`RANK_FACES[f]` as a mask).
PARTNER_MASK = tuple(sum(1 << g for g in RANK_FACES[f]) for f in range(FACES))
_FROM = tuple(tuple((owner + k) & 3 for k in range(4)) for owner in range(4))  # K-2 seat order


class ChanState(State):
    """One Chắn deal. Built by `ChanState.deal(dealer, hands, stock)`."""

    __slots__ = ("dealer", "stock", "sp", "counts", "mem", "exposed", "gates", "dealt", "dead",
                 "open", "owner", "ostock", "turn", "_phase", "actor", "queue", "log", "winner",
                 "wcard", "wkind", "_result",
                 # The action `random_action` last drew for this very state (NO_ACTION when
                 # none, reset by every transition): `apply` of it skips the checks it passed.
                 "_vouch",
                 # The actions `legal_actions()` last listed for this very state (() when none,
                 # reset by every transition): `apply` of one of them skips the checks too.
                 "_listed",
                 # A plain slot kept equal to `_phase == OVER` (set in `_finish`), not the ABC's
                 # property: every playout loop reads it once per decision.
                 "is_over")

    @classmethod
    def deal(cls, dealer: int, hands: Sequence[Sequence[int]], stock: Sequence[int]) -> ChanState:
        """The start of a deal: `hands` as lists of faces by seat, `stock` top first (validated by
        the caller). The dealer is offered Thiên ù when possible (W-4), else discards (C-13)."""
        st = cls.__new__(cls)
        st.dealer = dealer
        st.stock = tuple(stock)
        st.sp = 0
        counts = st.counts = [0] * (4 * FACES)
        mem = st.mem = [0] * 32
        bit = _BIT
        for s in range(4):
            base, odd = s * FACES, 0
            for f in hands[s]:
                counts[base + f] += 1
                odd ^= bit[f]  # ODD: the faces held an odd number of times
            mem[s << 3 | ODD] = odd
        st.dealt = tuple(st.counts)
        st.exposed = [(), (), (), ()]
        st.gates = [(), (), (), ()]
        st.dead = -1
        st.open, st.owner, st.ostock = -1, -1, False
        st.turn = dealer
        st.queue = ()
        st.log = []
        st.winner, st.wcard, st.wkind, st._result = -1, -1, NOT_OVER, None
        st._vouch, st._listed, st.is_over = NO_ACTION, (), False
        st.actor = dealer
        st._phase = HEAVENLY if heavenly_ok(st.mem, dealer) else DISCARD
        if st._phase == DISCARD and not st.mem[dealer << 3 | ODD]:
            st._go_dead()  # unreachable in practice: an all-pairs 20 is always a heavenly hand
        return st

    # ----------------------------------------------------------------- State API
    @property
    def to_act(self) -> int | None:
        return None if self._phase == OVER else self.actor

    @property
    def phase(self) -> str:
        return PHASES[self._phase]

    @property
    def result(self) -> dict[str, Any] | None:
        """The records.md result object (computed once at the end)."""
        if self._phase != OVER:
            return None
        if self._result is None:
            self._result = result_json(self)
        return self._result

    def clone(self) -> ChanState:
        c = ChanState.__new__(ChanState)
        c.dealer, c.stock, c.sp, c.dealt, c.dead = self.dealer, self.stock, self.sp, self.dealt, self.dead
        c.counts, c.mem = self.counts[:], self.mem[:]
        c.exposed, c.gates, c.log = self.exposed[:], self.gates[:], self.log[:]
        c.open, c.owner, c.ostock, c.turn = self.open, self.owner, self.ostock, self.turn
        c._phase, c.actor, c.queue = self._phase, self.actor, self.queue
        c.winner, c.wcard, c.wkind, c._result = self.winner, self.wcard, self.wkind, self._result
        c._vouch, c._listed, c.is_over = NO_ACTION, (), self.is_over
        return c

    def legal_actions(self) -> list[int]:
        out = legal_actions(self._phase, self.actor, self.open, self.counts, self.mem)
        self._listed = tuple(out)  # our own copy: the caller may change the list it gets
        return out

    def random_action(self, rng: random.Random) -> int:
        """`legal[rng.randrange(len(legal))]` of `legal_actions()`, with the same draws, but the
        discards, the two-way offers and the responses whose list is [o, PASS] or [PASS] (most
        of them) drawn without the list, and CPython's `randrange(n)` written
        out (`getrandbits` of n's bit length, redrawn while >= n; see `engine.meri.deal`).
        The action is vouched for: `apply` of it, before any other transition, skips the checks.
        """
        ph = self._phase
        bits = rng.getrandbits
        if ph == RESPOND or ph == OWN_CARD:  # three decisions in four (measured)
            s, o = self.actor, self.open
            mem = self.mem
            if self.counts[s * FACES + o]:  # C-15: [o, PASS] or [PASS], as `legal_actions`
                if chan_ok(mem, s, o):
                    r = bits(2)
                    while r >= 2:
                        r = bits(2)
                    action = PASS if r else o
                else:
                    while bits(1):  # randrange(1): one bit, redrawn while 1
                        pass
                    action = PASS
                self._vouch = action
                return action
            if not mem[s << 3 | ODD] & PARTNER_MASK[o]:
                # No Cạ partner of o held an odd number of times (C-16 forbids the rest):
                # the list is [PASS].
                while bits(1):
                    pass
                self._vouch = PASS
                return PASS
        elif ph == DISCARD:
            b = self.actor << 3
            mem = self.mem
            ban = mem[b | REF]  # `legal.discardable`, inlined
            if mem[b | CAPCA]:
                ban |= mem[b | X3]
            mask = mem[b | ODD] & ~ban
            n = mask.bit_count()
            if n:
                k = n.bit_length()
                r = bits(k)
                while r >= n:
                    r = bits(k)
                # The r-th face of the mask, lowest first (the list's order), walked to from
                # the nearer end.
                j = n - 1 - r
                if j < r:
                    f = mask.bit_length() - 1
                    while j:
                        mask ^= 1 << f
                        f = mask.bit_length() - 1
                        j -= 1
                else:
                    while r:
                        mask &= mask - 1
                        r -= 1
                    f = (mask & -mask).bit_length() - 1
                action = DISCARD_BASE + f
                self._vouch = action
                return action
        elif ph == WIN_OFFER or ph == HEAVENLY or ph == CHIU_OFFER:  # [WIN or CHIU, PASS]
            r = bits(2)
            while r >= 2:
                r = bits(2)
            action = PASS if r else (CHIU if ph == CHIU_OFFER else WIN)
            self._vouch = action
            return action
        legal = legal_actions(ph, self.actor, self.open, self.counts, self.mem)
        n = len(legal)
        if not n:
            return legal[rng.randrange(n)]  # over: randrange's own error
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        action = legal[r]
        self._vouch = action
        return action

    def apply(self, action: Any) -> None:
        # A vouched draw, or an int the legal list of this state holds (ints compare exactly;
        # a bool or another type of number is checked), passed the checks already.
        if action is not self._vouch and not (action.__class__ is int and action in self._listed):
            check(self._phase, self.actor, self.open, self.counts, self.mem, action)
        self._do(action)

    def observation(self, seat: int) -> Any:
        return observe(self, seat)

    # ----------------------------------------------------------------- transitions
    def _do(self, a: int) -> None:
        """Apply a legal action (no checks; `playout` and `apply` both end here)."""
        self._vouch = NO_ACTION
        self._listed = ()
        s, ph, o = self.actor, self._phase, self.open
        self.log.append((s, ph, a, o))
        if a == PASS:  # first: more than half of a deal's decisions
            if ph == RESPOND or ph == OWN_CARD:
                # `_refusal` written out (C-19: passing a legal Chắn refuses its face).
                if o >= 0 and self.counts[s * FACES + o] and chan_ok(self.mem, s, o):
                    self.mem[s << 3 | REF] |= 1 << o
                if ph == RESPOND:
                    # `_reveal` written out (C-11; C-14 when the stock is empty).
                    sp = self.sp
                    if sp >= len(self.stock):
                        self._finish(-1, -1, DRAWN)
                        return
                    f = self.stock[sp]
                    self.sp = sp + 1
                    t = self.turn
                    self.gates[t] = self.gates[t] + (f | STOCK_FLAG,)
                    self._open(f, t, True)
                else:  # own card passed: the turn moves on (C-12), the card is open for it
                    t = self.turn = (self.turn + 1) & 3
                    if self.queue or t == self.dead or self.open < 0:
                        self._next()
                    else:
                        self.actor, self._phase = t, RESPOND  # what `_next` decides here
            elif ph == HEAVENLY:
                if self.mem[s << 3 | ODD]:
                    self._phase = DISCARD
                else:
                    self._go_dead()
            else:
                self._next()
        elif a < DISCARD_BASE:
            self._capture(s, a)
        elif a < PASS:
            self._discard(s, a - DISCARD_BASE)
        elif a == CHIU:
            self._chiu(s)
        elif ph == HEAVENLY:
            self._finish(s, -1, WON_HEAVENLY)
        else:
            self._finish(s, o, WON_STOCK)

    def _capture(self, s: int, h: int) -> None:
        o = self.open
        g = self.gates[self.owner]
        self.gates[self.owner] = g[:-1]
        self.counts[s * FACES + h] -= 1
        b = s << 3
        m = self.mem
        m[b | ODD] ^= 1 << h
        self.exposed[s] = self.exposed[s] + ((h, o),)
        if h != o:
            m[b | NCA] += 1
            m[b | CAPL] |= 1 << h
            m[b | CAPCA] = 1
        self.open = -1
        self._phase = DISCARD

    def _chiu(self, s: int) -> None:
        f = self.open
        wins = can_win(self.mem, s, f)
        if wins:
            self._finish(s, f, WON_CHIU)
            return
        g = self.gates[self.owner]
        self.gates[self.owner] = g[:-1]
        self.counts[s * FACES + f] = 0
        self.mem[s << 3 | ODD] ^= 1 << f
        self.exposed[s] = self.exposed[s] + ((f, f, f, f),)
        self.open = -1
        self.actor = s
        self._phase = DISCARD

    def _discard(self, s: int, f: int) -> None:
        self.counts[s * FACES + f] -= 1
        m = self.mem
        b = s << 3
        m[b | ODD] ^= 1 << f
        d = m[b | DISC] | (1 << f)
        m[b | DISC] = d
        # `ca_partners_mask(d)` and `ca_ranks(d)` written out (every discard asks both).
        x, y, z = (d >> 1) & 255, (d >> 9) & 255, (d >> 17) & 255
        m[b | X3] = ((y | z) << 1) | ((x | z) << 9) | ((x | y) << 17)
        if (x & y) | (x & z) | (y & z):
            m[b | CADISC] = 1
        self.gates[s] = self.gates[s] + (f,)
        if s == self.turn:  # in turn (C-12); an out-of-turn Chíu keeps the turn (K-4)
            self.turn = (s + 1) & 3
        self._open(f, s, False)

    def _refusal(self, s: int) -> None:
        """C-19: passing a card one could legally capture as a Chắn refuses its face."""
        o = self.open
        if o >= 0 and self.counts[s * FACES + o] and chan_ok(self.mem, s, o):
            self.mem[s << 3 | REF] |= 1 << o

    def _go_dead(self) -> None:
        """C-13/D-6: a dealer without a legal opening discard is a dead hand. The dealer still
        starts (C-13), and a dead hand's turns are automatic reveals (D-6): the dealer reveals
        the top stock card into their own gate, passes it, and it is open for dealer+1."""
        self.dead = self.dealer
        self.turn = self.dealer
        self._next()

    def _open(self, f: int, owner: int, stock: bool) -> None:
        """A card becomes open: queue its win offers (stock only), then its Chíu offer (K-2)."""
        self.open, self.owner, self.ostock = f, owner, stock
        q: tuple[int, ...] = ()  # offers are rare: no list to build for most cards
        dead = self.dead
        counts = self.counts
        mem = self.mem
        if stock:
            bit = 1 << f
            for s in _FROM[owner]:
                # `can_win(mem, s, f)` written out (this runs for every revealed card), its
                # tests reordered, the one that nearly always fails first: no Chi chi left
                # single and no rank with one or three leftover suits (their xor is empty).
                odd = mem[s << 3 | ODD] ^ bit
                if odd & 1 or (odd >> 1 ^ odd >> 9 ^ odd >> 17) & 255 or s == dead:
                    continue
                n = odd.bit_count()
                if n > 8 or (odd >> 1) & (odd >> 9) & (odd >> 17) & 255:
                    continue
                nca = mem[s << 3 | NCA] + (n >> 1)
                if nca == 4 if f == 0 else nca <= 4:
                    q += (s << 3 | WIN_OFFER,)
        if (counts[f] == 3 or counts[FACES + f] == 3 or counts[2 * FACES + f] == 3
                or counts[3 * FACES + f] == 3):  # someone may Chíu (rare: look closer)
            for s in _FROM[owner]:
                if counts[s * FACES + f] == 3 and s != dead:
                    if chiu_ok(mem, s, f):
                        q += (s << 3 | CHIU_OFFER,)
                    break
        if q:  # `_next`, written out: the first offer is due now
            self.queue = q[1:]
            self.actor = q[0] >> 3
            self._phase = q[0] & 7
            return
        self.queue = ()
        t = self.turn
        if stock and owner == t:
            if t == dead:
                t = self.turn = (t + 1) & 3
                self.actor, self._phase = t, RESPOND
                return
            self.actor, self._phase = t, OWN_CARD
            return
        if t == dead:
            self._reveal()
            return
        self.actor, self._phase = t, RESPOND

    def _next(self) -> None:
        """Move to the next decision: a pending offer, else the normal decision (D-6 automatic
        turns of a dead hand included)."""
        q = self.queue
        if q:
            self.queue = q[1:]
            self.actor = q[0] >> 3
            self._phase = q[0] & 7
            return
        t = self.turn
        if self.ostock and self.owner == t and self.open >= 0:
            if t == self.dead:
                t = self.turn = (t + 1) & 3
                self.actor, self._phase = t, RESPOND
                return
            self.actor, self._phase = t, OWN_CARD
            return
        if self.open < 0 or t == self.dead:
            self._reveal()
            return
        self.actor, self._phase = t, RESPOND

    def _reveal(self) -> None:
        """C-11: the player to act reveals the top stock card into their gate; C-14 on empty."""
        t = self.turn
        if self.sp >= len(self.stock):
            self._finish(-1, -1, DRAWN)
            return
        f = self.stock[self.sp]
        self.sp += 1
        self.gates[t] = self.gates[t] + (f | STOCK_FLAG,)
        self._open(f, t, True)

    def _finish(self, winner: int, card: int, kind: int) -> None:
        self.winner, self.wcard, self.wkind = winner, card, kind
        self._phase = OVER
        self.is_over = True
        self.actor = -1
        self.queue = ()

    def snapshot(self) -> tuple:
        """Every field, as comparable values (tests: an illegal action changes nothing)."""
        return (self.dealer, self.stock, self.sp, tuple(self.counts), tuple(self.mem),
                tuple(self.exposed), tuple(self.gates), self.dealt, self.dead, self.open,
                self.owner, self.ostock, self.turn, self._phase, self.actor, self.queue,
                tuple(self.log), self.winner, self.wcard, self.wkind)
