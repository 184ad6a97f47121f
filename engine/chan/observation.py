"""What one Chắn seat may know (`ChanState.observation(seat)`): an immutable, hashable value.

This module reads a state's fields (duck-typed) and imports no state module.

It holds the seat's own hand and everything public: gates (discards and revealed stock cards),
exposed pairs, the open card, the stock count, each player's public memory (faces discarded,
faces played from hand into a Cạ, whether a Cạ was captured), the public history of decisions
and the stock cards revealed so far. Never another seat's hand, the unrevealed stock, or another
seat's refused faces (whether a pass refused a Chắn depends on that seat's hand): only the
seat's own C-19 refusals are included. Declined claim offers are not public either: the history
omits `pass` at `heavenly`, `win_offer` and `chiu_offer`.

Offers are private. A pending `heavenly`, `win_offer` or `chiu_offer` decision is only shown to
the seat it is offered to; every other seat sees the public decision that follows once the
offers are declined (the dealer's `discard`; the revealer's `own_card`; the `respond` of the
player to act), so its view is the same whether or not anyone holds a claimable hand.

For samplers: `unseen` counts by face what this seat has not seen, and `hidden_sizes` names
each hidden location (`hand0`…`hand3` except the seat's own, `stock`) with its number of cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.chan.cards import CODE, COPIES, FACES, ca_partners_mask, ca_ranks, faces_of
from engine.chan.legal import (
    CADISC,
    CAPCA,
    CAPL,
    DISC,
    DISCARD,
    HEAVENLY,
    NCA,
    ODD,
    OFFERS,
    OVER,
    OWN_CARD,
    PASS,
    PHASES,
    REF,
    RESPOND,
    STOCK_FLAG,
    X3,
    action_text,
    legal_actions,
)

Pair = tuple[int, ...]


@dataclass(frozen=True)
class ChanObservation:
    """One seat's view. Faces are ints (see `engine.chan.cards`); gates hold (face, from_stock)."""

    seat: int
    to_act: int | None
    phase: str
    dealer: int
    dead: int  # the dead-hand dealer (C-13), or -1
    turn: int  # the player whose normal decision follows the pending offers
    hand: tuple[int, ...]  # 25 counts
    hand_sizes: tuple[int, int, int, int]
    exposed: tuple[tuple[Pair, ...], ...]
    gates: tuple[tuple[tuple[int, bool], ...], ...]
    open_card: int  # -1 if none
    open_owner: int
    open_from_stock: bool
    stock_count: int
    discarded: tuple[int, int, int, int]  # face masks (public memory, C-20/C-21/X-3)
    ca_played: tuple[int, int, int, int]  # faces played from hand into a Cạ (C-20)
    captured_ca: tuple[bool, bool, bool, bool]
    refused: int  # this seat's own refused faces (C-19, X-2)
    history: tuple[tuple[int, int, int, int], ...]  # public (seat, phase, action, open face)
    revealed: tuple[int, ...]  # stock cards revealed so far, in order
    unseen: tuple[int, ...]  # 25 counts of cards this seat has not seen
    hidden_sizes: tuple[tuple[str, int], ...]
    winner: int  # -1 until someone wins

    def legal_actions(self) -> list[int]:
        """The legal actions of this seat when it is `to_act` (rebuilt from the view alone)."""
        if self.to_act != self.seat or self.seat == self.dead:
            return []
        counts, mem = own_arrays(self)
        return legal_actions(PHASES.index(self.phase), self.seat, self.open_card, counts, mem)

    def hand_faces(self) -> list[int]:
        return [f for f in range(FACES) for _ in range(self.hand[f])]

    def describe(self) -> str:
        """A short text (debugging)."""
        hand = " ".join(CODE[f] for f in self.hand_faces())
        open_ = CODE[self.open_card] if self.open_card >= 0 else "-"
        return f"seat {self.seat} phase {self.phase} to_act {self.to_act} open {open_} hand {hand}"


