"""The fast random playout (AI rollouts, `engine bench`): uniform legal actions to the end.

It makes exactly the draws of repeated `state.random_action(rng)` + `state.apply(...)` — one
`rng.random()` per decision, the same legal masks, the k-th set bit — so both paths give the
same deal (a conformance test checks it), but it keeps the trick in local variables instead of
going through `apply`'s checks and attribute traffic, which is where the time went (profiled).
"""

from __future__ import annotations

import random

from engine.meri.cards import PLAIN_SUIT_MASK, POWER, robai
from engine.meri.legal import SUN_BIT
from engine.meri.state import DECLARE_PHASE, DISCARD_PHASE, OVER_PHASE, MeriState


def _pick(mask: int, r: float) -> int:
    """The k-th set bit of `mask` for k = int(r * popcount), as `nth_bit` does."""
    k = int(r * mask.bit_count())
    while k:  # a counted `while` is cheaper than `for _ in range(k)` (measured)
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def playout(state: MeriState, rng: random.Random) -> MeriState:
    """Play `state` to the end with uniformly random legal actions; returns it."""
    rnd = rng.random
    while state._phase == DECLARE_PHASE:  # at most 8 cheap decisions: use the public path
        r = rnd()
        holder = state.hands[state._to_act] >> robai(state.trump) & 1
        state._answer(state._to_act, bool(holder and r < 0.5))
    if state._phase == DISCARD_PHASE:
        seat = state._to_act
        hand = state.hands[seat]
        plain = hand & ~state.tmask
        state._discard(seat, _pick(plain if plain else hand, rnd()))
    if state._phase == OVER_PHASE:
        return state
    # The play: everything in locals (attribute access is the cost in CPython).
    trump, tmask, hands, trick = state.trump, state.tmask, state.hands, state.trick
    sun, sun_exc = SUN_BIT[trump], state.sun_exc
    plain_of = PLAIN_SUIT_MASK[trump]
    power_of = POWER[trump]
    meri_seen, trick_no, meri, led = state.meri_seen, state.trick_no, state.meri, state.led
    leader, n_played = state.leader, state.n_played
    best_power, best_seat, seat = state.best_power, state.best_seat, state._to_act
    power = power_of[led] if n_played else None
    while True:
        hand = hands[seat]
        if n_played == 0:  # a lead (H-22, D-2 in trick 1)
            m = hand
            if trick_no == 0 and hand & ~tmask:
                m = hand & ~tmask
            k = (rnd() * m.bit_count()).__trunc__()
            while k:  # _pick, inlined (hot)
                m &= m - 1
                k -= 1
            c = (m & -m).bit_length() - 1
            leader = seat
            if tmask >> c & 1:
                meri = meri_seen = True
                led = trump
            else:
                meri = False
                led = c // 15
            power = power_of[led]
            best_power, best_seat = power[c], seat
        else:
            if meri:  # H-25, H-26
                m = hand & tmask
                if not m or (sun_exc >> seat & 1 and m == sun):
                    m = hand
            elif meri_seen:  # H-27
                m = hand & plain_of[led]
                m = m | (hand & tmask) if m else hand
            else:  # H-23
                m = hand
            k = (rnd() * m.bit_count()).__trunc__()
            while k:  # _pick, inlined (hot)
                m &= m - 1
                k -= 1
            c = (m & -m).bit_length() - 1
            p = power[c]
            if p > best_power:
                best_power, best_seat = p, seat
        hands[seat] = hand ^ (1 << c)
        trick[seat] = c
        n_played += 1
        if n_played < 8:
            seat = (seat + 1) & 7
            continue
        # The trick is complete: hand back to the state's own scoring (8 times a deal).
        state.trick_no, state.meri, state.led = trick_no, meri, led
        state.leader, state.best_seat = leader, best_seat
        state.meri_seen = meri_seen
        state._close_trick()
        if state._phase == OVER_PHASE:
            return state
        trick = state.trick
        trick_no = state.trick_no
        n_played = 0
        seat = best_seat
