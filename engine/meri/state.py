"""One Hachinin Meri deal in progress: flat `__slots__` of ints, hands as 75-bit masks.

Phases (records.md): `declare` (H-12: one round from the dealer's left, D-5, D-6), `discard`
(H-13, H-14: the receiver took the Okie and discards), `play` (H-20..H-28: eight tricks with
decisions; trick 9 then resolves itself, H-29), `over`. Actions are ints: a card id 0..74, or
`DECLARE` (75) / `PASS` (76).

`apply` checks in the order of records.md — the kind of action for the phase (`turn`), the card
held (`held`), then the rules (H-12, H-14, H-22, H-25/H-26, H-27) — and raises before changing
anything, so an illegal action leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from typing import Any

from engine.errors import IllegalAction
from engine.game import State
from engine.meri.cards import (
    COMBINATION_WINNERS,
    NCARDS,
    PLAIN_SUIT_MASK,
    POWER,
    SUIT_OF,
    TRUMP_MASK,
    code,
    robai,
)
from engine.meri.legal import (
    DECLARE,
    DECLARE_PHASE,
    DISCARD_PHASE,
    OVER_PHASE,
    PASS,
    PHASES,
    PLAY_PHASE,
    SUN_BIT,
    discard_mask,
)
from engine.meri.observation import observe
from engine.meri.scoring import combination_transfer, result_json, score_trick

ROBAI = tuple(robai(t) for t in range(5))  # the native Robai of each trump suit (H-11)
ROBAI_BIT = tuple(1 << c for c in ROBAI)
CARD_OF_BIT = {1 << c: c for c in range(NCARDS)}  # a one-card mask's card
BIT = tuple(1 << c for c in range(NCARDS))  # a card's one-card mask
NEXT_SEAT = (1, 2, 3, 4, 5, 6, 7, 0)  # (seat + 1) & 7, a table read rather than two operations
#: LOWER[c]: the cards below card c, to walk a mask down from its highest card.
LOWER = tuple((1 << c) - 1 for c in range(NCARDS))
#: WINS_COMBINATION[trump][c]: c is the upper card of a combination pair (`COMBINATION_WINNERS`).
WINS_COMBINATION = tuple(tuple(bool(COMBINATION_WINNERS[t] >> c & 1) for c in range(NCARDS))
                         for t in range(5))
IS_TRUMP = tuple(tuple(bool(TRUMP_MASK[t] >> c & 1) for c in range(NCARDS)) for t in range(5))
#: What `_vouch` holds when no action is vouched for (an object no caller can pass).
NO_ACTION: Any = object()

__all__ = ["MeriState", "nth_bit", "DECLARE_PHASE", "DISCARD_PHASE", "PLAY_PHASE", "OVER_PHASE",
           "PHASES"]


def nth_bit(mask: int, k: int) -> int:
    """The card of the k-th set bit (from the lowest) of `mask`, without building a list."""
    while k:  # (a counted `while` costs half a `for _ in range(k)` here: measured)
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


class MeriState(State):
    """A deal from its layout to its score. See the module docstring for phases and actions.

    Public attributes the UI and bots may read: `dealer`, `trump`, `okie`, `undealt`,
    `hands[seat]` (mask), `declarer`/`receiver` (-1 until known), `discard` (-1),
    `trick_no` (0-based, 9 when over), `leader`, `trick[seat]` (-1 = not played yet),
    `tricks` (completed: `(leader, cards by seat, winner, meri, transfer)`), `team_scores`,
    `is_over` (a plain attribute kept in step with the phase; never assign it).
    """

    __slots__ = (
        "dealer", "trump", "okie", "undealt", "tmask", "initial", "hands", "_phase", "_to_act",
        "answers", "declarer", "receiver", "declared", "discard", "sun_exc", "meri_seen",
        "trick_no", "leader", "led", "meri", "trick", "n_played", "best_power", "best_seat",
        "facedown", "tricks", "team_scores", "team_tricks",
        # `is_over` is a plain slot rather than the ABC's property: every playout loop reads it
        # once per decision, and a property call cost about as much as a whole legality check.
        "is_over",
        # The card `random_action` last drew in the play for this very state (NO_ACTION when
        # none; every play clears it): `apply` of it skips the checks it already passed.
        "_vouch",
        # POWER[trump][led] of the trick in progress (set at its lead): a card's strength in it;
        # () between tricks, so a state's slots do not depend on the path that reached it.
        "_power",
        # IS_TRUMP[trump]: per card, whether it is a trump in this deal.
        "_is_trump",
    )

    def __init__(self, dealer: int, hands: list[int], undealt: tuple[int, int, int]) -> None:
        """A fresh deal: `hands[seat]` masks of 9 cards, `undealt` with the Okie first (H-8)."""
        self.dealer = dealer
        self.okie = undealt[0]
        self.trump = SUIT_OF[self.okie]  # H-9
        self.undealt = tuple(undealt)
        self.tmask = TRUMP_MASK[self.trump]
        self.initial = tuple(hands)
        self.hands = list(hands)
        self._phase = DECLARE_PHASE
        self.is_over = False
        self._to_act = (dealer + 1) & 7
        self.answers = 0
        self.declarer = -1
        self.receiver = -1
        # D-9: a native Robai that is the Okie was public from the start and counts as declared.
        self.declared = self.okie == robai(self.trump)
        self.discard = -1
        self.sun_exc = 0
        self.meri_seen = False
        self.trick_no = 0
        self.leader = -1
        self.led = -1
        self.meri = False
        self.trick = [-1] * 8
        self.n_played = 0
        self.best_power = 0
        self.best_seat = -1
        self.facedown = 0
        self.tricks: list[tuple[int, tuple[int, ...], int, bool, int]] = []
        self.team_scores = [0, 0]
        self.team_tricks = [0, 0]
        self._vouch = NO_ACTION
        self._power: tuple[int, ...] = ()
        self._is_trump = IS_TRUMP[self.trump]

    # ---- the State API -------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return None if self._phase == OVER_PHASE else self._to_act

    @property
    def phase(self) -> str:
        return PHASES[self._phase]

    @property
    def result(self) -> dict[str, Any] | None:
        """records.md's meri result (card codes), or None until the deal is over."""
        return result_json(self)

    def legal_mask(self) -> int:
        """The cards `to_act` may discard or play (0 outside those phases)."""
        phase = self._phase
        if phase == PLAY_PHASE:
            # `legal.play_mask` inlined (the hot path of every public playout); the conformance
            # tests check it against the observation's `play_mask` at every step.
            seat = self._to_act
            hand = self.hands[seat]
            if self.n_played == 0:
                if self.trick_no == 0 and hand & ~self.tmask:  # H-22, D-2
                    return hand & ~self.tmask
                return hand
            if self.meri:  # H-25, H-26
                trumps = hand & self.tmask
                if trumps and not (self.sun_exc >> seat & 1 and trumps == SUN_BIT[self.trump]):
                    return trumps
                return hand
            if self.meri_seen:  # H-27
                follow = hand & PLAIN_SUIT_MASK[self.trump][self.led]
                if follow:
                    return follow | (hand & self.tmask)
            return hand
        if phase == DISCARD_PHASE:
            return discard_mask(self.hands[self._to_act], self.trump)
        return 0

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == DECLARE_PHASE:
            return [DECLARE, PASS] if self._can_declare() else [PASS]
        out = []
        mask = self.legal_mask()
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def random_action(self, rng: random.Random) -> int:
        """Uniform over the legal actions; always exactly one `rng.random()` per decision.

        (`int(random() * n)` for n <= 10 is uniform to within 2**-49 and much cheaper than
        `randrange`; the fast playout draws the same way, so both paths give the same deals.)
        """
        if self._phase == PLAY_PHASE:
            # `legal_mask` inlined, its branches in order of frequency (measured over random
            # deals: no obligation yet 42%, after a Meri was seen 45%, leads 12%).
            seat = self._to_act
            mask = self.hands[seat]
            if self.meri_seen:
                if self.meri:  # H-25, H-26
                    trumps = mask & self.tmask
                    if trumps and (trumps != SUN_BIT[self.trump] or not self.sun_exc >> seat & 1):
                        mask = trumps
                elif self.n_played:  # H-27
                    follow = mask & PLAIN_SUIT_MASK[self.trump][self.led]
                    if follow:
                        mask = follow | (mask & self.tmask)
            elif not self.trick_no and not self.n_played and mask & ~self.tmask:  # H-22, D-2
                mask &= ~self.tmask
            # The k-th set bit (from the lowest) for k = int(random() * popcount), walked to
            # from the nearer end: down from the top (`bit_length`, one table xor per step)
            # or up from the bottom (`mask & mask - 1`). Fewer operations on the 75-bit mask,
            # each of which allocates an int.
            n = mask.bit_count()
            k = (rng.random() * n).__trunc__()  # int(), without the call through the type
            if k + k < n:
                while k:
                    mask &= mask - 1
                    k -= 1
                c = (mask & -mask).bit_length() - 1
            else:  # the same card is the (n - 1 - k)-th counted from the highest
                c = mask.bit_length() - 1
                k = n - 1 - k
                while k:
                    c = (mask & LOWER[c]).bit_length() - 1
                    k -= 1
            self._vouch = c
            return c
        if self._phase == DECLARE_PHASE:
            r = rng.random()
            if self.hands[self._to_act] & ROBAI_BIT[self.trump]:  # `_can_declare` (H-12)
                return DECLARE if r < 0.5 else PASS
            return PASS
        mask = self.legal_mask()
        k = (rng.random() * mask.bit_count()).__trunc__()
        while k:  # nth_bit, inlined
            mask &= mask - 1
            k -= 1
        return (mask & -mask).bit_length() - 1

    def _can_declare(self) -> bool:
        """H-12: only the holder of the native Robai may declare."""
        return bool(self.hands[self._to_act] & ROBAI_BIT[self.trump])

    def apply(self, action: Any) -> None:
        if action is not self._vouch:  # (a vouched card passed the play's checks already)
            if self._phase != PLAY_PHASE:
                if action == PASS and self._phase == DECLARE_PHASE and self.answers < 7:
                    # A pass that does not end the declaration round (7 of a deal's 9
                    # decisions before the play): `_answer` written out.
                    self.answers += 1
                    self._to_act = NEXT_SEAT[self._to_act]
                    return
                self._apply_other(action)
                return
            # Any other play is checked (records.md order: turn, held, then the rules H-22,
            # H-25/H-26, H-27, each asked only where it can forbid the card).
            seat = self._to_act
            if action.__class__ is not int or not 0 <= action < NCARDS:
                raise IllegalAction("turn", f"seat {seat} must play a card")
            hand = self.hands[seat]
            bit = BIT[action]
            if not hand & bit:
                raise IllegalAction("held", f"seat {seat} does not hold {code(action)}")
            tmask = self.tmask
            if self.n_played == 0:
                if bit & tmask and self.trick_no == 0 and hand & ~tmask:  # H-22, D-2
                    raise IllegalAction("H-22", self._why(seat, action))
            elif self.meri:
                if not bit & tmask:  # H-25, with the Sun exception H-26
                    trumps = hand & tmask
                    if trumps and not (self.sun_exc >> seat & 1
                                       and trumps == SUN_BIT[self.trump]):
                        raise IllegalAction("H-25", self._why(seat, action))
            elif not bit & tmask and self.meri_seen:  # H-27 Monchi
                follow = PLAIN_SUIT_MASK[self.trump][self.led]
                if not bit & follow and hand & follow:
                    raise IllegalAction("H-27", self._why(seat, action))
        self._vouch = NO_ACTION
        # A play: 64 of a deal's 73 decisions. `_play` written out (profiled: the call and
        # repeated attribute reads were a fifth of a public playout).
        seat = self._to_act
        # Tables (`BIT`, `_is_trump`) rather than `1 << action` and `& tmask`: every operation
        # on a 75-bit int allocates a new one.
        self.hands[seat] ^= BIT[action]
        self.trick[seat] = action
        n = self.n_played
        if n:
            if not self.meri and self._is_trump[action]:
                self.facedown |= 1 << seat  # H-24
            power = self._power[action]
            if power > self.best_power:
                self.best_power = power
                self.best_seat = seat
            if n == 7:
                self.n_played = 8
                self._close_trick()
                return
            self.n_played = n + 1
            self._to_act = NEXT_SEAT[seat]
            return
        else:
            self.leader = seat
            if self._is_trump[action]:
                led = self.led = self.trump  # H-21: a trump lead is a Meri
                self.meri = self.meri_seen = True
            else:
                led = self.led = SUIT_OF[action]
            row = self._power = POWER[self.trump][led]
            self.best_power = row[action]  # > 0: the lead is the best so far
            self.best_seat = seat
            self.n_played = 1
        self._to_act = NEXT_SEAT[seat]

    def _apply_other(self, action: Any) -> None:
        """`apply` outside the play: a declaration answer, the discard, or a refusal."""
        phase = self._phase
        seat = self._to_act
        if phase == OVER_PHASE:
            raise IllegalAction("turn", "the deal is over")
        if phase == DECLARE_PHASE:
            if action == PASS:
                if self.answers < 7:  # `_answer` of a pass that does not end the round
                    self.answers += 1
                    self._to_act = (seat + 1) & 7
                else:
                    self._answer(seat, False)
            elif action == DECLARE:
                if not self._can_declare():
                    raise IllegalAction("H-12", f"seat {seat} cannot declare: only the holder "
                                        f"of the native Robai {code(robai(self.trump))} may")
                self._answer(seat, True)
            else:
                raise IllegalAction("turn", f"seat {seat} must declare or pass")
            return
        # DISCARD_PHASE
        if action.__class__ is not int or not 0 <= action < NCARDS:
            raise IllegalAction("turn", f"seat {seat} must discard a card")
        hand = self.hands[seat]
        if not hand >> action & 1:
            raise IllegalAction("held", f"seat {seat} does not hold {code(action)}")
        if not discard_mask(hand, self.trump) >> action & 1:
            raise IllegalAction("H-14", f"{code(action)} is a trump and seat {seat} holds "
                                "a non-trump to discard")
        self._discard(seat, action)

    def clone(self) -> MeriState:
        new = MeriState.__new__(MeriState)
        new.dealer = self.dealer
        new.trump = self.trump
        new.okie = self.okie
        new.undealt = self.undealt
        new.tmask = self.tmask
        new.initial = self.initial
        new.hands = self.hands[:]
        new._phase = self._phase
        new.is_over = self.is_over
        new._to_act = self._to_act
        new.answers = self.answers
        new.declarer = self.declarer
        new.receiver = self.receiver
        new.declared = self.declared
        new.discard = self.discard
        new.sun_exc = self.sun_exc
        new.meri_seen = self.meri_seen
        new.trick_no = self.trick_no
        new.leader = self.leader
        new.led = self.led
        new.meri = self.meri
        new.trick = self.trick[:]
        new.n_played = self.n_played
        new.best_power = self.best_power
        new.best_seat = self.best_seat
        new.facedown = self.facedown
        new.tricks = self.tricks[:]  # completed tricks are immutable tuples
        new.team_scores = self.team_scores[:]
        new.team_tricks = self.team_tricks[:]
        new._vouch = NO_ACTION
        new._power = self._power
        new._is_trump = self._is_trump
        return new

    def observation(self, seat: int) -> Any:
        return observe(self, seat)

    # ---- transitions (no checks: callers have validated) -------------------------------
    def _answer(self, seat: int, declare: bool) -> None:
        self.answers += 1
        if declare:  # D-5: a declaration ends the round; H-13: the declarer takes the Okie
            self.declarer = seat
            self.declared = True
            self._receive(seat)
        elif self.answers == 8:  # H-13: all passed, the dealer takes it
            self._receive(self.dealer)
        else:
            self._to_act = (seat + 1) & 7

    def _receive(self, seat: int) -> None:
        self.receiver = seat
        self.hands[seat] |= 1 << self.okie
        self._phase = DISCARD_PHASE
        self._to_act = seat

    def _discard(self, seat: int, c: int) -> None:
        self.hands[seat] ^= 1 << c
        self.discard = c
        self._phase = PLAY_PHASE
        # D-7: the Sun exception (H-26) belongs to whoever holds the trump Sun as their only
        # trump now, at the opening lead.
        sun, tmask = SUN_BIT[self.trump], self.tmask
        exc = 0
        for s, hand in enumerate(self.hands):  # (only the Sun's holder can have it)
            if hand & sun and hand & tmask == sun:
                exc = 1 << s
        self.sun_exc = exc

    def _play(self, seat: int, c: int) -> None:
        # Locals instead of repeated attribute reads: this runs 64 times a deal (profiled).
        self._vouch = NO_ACTION
        bit = 1 << c
        self.hands[seat] ^= bit
        n = self.n_played
        if n == 0:
            self.leader = seat
            if self.tmask & bit:  # H-21: a trump lead is a Meri
                led = self.led = self.trump
                self.meri = True
                self.meri_seen = True
            else:
                led = self.led = SUIT_OF[c]
            self._power = POWER[self.trump][led]
        elif not self.meri and self.tmask & bit:
            self.facedown |= 1 << seat  # H-24
        self.trick[seat] = c
        power = self._power[c]
        if power > self.best_power:
            self.best_power = power
            self.best_seat = seat
        n += 1
        self.n_played = n
        if n == 8:
            self._close_trick()
        else:
            self._to_act = (seat + 1) & 7

    def _close_trick(self) -> None:
        winner = self.best_seat
        cards = tuple(self.trick)
        meri = self.meri
        team = winner & 1
        self.team_tricks[team] += 1
        # H-31: only a non-Meri trick won by the upper card of a combination pair can move
        # points; `score_trick` written out (8 times a deal), `combination_transfer` asked
        # only then (it gives 0 for every other winning card).
        if not meri and WINS_COMBINATION[self.trump][cards[winner]]:
            transfer = combination_transfer(cards, winner, self.trump, self.declared, False)
            if transfer:
                self.team_scores[team ^ 1] -= transfer
            self.team_scores[team] += 1 + transfer
            self.tricks.append((self.leader, cards, winner, False, transfer))
        else:
            self.team_scores[team] += 1
            self.tricks.append((self.leader, cards, winner, meri, 0))
        trick_no = self.trick_no = self.trick_no + 1
        self.trick = [-1, -1, -1, -1, -1, -1, -1, -1]
        self.n_played = 0
        self.best_power = 0
        self._power = ()
        self.facedown = 0
        self.meri = False
        self.led = -1
        if trick_no == 8:
            self._trick_nine(winner)
        else:
            self.leader = winner
            self._to_act = winner

    def _trick_nine(self, leader: int) -> None:
        """H-29: every last card at once; the dealer's card sets the led suit without trumps."""
        cards = tuple(map(CARD_OF_BIT.__getitem__, self.hands))  # one card left in each hand
        dealer_card = cards[self.dealer]
        trump = self.trump
        led = trump if self._is_trump[dealer_card] else SUIT_OF[dealer_card]
        powers = list(map(POWER[trump][led].__getitem__, cards))
        winner = powers.index(max(powers))  # the first strongest card (H-28)
        self.hands = [0] * 8
        transfer = 0
        if WINS_COMBINATION[trump][cards[winner]]:
            transfer = combination_transfer(cards, winner, trump, self.declared, True)  # D-3
        score_trick(self, leader, cards, winner, False, transfer)
        self.trick_no += 1
        self.leader = -1
        self._phase = OVER_PHASE
        self.is_over = True
        self._to_act = -1

    def _why(self, seat: int, c: int) -> str:
        if self.n_played == 0:
            return f"{code(c)} is a trump: nobody may lead a trump in trick 1 while holding a non-trump"
        if self.meri:
            return f"{code(c)} does not follow the Meri: seat {seat} holds a trump"
        led = "PIKOG"[self.led]
        return (f"Monchi: seat {seat} holds {led} cards and must follow {led} or play a trump, "
                f"not {code(c)}")