def own_arrays(obs: ChanObservation) -> tuple[list[int], list[int]]:
    """The state's `counts` and `mem` arrays as far as the observing seat's own decision reads
    them (its hand and its memory; zeros for the other seats), rebuilt from the view alone."""
    counts = [0] * (4 * FACES)
    counts[obs.seat * FACES:(obs.seat + 1) * FACES] = obs.hand
    mem = [0] * 32
    b = obs.seat << 3
    odd = 0
    for f in range(FACES):
        if obs.hand[f] & 1:
            odd |= 1 << f
    d = obs.discarded[obs.seat]
    mem[b | ODD] = odd
    mem[b | DISC] = d
    mem[b | X3] = ca_partners_mask(d)
    mem[b | CAPL] = obs.ca_played[obs.seat]
    mem[b | REF] = obs.refused
    mem[b | CAPCA] = int(obs.captured_ca[obs.seat])
    mem[b | CADISC] = int(bool(ca_ranks(d)))
    mem[b | NCA] = sum(1 for p in obs.exposed[obs.seat] if len(p) == 2 and p[0] != p[1])
    return counts, mem


def public_history(state: Any) -> tuple[tuple[int, int, int, int], ...]:
    """The decisions every seat saw: all but declined offers."""
    return tuple(e for e in state.log if not (e[2] == PASS and e[1] in OFFERS))


def public_decision(state: Any, seat: int) -> tuple[int | None, int, int]:
    """(to_act, phase, turn) as `seat` may see them: a claim offer made to another seat is
    hidden behind the public decision that follows it (K-2), so nothing tells that seat whether
    anyone can win or holds three of the open card's face."""
    ph, t = state._phase, state.turn
    if ph == OVER:
        return None, OVER, t
    if ph not in OFFERS or state.actor == seat:
        return state.actor, ph, t
    if ph == HEAVENLY:
        return state.dealer, DISCARD, t
    if state.ostock and state.owner == t:
        if t == state.dead:  # D-6: the dead hand passes its own card on automatically
            return (t + 1) & 3, RESPOND, (t + 1) & 3
        return t, OWN_CARD, t
    # The player to act answers the open card (for a dead hand: its automatic turn follows).
    return t, RESPOND, t


def observe(state: Any, seat: int) -> ChanObservation:
    """Build `seat`'s observation of `state`."""
    base = seat * FACES
    hand = tuple(state.counts[base:base + FACES])
    mem = state.mem
    seen = list(hand)
    for s in range(4):
        for pair in state.exposed[s]:
            for f in pair:
                seen[f] += 1
        for g in state.gates[s]:
            seen[g & 31] += 1
    sizes = tuple(sum(state.counts[s * FACES:(s + 1) * FACES]) for s in range(4))
    hidden = tuple((f"hand{s}", sizes[s]) for s in range(4) if s != seat)
    hidden += (("stock", len(state.stock) - state.sp),)
    to_act, phase, turn = public_decision(state, seat)
    return ChanObservation(
        seat=seat,
        to_act=to_act,
        phase=PHASES[phase],
        dealer=state.dealer,
        dead=state.dead,
        turn=turn,
        hand=hand,
        hand_sizes=sizes,  # type: ignore[arg-type]
        exposed=tuple(state.exposed),
        gates=tuple(tuple((g & 31, bool(g & STOCK_FLAG)) for g in gate) for gate in state.gates),
        open_card=state.open,
        open_owner=state.owner,
        open_from_stock=state.ostock,
        stock_count=len(state.stock) - state.sp,
        discarded=tuple(mem[s << 3 | DISC] for s in range(4)),  # type: ignore[arg-type]
        ca_played=tuple(mem[s << 3 | CAPL] for s in range(4)),  # type: ignore[arg-type]
        captured_ca=tuple(bool(mem[s << 3 | CAPCA]) for s in range(4)),  # type: ignore[arg-type]
        refused=mem[seat << 3 | REF],
        history=public_history(state),
        revealed=state.stock[:state.sp],
        unseen=tuple(COPIES - n for n in seen),
        hidden_sizes=hidden,
        winner=state.winner,
    )


def hidden_of(state: Any, seat: int) -> dict[str, list[int]]:
    """The cards hidden from `seat` by location (the names of `hidden_sizes`): the other hands
    (faces in canonical order) and the unrevealed stock, top first. With the observation, this
    is exactly what `determinize` needs to rebuild `state`."""
    hidden = {f"hand{s}": [f for f in range(FACES) for _ in range(state.counts[s * FACES + f])]
              for s in range(4) if s != seat}
    hidden["stock"] = list(state.stock[state.sp:])
    return hidden


def history_text(obs: ChanObservation) -> list[str]:
    """The public history as `seat N: action` lines (for display and debugging)."""
    return [f"seat {s}: {action_text(a)}" for s, _ph, a, _o in obs.history]


__all__ = ["ChanObservation", "observe", "hidden_of", "own_arrays", "public_decision",
           "public_history", "history_text", "faces_of"]
