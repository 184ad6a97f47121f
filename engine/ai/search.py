"""Determinized Monte Carlo search, shared by the three games.

For one decision the bot repeatedly samples a *world* — the hidden cards dealt consistently with
its observation (`Adapter.sample`, built on `Game.determinize`) — and evaluates every candidate
action in that same world by a fast playout (to the end of the deal, or — Chắn — for one round,
then scored by the heuristic's hand value), with the same playout random
numbers for every candidate (common random numbers: the comparison is between actions, not
between lucky and unlucky worlds); the best mean is played. It is anytime: it stops
at the iteration cap or before the next world would overrun the wall-clock deadline, always after
at least one world — and early, once every alternative clearly trails the adapter's first
candidate (the heuristic's choice), which it keeps unless another is better by a margin.

A game plugs in through an `Adapter`: the sampler, the candidate pruning, the playout policy and
the value of a finished deal for a seat. With `inference`, each world is weighted by how likely
the other seats' observed plays were in it under a simple policy model (`Adapter.weight`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.errors import EngineError
from engine.game import Action, State


@dataclass(frozen=True)
class Budget:
    """How long a decision may think: a wall-clock deadline and an iteration (world) cap."""

    seconds: float
    max_worlds: int
    inference: bool = False
    margin: float = 1.0  # standard errors by which a candidate must beat the first one
    min_worlds: int = 8  # before an early stop is considered
    stop: float = 2.5  # stop early once every alternative trails candidate 0 by this many SEs


NORMAL = Budget(seconds=0.055, max_worlds=400)
HARD = Budget(seconds=0.22, max_worlds=2000, inference=True)


class Adapter(Protocol):
    """What a game supplies to the search."""

    def candidates(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> list:
        """The actions worth evaluating (all of them when few), best-guess first."""

    def sample(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with `observation` (hidden cards drawn at random)."""

    def rollout(self, state: State, rng: random.Random) -> None:
        """Play `state` on with the playout policy (to the end of the deal, or a horizon)."""

    def value(self, state: State, seat: int) -> float:
        """The position's worth to `seat` after the rollout (higher is better)."""

    def weight(self, observation: Any, world: State, rng: random.Random) -> float:
        """How plausible `world` is given the other seats' past plays (1.0 = no opinion)."""


