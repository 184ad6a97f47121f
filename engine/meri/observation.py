"""What one seat may know of a Meri deal (architecture: observations).

`observe(state, seat)` gives an immutable, hashable `MeriObservation`: the seat's own hand, the
Okie, the declaration answers, the side cards once they are turned up (H-15), every completed
trick, the current trick with other seats' face-down trumps shown as `FACE_DOWN` (H-24), scores,
and what a sampler needs: the `pool` of cards whose place the seat cannot see, the hidden
locations with their sizes (`hand3`, `undealt`, `discard`, `down5` = seat 5's face-down trump),
and per location the cards public play rules out (`forbidden`), e.g. a seat that did not follow a
Meri holds no trump (but maybe the Sun, H-26), a Monchi break shows a void (H-27), a face-down
card is a trump, the Okie is with its receiver.

`hidden_of(state, seat)` gives the true contents of those locations (tests); rebuilding a deal
from an observation is `engine.meri.determinize`.

This module imports no state module: `engine.meri.state` imports it (`MeriState.observation`),
so the state parameters below are typed `Any` and read `MeriState`'s attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.meri.cards import ALL, PLAIN_SUIT_MASK, cards_of, robai
from engine.meri.legal import (
    DECLARE,
    OVER_PHASE,
    PASS,
    PLAY_PHASE,
    SUN_BIT,
    card_actions,
    discard_mask,
    play_mask,
)

FACE_DOWN = 75  # in `MeriObservation.trick`: a trump another seat played face down

Trick = tuple[int, tuple[int, ...], int, bool, int]


@dataclass(frozen=True)
class MeriObservation:
    """Everything `seat` may know. Cards are ints (`engine.meri.cards`), sets are bitmasks."""

    seat: int
    to_act: int | None
    phase: str
    dealer: int
    trump: int
    okie: int
    hand: int  # own cards (mask)
    hand_sizes: tuple[int, ...]
    answers: tuple[int, ...]  # declaration round so far, from the dealer's left: DECLARE / PASS
    declarer: int  # -1: nobody (yet)
    receiver: int  # who took the Okie, -1 before
    declared: bool  # the native Robai counts as declared (H-12, D-9)
    discard: int  # the receiver's discard when this seat may see it, else -1
    side: tuple[int, ...]  # discard + the two undealt cards once turned up (H-15), else ()
    sun_exception: bool  # this seat may keep its lone trump Sun in a Meri (H-26, D-7)
    trick_no: int  # 0-based number of the current trick (9 when over)
    leader: int
    trick: tuple[int, ...]  # by seat: -1 not yet played, FACE_DOWN, or the card
    led: int  # the led suit of the current trick (the trump suit for a Meri), -1 before a lead
    meri: bool
    meri_seen: bool  # a Meri has been led this deal (H-23, H-27)
    tricks: tuple[Trick, ...]  # completed: (leader, cards by seat, winner, meri, transfer)
    team_scores: tuple[int, int]
    team_tricks: tuple[int, int]
    pool: int  # cards whose place this seat cannot see (mask)
    hidden: tuple[tuple[str, int], ...]  # hidden location -> how many cards it holds
    forbidden: tuple[tuple[str, int], ...]  # hidden location -> cards it cannot hold (mask)

    def legal_actions(self) -> list[int]:
        """The legal actions of this seat when it is to act (else none), as `State` lists them."""
        if self.to_act != self.seat:
            return []
        if self.phase == "declare":
            return [DECLARE, PASS] if self.hand >> robai(self.trump) & 1 else [PASS]
        if self.phase == "discard":
            return cards_of(discard_mask(self.hand, self.trump))
        n_played = sum(1 for c in self.trick if c >= 0)
        return cards_of(play_mask(self.hand, self.trump, self.trick_no, n_played, self.led,
                                  self.meri, self.meri_seen, self.sun_exception))

    def legal_cards(self) -> list[int]:
        """The cards among `legal_actions()`: what this seat may discard or play now (a table's
        playable cards; empty while declaring, since `DECLARE` / `PASS` are not cards)."""
        return card_actions(self.legal_actions())

    def capacity(self) -> dict[str, int]:
        return dict(self.hidden)

    def allowed(self, card: int) -> list[str]:
        """The hidden locations that may hold `card` (for `engine.ai.sampler.deal_hidden`)."""
        return [loc for loc, mask in self.forbidden if not mask >> card & 1]


def _exclusions(state: Any) -> list[int]:
    """Per seat, the cards public play shows it cannot hold any more (H-22, H-25..H-27, D-2)."""
    trump, tmask = state.trump, state.tmask
    excl = [0] * 8
    played_trump = [False] * 8
    if state.discard >= 0 and state.trick_no + state.n_played > 0 and tmask >> state.discard & 1:
        excl[state.receiver] |= ALL & ~tmask  # D-2: a trump discard means a hand of trumps only
    okie_is_sun = 1 << state.okie == SUN_BIT[trump]  # the receiver took the Okie, a trump
    seen_meri = False
    sequences = [(lead, cards, meri, 8) for lead, cards, _w, meri, _t in state.tricks[:8]]
    if state.n_played and state._phase == PLAY_PHASE:
        sequences.append((state.leader, tuple(state.trick), state.meri, state.n_played))
    for number, (leader, cards, meri, count) in enumerate(sequences):
        led_card = cards[leader]
        for k in range(count):
            s = (leader + k) & 7
            c = cards[s]
            is_trump = bool(tmask >> c & 1)
            if k == 0:
                if number == 0 and is_trump:  # D-2: trick 1 led with a trump
                    excl[s] |= ALL & ~tmask
            elif meri and not is_trump:  # H-25, with H-26 keeping a lone Sun possible
                lone_sun = not played_trump[s] and (s != state.receiver or okie_is_sun)
                excl[s] |= tmask & ~(SUN_BIT[trump] if lone_sun else 0)
            elif seen_meri and not meri and not is_trump:  # H-27 Monchi
                led_plain = PLAIN_SUIT_MASK[trump][led_card // 15]
                if not led_plain >> c & 1:
                    excl[s] |= led_plain
            if is_trump:
                played_trump[s] = True
        seen_meri = seen_meri or meri
    return excl


def observe(state: Any, seat: int) -> MeriObservation:
    """`seat`'s view of `state` (see the module docstring)."""
    phase = state._phase
    lead_done = phase == OVER_PHASE or state.trick_no > 0 or state.n_played > 0
    trick = tuple(
        FACE_DOWN if (state.facedown >> s & 1 and s != seat) else c
        for s, c in enumerate(state.trick))
    side: tuple[int, ...] = ()
    discard = -1
    if lead_done:
        side = (state.discard,) + state.undealt[1:]
        discard = state.discard
    elif seat == state.receiver:
        discard = state.discard
    hidden: list[tuple[str, int]] = []
    forbidden: list[tuple[str, int]] = []
    excl = _exclusions(state) if phase == PLAY_PHASE else [0] * 8
    pool = _located(state, seat, lead_done)
    # The Okie (and a declared native Robai) are known to be with the receiver (H-13, H-12).
    receiver = state.receiver
    pinned = 0
    if receiver >= 0:
        pinned = 1 << state.okie | (1 << robai(state.trump) if state.declarer >= 0 else 0)
    for s in range(8):
        if s == seat:
            continue
        hidden.append((f"hand{s}", state.hands[s].bit_count()))
        forbidden.append((f"hand{s}", excl[s] | (pinned if s != receiver else 0)))
    if not lead_done:
        hidden.append(("undealt", 2))
        forbidden.append(("undealt", pinned | 1 << state.okie))
        if state.discard >= 0 and seat != receiver:
            hidden.append(("discard", 1))
            forbidden.append(("discard", 0))
    for s in range(8):
        if trick[s] == FACE_DOWN:
            hidden.append((f"down{s}", 1))
            # A face-down card is a trump (H-24) that came from that seat's hand.
            limit = ALL & ~state.tmask | excl[s] | (pinned if s != receiver else 0)
            forbidden.append((f"down{s}", limit))
    return MeriObservation(
        seat=seat, to_act=state.to_act, phase=state.phase, dealer=state.dealer,
        trump=state.trump, okie=state.okie, hand=state.hands[seat],
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        answers=tuple([PASS] * (state.answers - (state.declarer >= 0))
                      + ([DECLARE] if state.declarer >= 0 else [])),
        declarer=state.declarer, receiver=state.receiver, declared=state.declared,
        discard=discard, side=side, sun_exception=bool(state.sun_exc >> seat & 1),
        trick_no=state.trick_no, leader=state.leader if phase == PLAY_PHASE else -1,
        trick=trick, led=state.led, meri=state.meri, meri_seen=state.meri_seen,
        tricks=tuple(state.tricks), team_scores=(state.team_scores[0], state.team_scores[1]),
        team_tricks=(state.team_tricks[0], state.team_tricks[1]), pool=pool,
        hidden=tuple(hidden), forbidden=tuple(forbidden))


def _located(state: Any, seat: int, lead_done: bool) -> int:
    """The pool: every card in a location `seat` cannot see (other hands, undealt, face down).

    The Okie in the receiver's hand is in the pool too; `forbidden` pins it to that hand.
    """
    m = 0
    for s in range(8):
        if s != seat:
            m |= state.hands[s]
    if not lead_done:
        m |= 1 << state.undealt[1] | 1 << state.undealt[2]
        if state.discard >= 0 and seat != state.receiver:
            m |= 1 << state.discard
    for s in range(8):
        if state.facedown >> s & 1 and s != seat:
            m |= 1 << state.trick[s]
    return m


def hidden_of(state: Any, seat: int) -> dict[str, list[int]]:
    """The true contents of every hidden location of `seat`'s observation (tests, debugging)."""
    obs = observe(state, seat)
    out: dict[str, list[int]] = {}
    for loc, _n in obs.hidden:
        if loc.startswith("hand"):
            out[loc] = cards_of(state.hands[int(loc[4:])])
        elif loc == "undealt":
            out[loc] = list(state.undealt[1:])
        elif loc == "discard":
            out[loc] = [state.discard]
        else:
            out[loc] = [state.trick[int(loc[4:])]]
    return out
