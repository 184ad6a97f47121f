"""The Chắn deal in progress (C-7…C-23, X-1…X-3, K-1…K-4, W-1…W-5): ints and bitmasks only.

Layout of the state (all plain ints so `clone` is a few list copies):
- `counts[s*25 + f]`: how many of face f seat s holds concealed.
- `mem[s*8 + k]`: per-seat memory, k = ODD (faces held an odd number of times: X-1 discardables
  and the D-4 leftovers), DISC (faces discarded), X3 (faces forming a Cạ with a discarded face),
  CAPL (faces played from hand into a Cạ, C-20), REF (faces refused under C-19), CAPCA (a Cạ was
  captured, X-3), CADISC (both faces of a Cạ discarded, C-21), NCA (exposed Cạ pairs).
- `gates[s]`: tuple of the cards lying in s's gate, `face | 32` for a revealed stock card.
- `exposed[s]`: tuple of exposed pairs (`(hand, captured)`, Chíu `(F, F, F, F)`).
- `queue`: the claim offers still due on the open card (`seat*8 + phase`), in K-2 order.
- `log`: every decision as `(seat, phase, action, open face)`; observations show its public part.

Actions are ints: `capture H` = H (0..24), `discard F` = 25+F, then PASS, CHIU, WIN.
Hot paths (`legal_actions`, `apply`, `clone`) do no string work; messages are built on errors only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.chan import analysis
from engine.chan.cards import CODE, FACES, RANK, RANK_FACES, ca_partners_mask, ca_ranks
from engine.errors import IllegalAction
from engine.game import State

HEAVENLY, DISCARD, RESPOND, WIN_OFFER, CHIU_OFFER, OWN_CARD, OVER = range(7)
PHASES = ("heavenly", "discard", "respond", "win_offer", "chiu_offer", "own_card", "over")
OFFERS = (HEAVENLY, WIN_OFFER, CHIU_OFFER)

DISCARD_BASE = 25
PASS, CHIU, WIN = 50, 51, 52
N_ACTIONS = 53

ODD, DISC, X3, CAPL, REF, CAPCA, CADISC, NCA = range(8)
STOCK_FLAG = 32
STOCK_SIZE = 23

# How the deal ended (`wkind`).
NOT_OVER, DRAWN, WON_STOCK, WON_CHIU, WON_HEAVENLY = range(5)


def action_text(action: int) -> str:
    """Record notation of an action int (canonical: one card per action)."""
    if 0 <= action < DISCARD_BASE:
        return f"capture {CODE[action]}"
    if DISCARD_BASE <= action < PASS:
        return f"discard {CODE[action - DISCARD_BASE]}"
    return {PASS: "pass", CHIU: "chiu", WIN: "win"}[action]


_RULE_TEXT = {
    "C-6": "{h} does not make a Chắn or Cạ with the open card {o}",
    "C-15": "holding {o}, the capture must be a Chắn",
    "C-16": "{h} is held two or four times: a Cạ may not break an identical pair",
    "C-17": "the hand's pairing already has a Cạ of that rank",
    "C-18": "no Cạ while the hand has exactly one unpaired card",
    "C-19": "a refused Chắn face may not be used in a Cạ",
    "C-20": "the face {o} was discarded or played into a Cạ earlier",
    "C-21": "after discarding both cards of a Cạ no Cạ may be captured",
    "C-22": "the capture would leave no legal discard",
    "X-1": "{f} is held two or four times: discarding it would break an identical pair",
    "X-2": "{f} is a refused Chắn face",
    "X-3": "after capturing a Cạ, {f} may not be discarded: it forms a Cạ with an earlier discard",
}


class ChanState(State):
    """One Chắn deal. Built by `ChanState.deal(dealer, hands, stock)`."""

    __slots__ = ("dealer", "stock", "sp", "counts", "mem", "exposed", "gates", "dealt", "dead",
                 "open", "owner", "ostock", "turn", "_phase", "actor", "queue", "log", "winner",
                 "wcard", "wkind", "_result")

    @classmethod
    def deal(cls, dealer: int, hands: Sequence[Sequence[int]], stock: Sequence[int]) -> ChanState:
        """The start of a deal: `hands` as lists of faces by seat, `stock` top first (validated by
        the caller). The dealer is offered Thiên ù when possible (W-4), else discards (C-13)."""
        st = cls.__new__(cls)
        st.dealer = dealer
        st.stock = tuple(stock)
        st.sp = 0
        st.counts = [0] * (4 * FACES)
        st.mem = [0] * 32
        for s in range(4):
            for f in hands[s]:
                st.counts[s * FACES + f] += 1
            for f in range(FACES):
                if st.counts[s * FACES + f] & 1:
                    st.mem[s << 3 | ODD] |= 1 << f
        st.dealt = tuple(st.counts)
        st.exposed = [(), (), (), ()]
        st.gates = [(), (), (), ()]
        st.dead = -1
        st.open, st.owner, st.ostock = -1, -1, False
        st.turn = dealer
        st.queue = ()
        st.log = []
        st.winner, st.wcard, st.wkind, st._result = -1, -1, NOT_OVER, None
        st.actor = dealer
        st._phase = HEAVENLY if st._heavenly_ok() else DISCARD
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
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def result(self) -> dict[str, Any] | None:
        """The records.md result object (computed once at the end)."""
        if self._phase != OVER:
            return None
        if self._result is None:
            self._result = self._score()
        return self._result

    def clone(self) -> ChanState:
        c = ChanState.__new__(ChanState)
        c.dealer, c.stock, c.sp, c.dealt, c.dead = self.dealer, self.stock, self.sp, self.dealt, self.dead
        c.counts, c.mem = self.counts[:], self.mem[:]
        c.exposed, c.gates, c.log = self.exposed[:], self.gates[:], self.log[:]
        c.open, c.owner, c.ostock, c.turn = self.open, self.owner, self.ostock, self.turn
        c._phase, c.actor, c.queue = self._phase, self.actor, self.queue
        c.winner, c.wcard, c.wkind, c._result = self.winner, self.wcard, self.wkind, self._result
        return c

    def legal_actions(self) -> list[int]:
        ph = self._phase
        s = self.actor
        if ph == RESPOND or ph == OWN_CARD:
            o = self.open
            base = s * FACES
            counts = self.counts
            if counts[base + o]:  # C-15: only the Chắn
                return [o, PASS] if self._capture_rule(s, o, o) is None else [PASS]
            out = []
            for h in RANK_FACES[o]:
                if counts[base + h] and self._capture_rule(s, o, h) is None:
                    out.append(h)
            out.append(PASS)
            return out
        if ph == DISCARD:
            mask = self._discardable(s)
            out = []
            while mask:
                low = mask & -mask
                out.append(DISCARD_BASE + low.bit_length() - 1)
                mask ^= low
            return out
        if ph == CHIU_OFFER:
            return [CHIU, PASS]
        if ph == OVER:
            return []
        return [WIN, PASS]

    def random_action(self, rng: random.Random) -> int:
        legal = self.legal_actions()
        return legal[rng.randrange(len(legal))]

    def apply(self, action: Any) -> None:
        self._check(action)
        self._do(action)

    def observation(self, seat: int) -> Any:
        from engine.chan.observation import observe

        return observe(self, seat)

    # ----------------------------------------------------------------- rule checks
    def _discardable(self, s: int, flip: int = 0, ca: bool = False) -> int:
        """Faces s may discard (X-1…X-3), after toggling `flip` in the odd set; `ca`: a Cạ is
        being captured now (X-3 applies from then on)."""
        m = self.mem
        ban = m[s << 3 | REF]
        if ca or m[s << 3 | CAPCA]:
            ban |= m[s << 3 | X3]
        return (m[s << 3 | ODD] ^ flip) & ~ban

    def _capture_rule(self, s: int, o: int, h: int) -> str | None:
        """The first rule (C-6, then C-15…C-22) that forbids s capturing open face o with hand
        card h, or None. The caller has checked that h is held."""
        m = self.mem
        b = s << 3
        if h == o:
            if (m[b | DISC] | m[b | CAPL]) >> o & 1:
                return "C-20"
            if not self._discardable(s, 1 << h):
                return "C-22"
            return None
        if o == 0 or h == 0 or RANK[h] != RANK[o]:
            return "C-6"
        base = s * FACES
        if self.counts[base + o]:
            return "C-15"
        if not self.counts[base + h] & 1:
            return "C-16"
        odd = m[b | ODD]
        rb = 1 << ((o - 1) & 7)
        if ca_ranks(odd) & rb:
            return "C-17"
        a, bb, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
        if (a ^ bb ^ c).bit_count() + (odd & 1) == 1:
            return "C-18"
        if (m[b | REF] >> o | m[b | REF] >> h) & 1:
            return "C-19"
        if (m[b | DISC] | m[b | CAPL]) >> o & 1:
            return "C-20"
        if m[b | CADISC]:
            return "C-21"
        if not self._discardable(s, 1 << h, True):
            return "C-22"
        return None

    def _can_win(self, s: int, f: int) -> bool:
        """W-2/W-3: do s's 19 cards and face f make ten pairs with at least six Chắn?"""
        odd = self.mem[s << 3 | ODD] ^ (1 << f)
        if odd & 1:
            return False
        a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
        if (a ^ b ^ c) or (a & b & c):
            return False
        nca = self.mem[s << 3 | NCA] + (odd.bit_count() >> 1)
        return nca == 4 if f == 0 else nca <= 4

    def _heavenly_ok(self) -> bool:
        """W-4: the dealer's 20 dealt cards already win."""
        odd = self.mem[self.dealer << 3 | ODD]
        if odd & 1:
            return False
        a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
        return not (a ^ b ^ c) and not (a & b & c) and odd.bit_count() >> 1 <= 4

    def _chiu_ok(self, s: int, f: int) -> bool:
        """K-1/K-3/C-22: a Chíu on f is legal if it wins or leaves a legal discard."""
        return self._can_win(s, f) or bool(self._discardable(s, 1 << f))

    def _illegal(self, rule: str, action: int, o: int = -1) -> IllegalAction:
        text = _RULE_TEXT.get(rule)
        if text is None:
            return IllegalAction(rule, f"{action_text(action)} is not allowed now")
        f = action - DISCARD_BASE if DISCARD_BASE <= action < PASS else action
        msg = text.format(h=CODE[f] if f < FACES else "", f=CODE[f] if f < FACES else "",
                          o=CODE[o] if o >= 0 else "")
        return IllegalAction(rule, msg)

    def _check(self, a: Any) -> None:
        """Raise `IllegalAction` for an action `to_act` may not take (records.md check order)."""
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < N_ACTIONS:
            raise IllegalAction("turn", f"not a Chắn action: {a!r}")
        ph = self._phase
        if ph == OVER:
            raise IllegalAction("turn", "the deal is over")
        s = self.actor
        if a < DISCARD_BASE:
            if ph != RESPOND and ph != OWN_CARD:
                raise IllegalAction("turn", f"no capture now: the decision is {PHASES[ph]}")
            if not self.counts[s * FACES + a]:
                raise IllegalAction("held", f"seat {s} does not hold {CODE[a]}")
            rule = self._capture_rule(s, self.open, a)
            if rule is not None:
                raise self._illegal(rule, a, self.open)
        elif a < PASS:
            if ph != DISCARD:
                raise IllegalAction("turn", f"no discard now: the decision is {PHASES[ph]}")
            f = a - DISCARD_BASE
            c = self.counts[s * FACES + f]
            if not c:
                raise IllegalAction("held", f"seat {s} does not hold {CODE[f]}")
            if not c & 1:
                raise self._illegal("X-1", a)
            if self.mem[s << 3 | REF] >> f & 1:
                raise self._illegal("X-2", a)
            if self.mem[s << 3 | CAPCA] and self.mem[s << 3 | X3] >> f & 1:
                raise self._illegal("X-3", a)
        elif a == PASS:
            if ph == DISCARD:
                raise IllegalAction("turn", "a discard is due: pass is not possible")
        elif a == CHIU:
            if ph != CHIU_OFFER:
                raise IllegalAction("turn", f"no Chíu offer now: the decision is {PHASES[ph]}")
        elif ph != WIN_OFFER and ph != HEAVENLY:
            raise IllegalAction("turn", f"no win offer now: the decision is {PHASES[ph]}")

    # ----------------------------------------------------------------- transitions
    def _do(self, a: int) -> None:
        """Apply a legal action (no checks; `playout` and `apply` both end here)."""
        s, ph = self.actor, self._phase
        self.log.append((s, ph, a, self.open))
        if a < DISCARD_BASE:
            self._capture(s, a)
        elif a < PASS:
            self._discard(s, a - DISCARD_BASE)
        elif a == PASS:
            if ph == RESPOND:
                self._refusal(s)
                self._reveal()
            elif ph == OWN_CARD:
                self._refusal(s)
                self.turn = (self.turn + 1) & 3
                self._next()
            elif ph == HEAVENLY:
                if self.mem[s << 3 | ODD]:
                    self._phase = DISCARD
                else:
                    self._go_dead()
            else:
                self._next()
        elif a == CHIU:
            self._chiu(s)
        elif ph == HEAVENLY:
            self._finish(s, -1, WON_HEAVENLY)
        else:
            self._finish(s, self.open, WON_STOCK)

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
        wins = self._can_win(s, f)
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
        m[b | X3] = ca_partners_mask(d)
        if ca_ranks(d):
            m[b | CADISC] = 1
        self.gates[s] = self.gates[s] + (f,)
        if s == self.turn:  # in turn (C-12); an out-of-turn Chíu keeps the turn (K-4)
            self.turn = (s + 1) & 3
        self._open(f, s, False)

    def _refusal(self, s: int) -> None:
        """C-19: passing a card one could legally capture as a Chắn refuses its face."""
        o = self.open
        if o >= 0 and self.counts[s * FACES + o] and self._capture_rule(s, o, o) is None:
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
        q: list[int] = []
        dead = self.dead
        counts = self.counts
        if stock:
            mem = self.mem
            for k in range(4):
                s = (owner + k) & 3
                # Cheap filter first: a win leaves at most 8 Cạ singles, so at most 9 odd faces.
                if mem[s << 3 | ODD].bit_count() <= 9 and s != dead and self._can_win(s, f):
                    q.append(s << 3 | WIN_OFFER)
        for k in range(4):
            s = (owner + k) & 3
            if counts[s * FACES + f] == 3 and s != dead:
                if self._chiu_ok(s, f):
                    q.append(s << 3 | CHIU_OFFER)
                break
        self.queue = tuple(q)
        self._next()

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
        self.actor = -1
        self.queue = ()

    # ----------------------------------------------------------------- scoring
    def winning_hand(self) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
        """The winner's concealed counts (winning card included) and exposed pairs."""
        w = self.winner
        counts = self.counts[w * FACES:(w + 1) * FACES]
        if self.wcard >= 0:
            counts[self.wcard] += 1
        return counts, self.exposed[w]

    def _score(self) -> dict[str, Any]:
        """S-1…S-6 for a finished deal."""
        if self.wkind == DRAWN:
            return {"winner": None, "winning_card": None, "bonuses": [], "score": 0,
                    "settlement": [0, 0, 0, 0]}
        w = self.winner
        counts, exposed = self.winning_hand()
        card = self.wcard if self.wcard >= 0 else None
        found = analysis.bonuses(
            counts, exposed, card, self.dealt[w * FACES:(w + 1) * FACES],
            own_gate_stock=self.ostock and self.owner == w and self.wkind != WON_HEAVENLY,
            heavenly=self.wkind == WON_HEAVENLY,
        )
        points = analysis.score(found)
        return {
            "winner": w,
            "winning_card": CODE[card] if card is not None else None,
            "bonuses": [b[0] for b in found],
            "score": points,
            "settlement": [3 * points if s == w else -points for s in range(4)],
        }

    def snapshot(self) -> tuple:
        """Every field, as comparable values (tests: an illegal action changes nothing)."""
        return (self.dealer, self.stock, self.sp, tuple(self.counts), tuple(self.mem),
                tuple(self.exposed), tuple(self.gates), self.dealt, self.dead, self.open,
                self.owner, self.ostock, self.turn, self._phase, self.actor, self.queue,
                tuple(self.log), self.winner, self.wcard, self.wkind)