class SearchBot:
    """The search bot behind the common `choose(observation, legal_actions)` interface."""

    name = "search"

    def __init__(
        self,
        adapter: Adapter,
        seed: int,
        budget: Budget = NORMAL,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.adapter = adapter
        self.rng = random.Random(seed)
        self.budget = budget
        self.clock = clock
        self.last_worlds = 0  # worlds evaluated by the last decision (tests, diagnostics)

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        rng = self.rng
        cands = self.adapter.candidates(observation, legal_actions, rng)
        self.last_worlds = 0
        if len(cands) == 1:
            return cands[0]
        seat = observation.seat
        budget = self.budget
        deadline = self.clock() + budget.seconds
        k = len(cands)
        # Weighted sums of each candidate's value minus the first candidate's (paired by world).
        sum_w = sum_w2 = 0.0
        sum_d = [0.0] * k
        sum_d2 = [0.0] * k
        adapter = self.adapter
        worlds = 0
        values = [0.0] * k
        while worlds < budget.max_worlds:
            started = self.clock()
            try:
                world = adapter.sample(observation, rng)
            except ValueError:  # no consistent world found this time (rare): count the attempt
                world = None
            if world is not None:
                w = adapter.weight(observation, world, rng) if budget.inference else 1.0
                playout_seed = rng.getrandbits(32)
                if w > 0.0:
                    for i, action in enumerate(cands):
                        state = world.clone()
                        state.apply(action)
                        adapter.rollout(state, random.Random(playout_seed))
                        values[i] = adapter.value(state, seat)
                    base = values[0]
                    for i in range(1, k):
                        d = values[i] - base
                        sum_d[i] += w * d
                        sum_d2[i] += w * d * d
                    sum_w += w
                    sum_w2 += w * w
            worlds += 1
            now = self.clock()
            if now + (now - started) > deadline:  # the next world would overrun: stop now
                break
            if worlds >= budget.min_worlds and settled(sum_d, sum_d2, sum_w, sum_w2, budget.stop):
                break
        self.last_worlds = worlds
        margin = max(budget.margin, getattr(adapter, "margin", 0.0))
        return cands[pick(sum_d, sum_d2, sum_w, sum_w2, margin)]


def settled(sum_d: Sequence[float], sum_d2: Sequence[float], sum_w: float, sum_w2: float,
            z: float) -> bool:
    """True when every other candidate is worse than candidate 0 by more than `z` standard
    errors: more worlds would not change the choice, so the decision can stop early."""
    if sum_w <= 0.0 or z <= 0.0:
        return False
    n_eff = sum_w * sum_w / sum_w2
    if n_eff <= 1.0:
        return False
    for i in range(1, len(sum_d)):
        mean = sum_d[i] / sum_w
        var = max(0.0, sum_d2[i] / sum_w - mean * mean)
        if mean + z * (var / n_eff) ** 0.5 > 0.0:  # (equal, noiseless: as good as settled)
            return False
    return True


def pick(sum_d: Sequence[float], sum_d2: Sequence[float], sum_w: float, sum_w2: float,
         margin: float) -> int:
    """The candidate to play: the best mean, but only instead of candidate 0 (the adapter's best
    guess, usually the heuristic's choice) when its paired advantage exceeds `margin` standard
    errors — a few noisy playouts should not overturn a sound rule."""
    if sum_w <= 0.0:
        return 0
    best, best_mean = 0, 0.0
    for i in range(1, len(sum_d)):
        mean = sum_d[i] / sum_w
        if mean > best_mean:
            best, best_mean = i, mean
    if best == 0:
        return 0
    n_eff = sum_w * sum_w / sum_w2
    var = max(0.0, sum_d2[best] / sum_w - best_mean * best_mean)
    se = (var / n_eff) ** 0.5 if n_eff > 1.0 else float("inf")
    return best if best_mean > margin * se else 0


class EasyBot:
    """The easy level: the heuristic bot, playing a random legal action now and then."""

    name = "easy"

    def __init__(self, heuristic: Any, seed: int, slip: float = 0.15) -> None:
        self.heuristic = heuristic
        self.rng = random.Random(seed)
        self.slip = slip

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        if self.rng.random() < self.slip:
            sample = getattr(legal_actions, "sample", None)
            if sample is not None:
                return sample(self.rng)
            return legal_actions[self.rng.randrange(len(legal_actions))]
        return self.heuristic.choose(observation, legal_actions)


class BaseAdapter:
    """Defaults shared by the games: every legal action a candidate, the game's fast playout, the
    headline arena metric of the seat's side as the value, and no inference (weight 1)."""

    max_candidates = 12
    margin = 0.0  # a game may demand a larger override margin than the budget's

    def __init__(self, game: Any, seed: int) -> None:
        self.game = game
        self.sides = game.arena_seatings()

    def candidates(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> list:
        return list(legal)

    def sample(self, observation: Any, rng: random.Random) -> State:  # pragma: no cover
        raise NotImplementedError

    def rollout(self, state: State, rng: random.Random) -> None:
        self.game.playout(state, rng)

    def value(self, state: State, seat: int) -> float:
        side = next(s for s in self.sides if seat in s)
        metrics = self.game.arena_metrics(state, side)
        return next(iter(metrics.values()))

    # -- inference (the hard level) ---------------------------------------------------------
    inference_depth = 24  # the other seats' most recent decisions that are checked
    mismatch = 0.6  # likelihood factor of a decision the heuristic would not have taken

    def replay(self, observation: Any, world: State):
        """Yield `(state, seat, action, left)` for each public decision of `world`'s history,
        the state as it was before it (`left` decisions follow); the generator applies each
        action when resumed. None where a game offers no replay."""
        return None

    def weight(self, observation: Any, world: State, rng: random.Random) -> float:
        """Down-weight worlds in which the other seats' recent decisions look unlike what the
        heuristic policy would have done in their place (a soft likelihood, `mismatch` per
        disagreement), so the search trusts worlds that explain the play seen so far."""
        return self.mismatch ** self.mismatches(observation, world, self.inference_depth)

    def mismatches(self, observation: Any, world: State, depth: int) -> int:
        """How many of the other seats' last `depth` decisions in `world`'s history the heuristic
        would not have taken (one more if the world's past does not replay; 0 where a game
        offers no heuristic or replay)."""
        heuristic = getattr(self, "heuristic", None)
        steps = self.replay(observation, world)
        if heuristic is None or steps is None:
            return 0
        k = 0
        try:
            for state, seat, action, left in steps:
                if seat == observation.seat or left >= depth:
                    continue
                legal = state.legal_actions()
                if len(legal) > 1 and heuristic.choose(state.observation(seat), legal) != action:
                    k += 1
        except EngineError:  # the world's reconstructed past does not replay: a doubtful world
            k += 1
        return k
