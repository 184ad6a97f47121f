"""Information-set Monte Carlo tree search: a bot that reasons over what it cannot see.

The determinized search (`engine.ai.search`) values each candidate by playouts of a fixed policy
in sampled worlds: one ply of choice, then the same rules for everyone. This search grows trees
instead (`engine.ai.ismcts_tree`), so the searcher's later decisions and the other seats' replies
are chosen by search too, each from what that seat can observe.

Variant: MO-ISMCTS (multiple-observer), not SO-ISMCTS. A single tree over the searcher's
information sets would key every seat's choices by the searcher's view: an opponent choosing
after the searcher's face-down Meri trump, discard or Tractor burial would choose knowing which
card it was. With one tree per seat, keyed by what that seat observes, a hidden move is one
branch for everyone else and a declined Chắn offer none. What remains (as in the paper): the
worlds are drawn from the searcher's information set, so in every world the searcher holds its
real hand, and an opponent's tree merges the worlds of that opponent's different sampled hands
(its choices differ between them only through the moves available to it).

Work and determinism: a decision runs `TreeBudget.iterations` iterations (fewer where the game's
playouts from it cost more, `TreeGame.cost`: the budget is work, as the determinized search's
is), split over a fixed number of independent trees (`TreeBudget.trees`, root parallelism) whose
root statistics are summed in tree order; tree t draws every random number from
`world_rng(decision seed, t)` and its share of the iterations is fixed by t and the decision
alone. So the trees may be grown anywhere — here, or by the worker processes of an
`engine.ai.pool.SearchPool` (a tree is one of the decision's parts, `engine.ai.parts`) — and the
choice is exactly the same for any number of workers. The move played is the most visited
(ties: the higher mean, then the root order, whose first is the heuristic's choice). A
wall-clock safety net (`engine.ai.search.SAFETY_SECONDS`) cuts a decision that would overrun it
on a far slower machine, logged as the determinized search's is.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.ismcts_games import TreeGame
from engine.ai.ismcts_tree import RootStats, grow
from engine.ai.parts import PartSource
from engine.ai.search import (
    SAFETY,
    SAFETY_SECONDS,
    LastDecision,
    Weighed,
    Weighing,
    world_rng,
)
from engine.game import Action


@dataclass(frozen=True)
class TreeBudget:
    """How much a decision searches: `iterations` in all, over `trees` independent trees (the
    most processes that can share a decision), a world drawn every `per_world` iterations of a
    tree (drawing a Chắn world costs several playouts), UCB's exploration constant `explore` (in
    standard deviations of the searcher's values: 3 against 0.7, paired on 24 duplicate deals
    (Chắn 40) against the heuristic, Tractor +0.35 levels [+0.17, +0.54]; Meri +0.96 points
    [−0.22, +2.14] and Chắn +5.0 win points [−1.6, +11.6] lean the same way; 1.5 and 5 fell
    between),
    the override `margin` of `pick` (off: 1 measured no better in Tractor), the wall-clock
    safety net `seconds`, and `prior`: > 0 selects by PUCT with that weight on the heuristic's
    move (`engine.ai.ismcts_tree`; `explore` is then PUCT's constant), 0 by UCB; without
    `prior_root` the root alone by UCB."""

    iterations: int
    trees: int = 1
    per_world: int = 1
    explore: float = 3.0
    stop_early: bool = True
    margin: float = 0.0  # > 0: keep the heuristic's move unless another is this many SEs better
    seconds: float = SAFETY_SECONDS
    prior: float = 0.0
    prior_root: bool = True

    def planned(self, cost: float = 1.0) -> int:
        """The iterations of a decision whose playouts cost `cost` times the game's usual one
        (the work stays the same: Tractor's full-deal playouts buy a third of the iterations)."""
        return max(self.trees, int(self.iterations / max(cost, 1e-9)))

    def share(self, tree: int, cost: float = 1.0) -> int:
        """The iterations of tree `tree`: an equal split, the first trees taking the rest."""
        base, rest = divmod(self.planned(cost), self.trees)
        return base + (tree < rest)


#: One tree's outcome: its root statistics, iterations run, worlds drawn, cut by the safety net.
TreeResult = tuple[RootStats, int, int, bool]


@dataclass
class TreeJob:
    """One decision's trees, picklable for worker processes (`engine.ai.pool.SearchPool` calls
    `evaluate(game, index)` for tree `index`, `factory()` building the game's `TreeGame` there;
    None: this process only). A worker's safety net runs on `clock` from its first tree."""

    factory: Callable[[], TreeGame] | None
    observation: Any
    candidates: tuple
    seed: int
    budget: TreeBudget
    cost: float = 1.0  # the game's playout price from this decision (`TreeBudget.planned`)
    clock: Callable[[], float] | None = None
    deadline: float | None = field(default=None, compare=False)

    def evaluate(self, game: TreeGame, index: int) -> TreeResult:
        clock = self.clock
        if clock is not None and self.deadline is None:
            self.deadline = clock() + self.budget.seconds
        budget = self.budget
        return grow(game, self.observation, self.candidates, world_rng(self.seed, index),
                    budget.share(index, self.cost), budget.per_world, budget.explore, clock,
                    self.deadline or 0.0, budget.stop_early, budget.prior, budget.prior_root)


class IsmctsBot(LastDecision):
    """The tree search behind the common `choose(observation, legal_actions)` interface.

    `clock` only measures the safety net. With a `pool` of size > 1 and a `factory` (how a worker
    builds the same `TreeGame`), the trees are grown across the pool's processes: the same
    decisions. After each decision `last_worlds` (worlds drawn), `last_playouts` (iterations),
    `last_cut` and `last_weighing` (the root moves' mean values for people: Why?, benches) say
    what it did."""

    name = "ismcts"

    def __init__(self, game: TreeGame, seed: int, budget: TreeBudget,
                 clock: Callable[[], float] = time.perf_counter,
                 pool: PartSource | None = None,
                 factory: Callable[[], TreeGame] | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.budget = budget
        self.clock = clock
        self.pool = pool
        self.factory = factory
        self.forget_last()

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        cands = self.game.root_moves(observation, legal_actions, self.rng)
        self.forget_last()
        if len(cands) == 1:
            return cands[0]
        return self._weigh(observation, cands).chosen

    def weigh(self, observation: Any, legal_actions: Sequence[Action],
              include: Sequence[Action] = ()) -> Weighing:
        """Weigh a decision as `choose` would, with `include` (e.g. the action a person played)
        added to the root's moves if the game pruned them away (the coach's interface, as
        `engine.ai.search.SearchBot.weigh`). Draws from this bot's random numbers like `choose`."""
        cands = list(self.game.root_moves(observation, legal_actions, self.rng))
        cands += [action for action in dict.fromkeys(include) if action not in cands]
        self.forget_last()
        if len(cands) == 1:
            self.last_weighing = Weighing((Weighed(cands[0], 0.0, 0.0),), cands[0], 0, 0, False)
            return self.last_weighing
        return self._weigh(observation, cands)

    def _weigh(self, observation: Any, cands: Sequence[Action]) -> Weighing:
        stats = self._search(observation, tuple(cands))
        chosen = pick(stats, self.budget.margin)
        self.last_weighing = weighing(cands, stats, chosen, self.last_worlds,
                                      self.last_playouts, self.last_cut)
        return self.last_weighing

    def _search(self, observation: Any, cands: tuple) -> list[tuple[int, float, float]]:
        """Grow the budget's trees (here or across the pool) and sum their root statistics."""
        budget = self.budget
        pool = self.pool
        parallel = pool is not None and pool.size > 1 and self.factory is not None
        self.game.prepare(observation)
        cost = self.game.cost(observation)
        job = TreeJob(self.factory if parallel else None, observation, cands,
                      self.rng.getrandbits(64), budget, cost,
                      self.clock if parallel else None)
        deadline = self.clock() + budget.seconds
        clock = self.clock

        def local(index: int) -> TreeResult:
            return grow(self.game, observation, cands, world_rng(job.seed, index),
                        budget.share(index, cost), budget.per_world, budget.explore, clock,
                        deadline, budget.stop_early, budget.prior, budget.prior_root)

        source: Iterable[TreeResult]
        if parallel:
            assert pool is not None
            source = pool.parts(job, budget.trees, local)
        else:
            source = map(local, range(budget.trees))
        total = [(0, 0.0, 0.0)] * len(cands)
        iterations = worlds = 0
        cut = False
        for stats, done, drawn, was_cut in source:
            total = [(n + m, w + v, w2 + v2) for (n, w, w2), (m, v, v2) in zip(total, stats,
                                                                              strict=True)]
            iterations += done
            worlds += drawn
            cut = cut or was_cut
        if cut:
            SAFETY.hit(budget.seconds, iterations, budget.planned(cost))
        self.last_worlds, self.last_playouts, self.last_cut = worlds, iterations, cut
        return total


def pick(stats: Sequence[tuple[int, float, float]], margin: float = 0.0) -> int:
    """The root move to play: the most visited (ties by the higher mean, then the first) — but
    with a `margin`, only instead of the first root move (the heuristic's choice) when its mean
    is ahead by `margin` standard errors of the difference (unpaired), as the determinized
    search overrides its first candidate."""
    best, key = 0, (-1, 0.0)
    for i, (n, w, _w2) in enumerate(stats):
        k = (n, w / n if n else 0.0)
        if k > key:
            best, key = i, k
    if best == 0 or margin <= 0.0:
        return best
    (n0, w0, q0), (n1, w1, q1) = stats[0], stats[best]
    if n0 < 2 or n1 < 2:
        return best
    m0, m1 = w0 / n0, w1 / n1
    var = max(0.0, q0 / n0 - m0 * m0) / n0 + max(0.0, q1 / n1 - m1 * m1) / n1
    return best if m1 - m0 > margin * var ** 0.5 else 0


def weighing(cands: Sequence[Action], stats: Sequence[tuple[int, float, float]], chosen: int,
             worlds: int, iterations: int, cut: bool) -> Weighing:
    """The root statistics as a `Weighing` (Why?, the coach): each move's mean value for the
    searcher over its visits and the standard error of its difference from the chosen move's
    (unpaired: the visits are different iterations), best first."""
    def mean_se(n: int, w: float, w2: float) -> tuple[float, float]:
        if n == 0:
            return 0.0, float("inf")
        mean = w / n
        var = max(0.0, w2 / n - mean * mean)
        return mean, (var / n) ** 0.5 if n > 1 else float("inf")

    _, se_chosen = mean_se(*stats[chosen])
    rows = []
    for i, (action, row) in enumerate(zip(cands, stats, strict=True)):
        mean, se = mean_se(*row)
        spread = 0.0 if i == chosen else (se * se + se_chosen * se_chosen) ** 0.5
        rows.append(Weighed(action, mean, spread))
    rows.sort(key=lambda r: -r.value)
    return Weighing(tuple(rows), cands[chosen], worlds, iterations, cut)
