"""What one seat may know (`TractorObservation`), and the helpers a table reads it with.

The observation holds the seat's own hand and everything public: the bidding, the kitty turned up
after four passes (T-10), every trick, the trick in progress, the attackers' points, and the public
constraints a sampler must respect: suits each seat has shown void in (`voids`), suits in which a
seat showed it holds no more pairs by following a pair/tractor without one (`nopairs`, T-20), and
cards each seat is known to hold (`shown`: declared cards not yet played; for the dealer also the
turned-up kitty, which may since have been buried). The dealer also sees the kitty it picked up
(while it chooses what to bury) and the kitty it buried. It never holds another seat's hand or the
kitty's identity.
`hidden` names every hidden location and its size; `unseen` is exactly the multiset of cards in them.

This module imports no state module: `observe` reads any object with `TractorState`'s fields
(typed `Any`), so `engine.tractor.state` may import it without a cycle. Rebuilding a full state
from an observation is `engine.tractor.determinize`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.tractor.cards import NKINDS, Context, context

Trick = tuple[int, tuple[tuple[int, ...], ...], int]


@dataclass(frozen=True)
class TractorObservation:
    """An immutable, hashable view of a deal from `seat` (ints and tuples only)."""

    seat: int
    to_act: int | None
    phase: str
    levels: tuple[int, int]
    level: int
    dealer: int  # -1 while the first deal's dealer is not decided (T-11)
    dealt_dealer: int  # -1 for the first deal of a match
    bid_start: int
    hand: tuple[int, ...]  # 54 counts
    bids: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, action) in order
    decl_seat: int
    decl_strength: int
    decl_suit: int
    first_decl: int
    passes: int
    revealed: tuple[int, ...]  # the kitty turned up after four passes, else ()
    trump: int  # -1 before bidding ends, 0..3 a suit, 4 no-trump
    kitty: tuple[int, ...]  # the buried kitty, for the dealer only
    picked_up: tuple[int, ...]  # the kitty the dealer took into its hand, its own view while burying
    tricks: tuple[Trick, ...]  # (leader, plays in seat order from the leader, winner)
    trick: tuple[tuple[int, ...], ...]
    leader: int
    lead_suit: int
    win_seat: int
    win_key: int
    points: int  # attackers' card points so far (kitty bonus apart)
    bonus: int
    voids: tuple[int, int, int, int]  # bit e: shown void in effective suit e (4 = trumps)
    nopairs: tuple[int, int, int, int]  # bit e: shown to hold no pair in effective suit e
    shown: tuple[tuple[int, ...], ...]  # per seat: cards publicly known to be held
    unseen: tuple[int, ...]  # 54 counts: the cards of the hidden locations
    hidden: tuple[tuple[str, int], ...]  # (location, number of cards): "hand1", "kitty", ...

    # -- reading helpers (for tables: they read observations, never engine internals) ----------
    def trump_context(self) -> Context | None:
        """The deal's trump tables (effective suits and positions) once trump is known, else None."""
        return context(self.level, self.trump) if self.trump >= 0 else None

    def effective_suit(self, kind: int) -> int:
        """The effective suit of card `kind` (T-13, T-14): 0..3 a plain suit, 4 trumps; -1 while
        trump is not known."""
        return context(self.level, self.trump).eff[kind] if self.trump >= 0 else -1


def played_counts(state: Any) -> list[list[int]]:
    """Per seat, the counts of the cards it has played (finished tricks and the current one)."""
    played = [[0] * NKINDS for _ in range(4)]
    for leader, plays, _w in state.tricks:
        for i, cards in enumerate(plays):
            row = played[(leader + i) & 3]
            for k in cards:
                row[k] += 1
    for i, cards in enumerate(state.trick):
        row = played[(state.leader + i) & 3]
        for k in cards:
            row[k] += 1
    return played


def _shown(state: Any, played: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    out = []
    for seat in range(4):
        known = [0] * NKINDS
        for s, action in state.bids:
            if s == seat and action[0] == -2:
                cards = action[1:]
                for k in set(cards):
                    known[k] = max(known[k], cards.count(k))
        if seat == state.dealer:
            for k in set(state.revealed):
                known[k] = max(known[k], state.revealed.count(k))
        cards: list[int] = []
        for k in range(NKINDS):
            left = known[k] - played[seat][k]
            cards.extend((k,) * max(0, left))
        out.append(tuple(cards))
    return tuple(out)


def observe(state: Any, seat: int) -> TractorObservation:
    """The observation of `seat` (0..3) of `state` (a `TractorState`)."""
    if not 0 <= seat < 4:
        raise ValueError(f"no seat {seat}")
    played = played_counts(state)
    buried = state.ph >= 2
    own_kitty = state.kitty if (buried and seat == state.dealer) else ()
    unseen = [2] * NKINDS
    for k, c in enumerate(state.hands[seat]):
        unseen[k] -= c
    for row in played:
        for k, c in enumerate(row):
            unseen[k] -= c
    for k in own_kitty:
        unseen[k] -= 1
    hidden = [(f"hand{s}", sum(state.hands[s])) for s in range(4) if s != seat]
    if state.ph == 0 or (buried and seat != state.dealer):
        hidden.append(("kitty", len(state.kitty)))
    return TractorObservation(
        seat=seat,
        to_act=state.to_act,
        phase=state.phase,
        levels=state.levels,
        level=state.level,
        dealer=state.dealer,
        dealt_dealer=-1 if state.deal[2] is None else state.deal[2],
        bid_start=state.bid_start,
        hand=tuple(state.hands[seat]),
        bids=state.bids,
        decl_seat=state.decl_seat,
        decl_strength=state.decl_strength,
        decl_suit=state.decl_suit,
        first_decl=state.first_decl,
        passes=state.passes,
        revealed=state.revealed,
        trump=state.trump,
        kitty=own_kitty,
        picked_up=state.kitty if (state.ph == 1 and seat == state.dealer) else (),
        tricks=state.tricks,
        trick=state.trick,
        leader=state.leader,
        lead_suit=state.lead_suit,
        win_seat=state.win_seat,
        win_key=state.win_key,
        points=state.points,
        bonus=state.bonus,
        voids=(state.voids[0], state.voids[1], state.voids[2], state.voids[3]),
        nopairs=(state.nopairs[0], state.nopairs[1], state.nopairs[2], state.nopairs[3]),
        shown=_shown(state, played),
        unseen=tuple(unseen),
        hidden=tuple(hidden),
    )


def hidden_of(state: Any, seat: int) -> dict[str, list[int]]:
    """The true contents of every hidden location of `seat`'s observation (tests, debugging)."""
    out: dict[str, list[int]] = {}
    for name, _size in observe(state, seat).hidden:
        if name == "kitty":
            out[name] = list(state.kitty)
        else:
            hand = state.hands[int(name[4:])]
            out[name] = [k for k in range(NKINDS) for _ in range(hand[k])]
    return out
