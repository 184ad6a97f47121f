"""What one seat may know (`TractorObservation`) and rebuilding a full state from it (determinize).

The observation holds the seat's own hand and everything public: the bidding, the kitty turned up
after four passes (T-10), every trick, the trick in progress, the attackers' points, and the public
constraints a sampler must respect: suits each seat has shown void in (`voids`), suits in which a
seat showed it holds no more pairs by following a pair/tractor without one (`nopairs`, T-20), and
cards each seat is known to hold (`shown`: declared cards not yet played; for the dealer also the
turned-up kitty, which may since have been buried). The dealer also sees the kitty it buried.
It never holds another seat's hand or the kitty's identity.
`hidden` names every hidden location and its size; `unseen` is exactly the multiset of cards in them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import MalformedRecord
from engine.tractor.cards import NKINDS, context

if TYPE_CHECKING:
    from engine.tractor.state import TractorState

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


def _played_counts(state: TractorState) -> list[list[int]]:
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


def _shown(state: TractorState, played: list[list[int]]) -> tuple[tuple[int, ...], ...]:
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


def observe(state: TractorState, seat: int) -> TractorObservation:
    """The observation of `seat` (0..3)."""
    if not 0 <= seat < 4:
        raise ValueError(f"no seat {seat}")
    played = _played_counts(state)
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


def _counts(cards: Sequence[int], where: str, size: int) -> list[int]:
    if len(cards) != size:
        raise MalformedRecord(f"{where} needs {size} cards, got {len(cards)}")
    out = [0] * NKINDS
    for k in cards:
        out[k] += 1
    return out


def determinize(obs: TractorObservation, hidden: Mapping[str, Sequence[int]]) -> TractorState:
    """A full state with `obs`'s public history and own hand, and `hidden` cards where it says.

    `hidden` maps each location of `obs.hidden` to its cards (kinds); their union must be
    `obs.unseen`. The rebuilt state's `layout_of` is one plausible deal (see `_plausible_deal`).
    """
    from engine.tractor.state import TractorState

    sizes = dict(obs.hidden)
    if set(hidden) != set(sizes):
        raise MalformedRecord(f"hidden locations must be {sorted(sizes)}")
    pool = [0] * NKINDS
    for cards in hidden.values():
        for k in cards:
            pool[k] += 1
    if tuple(pool) != obs.unseen:
        raise MalformedRecord("hidden cards must be exactly the unseen cards")
    state = TractorState.__new__(TractorState)
    hands = []
    for s in range(4):
        if s == obs.seat:
            hands.append(list(obs.hand))
        else:
            hands.append(_counts(hidden[f"hand{s}"], f"hand{s}", sizes[f"hand{s}"]))
    state.hands = hands
    state.levels = obs.levels
    state.level = obs.level
    state.dealer = obs.dealer
    state.bid_start = obs.bid_start
    if "kitty" in sizes:
        state.kitty = tuple(sorted(hidden["kitty"])) if obs.trump >= 0 else tuple(hidden["kitty"])
    elif obs.kitty:
        state.kitty = obs.kitty
    else:  # bury phase: the kitty is inside the dealer's hand
        state.kitty = obs.revealed
    state.ph = ("declare", "bury", "play", "over").index(obs.phase)
    state.actor = obs.to_act if obs.to_act is not None else obs.leader
    state.decl_seat = obs.decl_seat
    state.decl_strength = obs.decl_strength
    state.decl_suit = obs.decl_suit
    state.first_decl = obs.first_decl
    state.passes = obs.passes
    state.bids = obs.bids
    state.revealed = obs.revealed
    state.trump = obs.trump
    state.ctx = context(obs.level, obs.trump) if obs.trump >= 0 else None
    state.trick = obs.trick
    state.leader = obs.leader
    state.lead_suit = obs.lead_suit
    state.win_seat = obs.win_seat
    state.win_key = obs.win_key
    state.tricks = obs.tricks
    state.points = obs.points
    state.bonus = obs.bonus
    state.voids = list(obs.voids)
    state.nopairs = list(obs.nopairs)
    state.deal = _plausible_deal(state, None if obs.dealt_dealer < 0 else obs.dealt_dealer)
    return state


def _plausible_deal(state: TractorState, dealt_dealer: int | None) -> tuple:
    """A deal (hands as dealt, kitty) that leads to `state`'s cards: each seat's hand plus what it
    played; the dealer's 33 cards minus a kitty (the turned-up one, else the buried one, else 8
    cards it did not declare)."""
    played = _played_counts(state)
    hands = [[h + p for h, p in zip(state.hands[s], played[s], strict=True)] for s in range(4)]
    if state.ph == 0:
        return tuple(tuple(h) for h in hands), tuple(state.kitty), dealt_dealer
    d = state.dealer
    if state.ph >= 2:
        for k in state.kitty:
            hands[d][k] += 1
    if state.revealed:
        kitty = list(state.revealed)
    elif state.ph >= 2:
        kitty = list(state.kitty)
    else:
        declared = [0] * NKINDS
        for s, action in state.bids:
            if s == d and action[0] == -2:
                for k in action[1:]:
                    declared[k] = max(declared[k], action.count(k))
        kitty = []
        for k in range(NKINDS - 1, -1, -1):
            while len(kitty) < 8 and hands[d][k] - kitty.count(k) > declared[k]:
                kitty.append(k)
    for k in kitty:
        hands[d][k] -= 1
    return tuple(tuple(h) for h in hands), tuple(kitty), dealt_dealer


def legal_from_observation(obs: TractorObservation):
    """The legal actions of `obs.seat` when it is to act, from the observation alone: the hidden
    cards are placed in any order (legality depends only on the own hand and public history)."""
    pool = [k for k in range(NKINDS) for _ in range(obs.unseen[k])]
    hidden, start = {}, 0
    for name, size in obs.hidden:
        hidden[name] = pool[start:start + size]
        start += size
    return determinize(obs, hidden).legal_actions()
