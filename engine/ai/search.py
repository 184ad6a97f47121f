"""Determinized Monte Carlo search, shared by the three games.

For one decision the bot repeatedly samples a *world* — the hidden cards dealt consistently with
its observation (`Adapter.sample`, built on `Game.determinize`) — and evaluates every candidate
action in that same world by a fast playout (to the end of the deal, or — Chắn — for one round,
then scored by the heuristic's hand value), with the same playout random
numbers for every candidate (common random numbers: the comparison is between actions, not
between lucky and unlucky worlds); the best mean is played. How much it searches is a fixed
amount of work (`Budget`: candidate playouts, i.e. worlds × candidates, and a cap on worlds), so a
level plays the same on any machine and a seed gives the same decisions; it stops early, once
every alternative clearly trails the adapter's first candidate (the heuristic's choice), which it
keeps unless another is better by a margin — a test of the values, never of the clock. A
wall-clock cap remains only as a safety net for a machine far slower than the budget was sized
for; hitting it is logged (one line, rate-limited).

A game plugs in through an `Adapter`: the sampler, the candidate pruning, the playout policy and
the value of a finished deal for a seat. With `inference`, each world is weighted by how likely
the other seats' observed plays were in it under a simple policy model (`Adapter.weight`).

Worlds are independent: world `i` of a decision draws every random number it uses (its sample,
its weight, its playouts) from `world_rng(decision seed, i)` alone, and the statistics take the
worlds in index order. So a decision's worlds may be evaluated anywhere — in this process, or
split across worker processes (`engine.ai.pool.SearchPool`, root parallelism; a world is
one of the decision's parts, `engine.ai.parts`) — and the choice is
exactly the same for any number of workers.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import inf
from typing import Any, Protocol

from engine.ai.parts import PartSource
from engine.errors import EngineError
from engine.game import Action, State

#: The wall-clock safety net of every level, in seconds: never reached where the budgets were
#: sized (see `Budget`), it only keeps a far slower machine from stalling the table.
SAFETY_SECONDS = 1.5

#: At most one log line per this many seconds when decisions hit the safety net.
SAFETY_LOG_INTERVAL = 60.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Budget:
    """How much a decision searches: an amount of work, the same on every machine.

    The work is counted in playouts: a world costs `world_cost` (sampling it and, with
    `inference`, weighing it) plus one playout per candidate, each of the adapter's relative
    price `Adapter.cost(observation)` (1 for the game's usual playout). So a decision among `k`
    candidates samples `worlds(k, cost) = playouts / (k × cost + world_cost)` worlds, at most
    `max_worlds` and at least one — unless the early stop ends it sooner (after `min_worlds`,
    once every alternative trails candidate 0 by `stop` standard errors). Nothing here depends
    on the clock except `seconds`, a wall-clock safety net: a decision that would run past it
    stops (and says so in the log, rate-limited), which on the machines the budgets were sized
    for never happens.

    Sizing (the per-game budgets live in `engine.ai.bots.PROFILES`): a Pi 4 core runs this
    search about three times slower than a core of the 2-core x86 development machine, and the
    table pauses 0.7 s between AI plays at normal speed (`ui.table.base.BOT_DELAY`), while the
    bots think in their own process. Each level's budget, as a p95 decision time of one core
    here (`[ai] workers` = 1), is:

    - normal: 0.23 s. One Pi 4 core then takes 0.23 × 3 ≈ 0.7 s, so normal fits the pause on a
      Pi 4 even with `[ai] workers = 1`;
    - hard: 0.55 s. A Pi 4 has four cores: `[ai] workers = auto` gives the search three
      processes (one core is left to the UI), and root parallelism costs 12–23 % more CPU in
      all (measured with `bench --decisions LEVEL --workers 1,2`), so a Pi 4 takes about
      0.55 × 3 / 3 × 1.23 ≈ 0.68 s — within the pause with its three workers, not with one
      (there the 1.5 s safety net may cut a long decision: logged).

    Measured here on one core with `python -m engine bench GAME --decisions LEVEL` (seat 0
    against heuristic bots, CPU time; the machine was heavily loaded by other work, which slows
    even CPU-time rates by up to a third):

    =======  ======  ========  ==========  ========  ======  ========  ==========  ==========
    game     level   worlds/s  playouts/s  p95 here  budget  playouts  max worlds  world cost
    =======  ======  ========  ==========  ========  ======  ========  ==========  ==========
    meri     normal      1870       10530     97 ms  0.23 s       900         300         0.5
    meri     hard         920        5350    391 ms  0.55 s      2400         600         2.5
    tractor  normal      1050        4160    164 ms  0.23 s       600         300           0
    tractor  hard         425        1810    434 ms  0.55 s      1500         600           5
    chan     normal       840        4120    139 ms  0.23 s      1000         200           6
    chan     hard        1380        8040    229 ms  0.55 s      3500         300           6
    =======  ======  ========  ==========  ========  ======  ========  ==========  ==========

    (Meri and Tractor measured on 3–4 deals per row after their budgets were raised; Chắn's normal
    row from the earlier sizing, its hard row — without inference since issue 19 — on 4 deals.
    The world costs are fitted to measured decision times: sampling a world and, for Meri's and
    Tractor's hard, weighing it by inference.) Before, normal was sized to about
    half of 0.23 s and hard to 0.23 s; the larger normal budgets measured clearly stronger
    against the heuristic bots in Meri and Tractor (`engine.ai.bots`), not in Chắn (2500
    playouts: 26.8 % wins [24.5, 29.2] over 150 deals at seed 101), and hard must search clearly
    more than normal to be the stronger level. With K searching processes (`engine.ai.pool`)
    the same work, and so the same decision, takes about 1/K of the wall time where the cores
    are free.

    The milliseconds are this machine's on the day, and it is shared: on 2026-12-07, idle, the
    same old engine (`scripts/engine_speed_compare.py 617d565 --new HEAD`) ran its playouts
    2.1–2.8× slower than in the README's table of that commit, and each level's p95 had moved by
    that factor with its playouts/s (`bench GAME --decisions LEVEL --deals 4 --seed 1`, CPU:
    Meri 277 / 1113 ms, Tractor 438 / 1077, Chắn 150 / 537; playouts/s 3999 / 1965, 1574 / 660,
    3278 / 3298): the work of a decision, which is what a budget fixes, had not changed. Size a
    budget against the machine's speed measured beside it, not against one day's milliseconds:
    `scripts/decision_budget.py` times every level's decisions and reads each p95 at the sizing
    day's speed (that old engine's playout rate then over today's, measured before and after).
    Later that day, idle: Meri 126 / 536 ms, Tractor 172 / 436, Chắn 53 / 182 (normal / hard),
    each within its budget.
    """

    playouts: int  # the work of one decision, in playouts (worlds × (candidates + world_cost))
    max_worlds: int  # and at most this many worlds (a decision with few candidates)
    world_cost: float = 0.0  # the price of sampling (and weighing) one world, in playouts
    inference: bool = False
    margin: float = 1.0  # standard errors by which a candidate must beat the first one
    min_worlds: int = 8  # before an early stop is considered
    stop: float = 2.5  # stop early once every alternative trails candidate 0 by this many SEs
    seconds: float = SAFETY_SECONDS  # the wall-clock safety net (not the budget)

    def worlds(self, candidates: int, cost: float = 1.0) -> int:
        """The worlds a decision among `candidates`, each playout of relative `cost`, samples
        unless it stops early."""
        per_world = max(1, candidates) * cost + self.world_cost
        return max(1, min(self.max_worlds, int(self.playouts / per_world)))


class SafetyLog:
    """Logs that decisions hit the safety net: the first at once, then at most one line per
    `interval` seconds (of the monotonic clock), counting the hits in between."""

    def __init__(self, interval: float = SAFETY_LOG_INTERVAL) -> None:
        self.interval = interval
        self.last: float | None = None
        self.unlogged = 0

    def hit(self, seconds: float, worlds: int, planned: int) -> bool:
        """Record one hit; True if it was logged."""
        now = time.monotonic()
        self.unlogged += 1
        if self.last is not None and now - self.last < self.interval:
            return False
        log.warning("search stopped at its %.2f s safety net after %d of %d worlds "
                    "(decisions cut since the last such line: %d); this machine is slower "
                    "than the AI levels were sized for", seconds, worlds, planned, self.unlogged)
        self.last, self.unlogged = now, 0
        return True


SAFETY = SafetyLog()


class Adapter(Protocol):
    """What a game supplies to the search."""

    def candidates(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> list:
        """The actions worth evaluating (all of them when few), best-guess first."""

    def sample(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with `observation` (hidden cards drawn at random)."""

    def rollout(self, state: State, rng: random.Random) -> None:
        """Play `state` on with the playout policy (to the end of the deal, or a horizon)."""

    def cost(self, observation: Any) -> float:
        """The relative price of one playout from this decision (1.0 = the game's usual one),
        so that a budget buys fewer worlds where playouts run longer."""

    def value(self, state: State, seat: int) -> float:
        """The position's worth to `seat` after the rollout (higher is better)."""

    def weight(self, observation: Any, world: State, rng: random.Random) -> float:
        """How plausible `world` is given the other seats' past plays (1.0 = no opinion)."""

    def prepare(self, observation: Any) -> None:
        """Set up what evaluating this decision's worlds needs (in every process that does)."""


#: One world's outcome: None where no consistent world was found (the attempt still counts),
#: else its weight and every candidate's value in it (no values where the weight is 0).
WorldResult = tuple[float, tuple[float, ...]] | None


def world_rng(decision_seed: int, index: int) -> random.Random:
    """The random numbers of world `index` of a decision: a stream of its own, seeded from the
    decision's seed and the index alone (a string seed is hashed with SHA-512, so neighbouring
    indices give unrelated streams) — the same whichever process evaluates the world, in any
    order."""
    return random.Random(f"{decision_seed}:{index}")


@dataclass(frozen=True)
class WorldJob:
    """Everything evaluating one decision's worlds takes, picklable for worker processes:
    `factory` builds the adapter there (None: this process only)."""

    factory: Callable[[], Adapter] | None
    observation: Any
    candidates: tuple
    inference: bool
    seed: int  # the decision's seed (`world_rng`)

    def evaluate(self, adapter: Adapter, index: int) -> WorldResult:
        """World `index`: sample it, weigh it (with inference) and play every candidate out
        in it with the same playout random numbers (common random numbers)."""
        rng = world_rng(self.seed, index)
        observation = self.observation
        try:
            world = adapter.sample(observation, rng)
        except ValueError:  # no consistent world found this time (rare): count the attempt
            return None
        w = adapter.weight(observation, world, rng) if self.inference else 1.0
        if w <= 0.0:
            return (w, ())
        playout_seed = rng.getrandbits(32)
        seat = observation.seat
        values = []
        for action in self.candidates:
            state = world.clone()
            state.apply(action)
            adapter.rollout(state, random.Random(playout_seed))
            values.append(adapter.value(state, seat))
        return (w, tuple(values))


@dataclass(frozen=True)
class Weighed:
    """One candidate a decision weighed: its mean value over the sampled worlds (the adapter's
    units for the deciding seat: Meri team points ahead, Tractor `card points + 20 × levels`,
    Chắn settlement or the leaf estimate) and the standard error of its difference from the
    chosen action (0 for the chosen one; paired by world)."""

    action: Action
    value: float
    spread: float


@dataclass(frozen=True)
class Weighing:
    """What a search decision weighed, for people (Why?, the coach): the candidates best first,
    the action played, the worlds sampled (attempted) and playouts run, and whether the safety
    net cut it short. Built only from the observation and sampled worlds: never hidden cards."""

    candidates: tuple[Weighed, ...]
    chosen: Action
    worlds: int
    playouts: int
    cut: bool

    def value_of(self, action: Action) -> float | None:
        """The mean value of `action`, or None when it was not weighed."""
        for row in self.candidates:
            if row.action == action:
                return row.value
        return None


class Tally:
    """The statistics of a decision, fed world results in index order: weighted sums of each
    candidate's value minus the first candidate's (paired by world)."""

    def __init__(self, k: int) -> None:
        self.sum_w = self.sum_w2 = 0.0
        self.sum_v0 = 0.0  # weighted sum of candidate 0's own value (absolute estimates)
        self.sum_d = [0.0] * k
        self.sum_d2 = [0.0] * k
        self.worlds = 0  # worlds attempted, found or not
        self.playouts = 0

    def add(self, result: WorldResult) -> None:
        self.worlds += 1
        if result is None:
            return
        w, values = result
        if not values:
            return
        self.playouts += len(values)
        base = values[0]
        sum_d, sum_d2 = self.sum_d, self.sum_d2
        for i in range(1, len(values)):
            d = values[i] - base
            sum_d[i] += w * d
            sum_d2[i] += w * d * d
        self.sum_v0 += w * base
        self.sum_w += w
        self.sum_w2 += w * w

    def settled(self, z: float) -> bool:
        return settled(self.sum_d, self.sum_d2, self.sum_w, self.sum_w2, z)

    def pick(self, margin: float) -> int:
        return pick(self.sum_d, self.sum_d2, self.sum_w, self.sum_w2, margin)

    def weighing(self, cands: Sequence[Action], chosen: int, cut: bool) -> Weighing:
        """The statistics as a `Weighing`: each candidate's mean value and the standard error of
        its paired difference from the chosen one, best first."""
        sum_w = self.sum_w
        if sum_w <= 0.0:
            rows = [Weighed(a, 0.0, 0.0) for a in cands]
            return Weighing(tuple(rows), cands[chosen], self.worlds, self.playouts, cut)
        n_eff = sum_w * sum_w / self.sum_w2
        base = self.sum_v0 / sum_w
        ref = self.sum_d[chosen] / sum_w
        ref2 = self.sum_d2[chosen] / sum_w
        rows = []
        for i, action in enumerate(cands):
            mean = self.sum_d[i] / sum_w
            # var of (d_i - d_ref) = E[d_i^2] + E[d_ref^2] - 2 E[d_i d_ref] - (mean_i - mean_ref)^2;
            # the cross term is not kept, so bound it with the two variances (conservative).
            var_i = max(0.0, self.sum_d2[i] / sum_w - mean * mean)
            var_r = max(0.0, ref2 - ref * ref)
            if i == chosen:
                se = 0.0
            elif chosen == 0 or i == 0:
                se = ((var_i if chosen == 0 else var_r) / n_eff) ** 0.5 if n_eff > 1.0 else inf
            else:
                se = ((var_i ** 0.5 + var_r ** 0.5) ** 2 / n_eff) ** 0.5 if n_eff > 1.0 else inf
            rows.append(Weighed(action, base + mean, se))
        rows.sort(key=lambda r: -r.value)
        return Weighing(tuple(rows), cands[chosen], self.worlds, self.playouts, cut)


class LastDecision:
    """What a searching bot tells of its last decision (this search and `engine.ai.ismcts`'s):
    `last_worlds` and `last_playouts` the work it did, `last_cut` whether the safety net stopped
    it, `last_weighing` what it weighed (None with one candidate)."""

    last_worlds: int
    last_playouts: int
    last_cut: bool
    last_weighing: Weighing | None

    def forget_last(self) -> None:
        """Before a decision (and at the start): nothing weighed yet."""
        self.last_worlds = self.last_playouts = 0
        self.last_cut = False
        self.last_weighing = None


class SearchBot(LastDecision):
    """The search bot behind the common `choose(observation, legal_actions)` interface.

    `clock` only measures the safety net (`Budget.seconds`): the decisions do not depend on it.
    With a `pool` of size > 1 and an adapter `factory` (how a worker process builds the same
    adapter), the worlds are split across the pool's processes — the same decisions as without.
    After each decision, `last_worlds` and `last_playouts` are the work it did, `last_cut`
    whether the safety net stopped it (diagnostics, benches, tests) and `last_weighing` what it
    weighed (None when there was one candidate); `weigh` weighs a decision with extra candidates."""

    name = "search"

    def __init__(
        self,
        adapter: Adapter,
        seed: int,
        budget: Budget,
        clock: Callable[[], float] = time.perf_counter,
        pool: PartSource | None = None,
        factory: Callable[[], Adapter] | None = None,
        lead: Callable[[Any, Sequence[Action]], Action] | None = None,
    ) -> None:
        self.adapter = adapter
        self.rng = random.Random(seed)
        self.budget = budget
        self.clock = clock
        self.pool = pool
        self.factory = factory
        self.lead = lead
        self.forget_last()

    def _candidates(self, observation: Any, legal_actions: Sequence[Action]) -> list[Action]:
        """The adapter's candidates; with a `lead` (a learned policy's move,
        `engine.ai.policy.lead`), its move first — the one kept unless another is clearly
        better — chosen among the adapter's candidates."""
        cands = list(self.adapter.candidates(observation, legal_actions, self.rng))
        if self.lead is not None and len(cands) > 1:
            first = self.lead(observation, cands)
            if first in cands and first != cands[0]:
                cands.remove(first)
                cands.insert(0, first)
        return cands

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        cands = self._candidates(observation, legal_actions)
        self.forget_last()
        if len(cands) == 1:
            return cands[0]
        tally, chosen = self._search(observation, tuple(cands))
        self.last_weighing = tally.weighing(cands, chosen, self.last_cut)
        return cands[chosen]

    def weigh(self, observation: Any, legal_actions: Sequence[Action],
              include: Sequence[Action] = ()) -> Weighing:
        """Weigh a decision as `choose` would, with `include` (e.g. the action a person played)
        added to the candidates if the adapter pruned them away, all on the same sampled worlds
        (the coach). Draws from this bot's random numbers like `choose`: use a bot of its own."""
        cands = self._candidates(observation, legal_actions)
        for action in include:
            if action not in cands:
                cands.append(action)
        self.last_worlds = self.last_playouts = 0
        self.last_cut = False
        if len(cands) == 1:
            only = Weighing((Weighed(cands[0], 0.0, 0.0),), cands[0], 0, 0, False)
            self.last_weighing = only
            return only
        tally, chosen = self._search(observation, tuple(cands))
        self.last_weighing = tally.weighing(cands, chosen, self.last_cut)
        return self.last_weighing

    def _search(self, observation: Any, cands: tuple) -> tuple[Tally, int]:
        """Evaluate `cands` over the budget's worlds; the statistics and the index to play."""
        adapter = self.adapter
        budget = self.budget
        job = WorldJob(self.factory, observation, cands, budget.inference,
                       self.rng.getrandbits(64))
        adapter.prepare(observation)
        planned = budget.worlds(len(cands), adapter.cost(observation))
        tally = Tally(len(cands))

        def local(index: int) -> WorldResult:
            return job.evaluate(adapter, index)

        pool = self.pool
        source: Iterable[WorldResult]
        if pool is not None and pool.size > 1 and self.factory is not None:
            source = pool.parts(job, planned, local)
        else:
            source = map(local, range(planned))
        deadline = self.clock() + budget.seconds
        started = self.clock()
        try:
            for result in source:
                tally.add(result)
                if tally.worlds >= budget.min_worlds and tally.settled(budget.stop):
                    break
                now = self.clock()
                if tally.worlds < planned and now + (now - started) > deadline:  # safety net
                    self.last_cut = True
                    SAFETY.hit(budget.seconds, tally.worlds, planned)
                    break
                started = self.clock()
        finally:
            close = getattr(source, "close", None)
            if close is not None:  # a pool's iterator: tell its workers to stop
                close()
        self.last_worlds, self.last_playouts = tally.worlds, tally.playouts
        margin = max(self.budget.margin, getattr(adapter, "margin", 0.0))
        return tally, tally.pick(margin)


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
    """Defaults shared by the games: every legal action a candidate, the game's fast playout (all
    of the same cost), the headline arena metric of the seat's side as the value, and no
    inference (weight 1)."""

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

    def cost(self, observation: Any) -> float:
        return 1.0

    def prepare(self, observation: Any) -> None:
        pass

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
