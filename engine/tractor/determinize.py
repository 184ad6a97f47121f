"""Rebuilding a full Tractor state from one seat's observation (search's world builder).

`determinize(obs, hidden)` places the hidden cards where `hidden` says and copies everything public
from the observation, so `determinize(obs, hidden_of(state, seat)).observation(seat) == obs`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import MalformedRecord
from engine.tractor.cards import NKINDS, context
from engine.tractor.observation import TractorObservation, played_counts
from engine.tractor.state import NO_ACTION, PHASE_NAMES, TractorState


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
    else:  # bury phase: the kitty is inside the dealer's hand (the dealer knows which it was)
        state.kitty = obs.picked_up or obs.revealed
    state.ph = PHASE_NAMES.index(obs.phase)
    state.is_over = obs.phase == "over"
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
    state._vouch = NO_ACTION
    state._listed = ()
    return state


def _plausible_deal(state: TractorState, dealt_dealer: int | None) -> tuple:
    """A deal (hands as dealt, kitty) that leads to `state`'s cards: each seat's hand plus what it
    played; the dealer's 33 cards minus a kitty (the turned-up one, else the buried one, else 8
    cards it did not declare)."""
    played = played_counts(state)
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


def legal_from_observation(obs: TractorObservation) -> Any:
    """The legal actions of `obs.seat` when it is to act, from the observation alone: the hidden
    cards are placed in any order (legality depends only on the own hand and public history)."""
    pool = [k for k in range(NKINDS) for _ in range(obs.unseen[k])]
    hidden, start = {}, 0
    for name, size in obs.hidden:
        hidden[name] = pool[start:start + size]
        start += size
    return determinize(obs, hidden).legal_actions()
