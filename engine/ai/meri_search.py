"""Hachinin Meri search adapter: sampler, candidates, playout policy and value for `SearchBot`.

Sampler: the observation lists the pool of unseen cards, the size of every hidden location
(`hand3`, `undealt`, `discard`, `down5` = a face-down trump) and, per location, the cards public
play rules out (voids shown by Monchi breaks, no trump after failing a Meri except a kept Sun,
face-down cards are trumps, the Okie is with its receiver). `deal_hidden` places the pool under
those constraints (exact fallback, never a dead end) and `Game.determinize` replays the public
history on that deal; a deal the replay rejects is redrawn.

Candidates: every legal action (at most ten cards; declare/pass; the discard), the heuristic
bot's choice first — the declaration and the discard get the same Monte Carlo check as a play,
and the search leaves the heuristic's choice only for a clearly better one. Value: the seat's team score minus the
other team's. Playouts: a cheap greedy-random policy on the state's own ints (`_policy_playout`).
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai.meri_heuristic import MeriHeuristicBot
from engine.ai.sampler import deal_hidden
from engine.ai.search import BaseAdapter
from engine.meri.cards import POWER, cards_of, robai
from engine.meri.state import OVER_PHASE, PLAY_PHASE, MeriState, nth_bit

SAMPLE_TRIES = 20


class MeriAdapter(BaseAdapter):
    """The Meri plug-in of the shared determinized Monte Carlo search."""

    def __init__(self, game: Any, seed: int) -> None:
        super().__init__(game, seed)
        self.heuristic = MeriHeuristicBot(seed)

    def candidates(self, observation: Any, legal: Any, rng: random.Random) -> list:
        """Every legal action, the heuristic bot's choice first (the search's default)."""
        if len(legal) == 1:
            return [legal[0]]
        first = self.heuristic.choose(observation, legal)
        return [first] + [a for a in legal if a != first]

    def sample(self, observation: Any, rng: random.Random) -> MeriState:
        pool = cards_of(observation.pool)
        capacity = observation.capacity()
        allowed = _allowed(observation)
        error: Exception | None = None
        for _ in range(SAMPLE_TRIES):
            hidden = deal_hidden(pool, capacity, allowed, rng)
            try:
                return self.game.determinize(observation, hidden)
            except ValueError as exc:  # the replay found a rule the deal breaks: draw again
                error = exc
        raise ValueError(f"no consistent Meri deal found: {error}")

    def rollout(self, state: MeriState, rng: random.Random) -> None:
        _policy_playout(state, rng)

    def replay(self, observation: Any, world: MeriState):
        """The world's deal from the start: answers, discard, tricks (for the hard level)."""
        moves: list[tuple[int, int]] = []
        seat = (world.dealer + 1) & 7
        for answer in observation.answers:
            moves.append((seat, answer))
            seat = (seat + 1) & 7
        if world.discard >= 0 and world.receiver >= 0:
            moves.append((world.receiver, world.discard))
        for leader, cards, _w, _m, _t in world.tricks[:8]:
            moves.extend(((leader + k) & 7, cards[(leader + k) & 7]) for k in range(8))
        if world.n_played:
            moves.extend(((world.leader + k) & 7, world.trick[(world.leader + k) & 7])
                         for k in range(world.n_played))
        return _steps(MeriState(world.dealer, list(world.initial), world.undealt), moves)

    def value(self, state: MeriState, seat: int) -> float:
        team = seat & 1
        return float(state.team_scores[team] - state.team_scores[team ^ 1])


def _steps(state: MeriState, moves: list[tuple[int, int]]):
    for i, (seat, action) in enumerate(moves):
        yield state, seat, action, len(moves) - 1 - i
        state.apply(action)


def _allowed(obs: Any):
    """`obs.allowed`, plus what it leaves out for a face-down card (`downS`): it was in seat S's
    hand all along, so whatever S's hand is known not to hold it is not either (a seat that failed
    a Meri holding only its excepted Sun can only have played that Sun face down, H-26); and the
    Okie can only be the receiver's, a declared native Robai only the declarer's (H-13, H-12)."""
    okie = obs.okie if obs.receiver >= 0 else -1
    native = robai(obs.trump) if obs.declarer >= 0 else -1
    forbidden = dict(obs.forbidden)

    def allowed(card: int) -> list[str]:
        out = []
        for loc in obs.allowed(card):
            if loc.startswith("down"):
                s = int(loc[4:])
                if forbidden.get(f"hand{s}", 0) >> card & 1:
                    continue
                if (card == okie and s != obs.receiver) or (card == native and s != obs.declarer):
                    continue
            out.append(loc)
        return out

    return allowed


def _policy_playout(state: MeriState, rng: random.Random) -> None:
    """Play to the end: declarations at random; in play, a seat whose partner is not already
    winning tries to win the trick with its cheapest winning card (70%), otherwise it throws its
    weakest legal card; the rest of the time a uniformly random legal card."""
    while state._phase != OVER_PHASE:
        if state._phase != PLAY_PHASE or rng.random() < 0.3:
            state.apply(state.random_action(rng))
            continue
        mask = state.legal_mask()
        if mask & (mask - 1) == 0:
            state.apply(mask.bit_length() - 1)
            continue
        seat = state._to_act
        n = state.n_played
        power = POWER[state.trump][state.led] if n else None
        if n == 0:
            state.apply(nth_bit(mask, int(rng.random() * mask.bit_count())))
            continue
        partner_winning = (state.best_seat ^ seat) & 1 == 0
        best = state.best_power
        win_card, win_power, low_card, low_power = -1, 1 << 30, -1, 1 << 30
        m = mask
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            p = power[c]
            if p > best and p < win_power:
                win_card, win_power = c, p
            if p < low_power:
                low_card, low_power = c, p
        if win_card >= 0 and not partner_winning:
            state.apply(win_card)
        else:
            state.apply(low_card)


def make_adapter(game: Any, seed: int) -> MeriAdapter:
    return MeriAdapter(game, seed)
