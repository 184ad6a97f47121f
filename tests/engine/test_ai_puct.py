"""PUCT selection with the heuristic's prior in the information-set tree search (issue 32 step 2:
engine/ai/ismcts_tree.py `_select_puct`, engine/ai/ismcts_games.py `prior`).

Acceptance: on a small game whose best move is known, PUCT finds it whether the prior points at it
or away from it (the visits correct a wrong prior), and with the prior on it decides with fewer
iterations; the prior is the heuristic's move from the acting seat's observation only (two worlds
alike to that seat: the same prior); a seed gives the same decision for 1 and 2 worker
processes; two states with one observation get the same decision; the `puct` and `puct-deep`
kinds are the tree bot with a prior (`puct-deep`: below the root only) and no level uses them. Budgets are tiny; no test times anything.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Sequence
from typing import Any

import pytest

from engine.ai import bots
from engine.ai.ismcts import IsmctsBot, TreeBudget
from engine.ai.ismcts_games import make_tree_game
from engine.ai.ismcts_tree import grow
from engine.ai.pool import SearchPool
from tests.engine.midgame import positions, twins

GAMES = ["meri", "tractor", "chan"]
TINY = TreeBudget(iterations=48, prior=0.5)
SPLIT = TreeBudget(iterations=72, trees=3, prior=0.5)


# -- a small game whose best move is known ---------------------------------------------------------
class _Pick:
    """Two seats, one move each: seat 0 picks a number 0..4, then seat 1 picks 0..1; seat 0's
    value is `PAYOFF[a0]` plus a small noise (the world), seat 1's its negative (zero sum)."""

    PAYOFF = (0.0, 0.2, 1.0, 0.1, 0.3)  # move 2 is best for seat 0

    def __init__(self, noise: float) -> None:
        self.moves: list[int] = []
        self.noise = noise

    @property
    def to_act(self) -> int:
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return len(self.moves) == 2

    def clone(self) -> _Pick:
        other = _Pick(self.noise)
        other.moves = list(self.moves)
        return other


@dataclasses.dataclass
class _Obs:
    seat: int = 0


class _PickTree:
    """The `TreeGame` of `_Pick`: a fresh noise per world, every move public, the prior `hint`."""

    players = 2

    def __init__(self, hint: int | None) -> None:
        self.hint = hint
        self.asked: list[int] = []

    def sample(self, observation: Any, rng: random.Random) -> _Pick:
        return _Pick(rng.uniform(-0.5, 0.5))

    def moves(self, state: _Pick) -> Sequence[int]:
        return [0, 1] if state.to_act else [0, 1, 2, 3, 4]

    def play(self, state: _Pick, action: int) -> tuple[Any, Any]:
        state.moves.append(action)
        return action, None

    def frontier(self, state: _Pick, others: bool) -> bool:
        return False

    def rollout(self, state: _Pick, rng: random.Random, others: bool) -> None:
        state.moves.append(rng.randrange(2))

    def values(self, state: _Pick) -> Sequence[float]:
        v = _Pick.PAYOFF[state.moves[0]] + state.noise
        return (v, -v)

    def prior(self, state: _Pick, moves: Sequence[int], rng: random.Random) -> int | None:
        self.asked.append(state.to_act)
        return 0 if state.to_act else None

    def root_prior(self, observation: Any, cands: Sequence[int]) -> int:
        return cands[0]  # the root's prior: its first candidate (as every game's without a policy)


def _grow_pick(first: int, iterations: int, prior: float) -> tuple[int, int]:
    """(most visited root move, iterations run) of PUCT on `_Pick` with root order `first`
    first (the root's prior move)."""
    game = _PickTree(None)
    cands = [first] + [a for a in range(5) if a != first]
    stats, done, _, _ = grow(game, _Obs(), cands, random.Random(3), iterations, prior=prior)
    best = max(range(5), key=lambda i: stats[i][0])
    return cands[best], done


def test_puct_finds_the_known_best_move_with_a_right_or_a_wrong_prior():
    assert _grow_pick(2, 400, 0.5)[0] == 2
    assert _grow_pick(0, 400, 0.5)[0] == 2  # the prior on a poor move: the visits overrule it
    assert _grow_pick(4, 400, 0.8)[0] == 2


def test_a_right_prior_settles_the_decision_sooner():
    right = _grow_pick(2, 400, 0.5)[1]
    wrong = _grow_pick(0, 400, 0.5)[1]
    assert right < wrong


def test_the_prior_is_asked_once_per_node_and_only_below_the_root():
    game = _PickTree(None)
    stats, _, _, _ = grow(game, _Obs(), [0, 1, 2, 3, 4], random.Random(1), 60, prior=0.5,
                          stop_early=False)
    assert set(game.asked) == {1}
    # one node of seat 1's tree per public move of seat 0 walked through (visited again)
    assert len(game.asked) == sum(1 for n, _, _ in stats if n >= 2) >= 2


def test_below_the_root_only_the_root_tries_every_move_and_finds_the_best():
    """`prior_root` False (`puct-deep`): the root by UCB (every move tried), seat 1's nodes by
    PUCT with their prior."""
    game = _PickTree(None)
    stats, _, _, _ = grow(game, _Obs(), [0, 1, 2, 3, 4], random.Random(1), 200, prior=0.5,
                          prior_root=False)
    assert all(n > 0 for n, _, _ in stats)
    assert max(range(5), key=lambda i: stats[i][0]) == 2
    assert set(game.asked) == {1}


def test_without_a_prior_the_tree_search_is_unchanged():
    """`prior` 0 (the `ismcts` kind): every move tried once, then UCB, the prior never asked."""
    game = _PickTree(None)
    stats, done, _, _ = grow(game, _Obs(), [0, 1, 2, 3, 4], random.Random(1), 200)
    assert not game.asked
    assert all(n > 0 for n, _, _ in stats)
    assert max(range(5), key=lambda i: stats[i][0]) == 2


# -- the prior: the heuristic's move, from the acting seat's observation only ----------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_the_prior_is_the_heuristics_move_from_the_seats_observation(game_name):
    """At positions of every phase the prior is the heuristic bot's choice (when it is one of the
    tree's moves); a world drawn from the acting seat's observation (other hidden cards, the
    same observation) gives the same prior."""
    tree = make_tree_game(game_name, 1)
    heuristic = bots.make_bot(game_name, "heuristic", 1)
    rng = random.Random(5)
    checked = 0
    for state in positions(game_name, 12, 31):
        seat = state.to_act
        obs = state.observation(seat)
        tree.prepare(obs)
        moves = tree.moves(state)
        hint = tree.prior(state, moves, random.Random(1))
        expected = heuristic.choose(obs, state.legal_actions())
        assert hint == (expected if expected in moves else None)
        try:
            other = tree.sample(obs, rng)
        except ValueError:  # rare: skip
            continue
        assert other.observation(seat) == obs
        assert tree.prior(other, tree.moves(other), random.Random(1)) == hint
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("game_name", GAMES)
def test_no_peeking_same_observation_same_decision(game_name):
    """Two states with one observation but different hidden cards get the same PUCT decision
    and the same root values (the priors below the root come from sampled worlds only)."""
    tree = make_tree_game(game_name, 2)
    checked = 0
    for state, seat, obs, other in twins(positions(game_name, 6, 8), tree.sample, 3):
        one = IsmctsBot(make_tree_game(game_name, 9), 9, TINY, clock=time.process_time)
        two = IsmctsBot(make_tree_game(game_name, 9), 9, TINY, clock=time.process_time)
        assert one.choose(obs, state.legal_actions()) == two.choose(
            other.observation(seat), other.legal_actions())
        assert one.last_weighing == two.last_weighing
        checked += 1
    assert checked >= 4


# -- determinism ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pool2():
    with SearchPool(2) as pool:
        yield pool


def _choice_positions(game_name: str, count: int, seed: int) -> list:
    game = make_tree_game(game_name, 1)
    return positions(game_name, count, seed, lambda state: len(game.root_moves(
        state.observation(state.to_act), state.legal_actions(), random.Random(1))) > 1)


@pytest.mark.parametrize("budget", [SPLIT, dataclasses.replace(SPLIT, prior_root=False)],
                         ids=["puct", "puct-deep"])
@pytest.mark.parametrize("game_name", GAMES)
def test_identical_for_one_and_two_worker_processes(game_name, budget, pool2):
    """The heuristic prior draws its tie-breaks from each tree's own random numbers: the same
    decisions, work and weighing with 1 and 2 searching processes, and with the same seed twice."""
    states = _choice_positions(game_name, 4, 5)

    def run(pool):
        # The safety net on CPU time: on a loaded machine a starved worker's wall clock could
        # cut a tree (`cut=True`: other statistics), which is not what this test is about.
        bot = IsmctsBot(make_tree_game(game_name, 4), 4, budget, clock=time.process_time,
                        pool=pool, factory=functools.partial(make_tree_game, game_name, 4))
        out = []
        for state in states:
            action = bot.choose(state.observation(state.to_act), state.legal_actions())
            out.append((action, bot.last_playouts, bot.last_worlds, bot.last_weighing))
        return out

    alone = run(None)
    assert run(None) == alone
    assert run(pool2) == alone
    assert all(playouts > 0 and not w.cut for _, playouts, _, w in alone)


# -- the kind -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_the_puct_kinds_have_a_prior_and_no_level_uses_it(game_name):
    bot = bots.make_bot(game_name, "puct", 1)
    assert isinstance(bot, IsmctsBot) and bot.budget == bots.PUCT_BUDGETS[game_name]
    assert bot.budget.prior > 0 and bots.TREE_BUDGETS[game_name].prior == 0
    deep = bots.make_bot(game_name, "puct-deep", 1)
    assert deep.budget == dataclasses.replace(bot.budget, prior_root=False)
    sized = bots.make_bot(game_name, "puct:37", 1)
    assert sized.budget == dataclasses.replace(bots.PUCT_BUDGETS[game_name], iterations=37)
    for level in bots.LEVELS:
        bot = bots.make_bot(game_name, level, 1)
        assert not isinstance(bot, IsmctsBot) or bot.budget.prior == 0


@pytest.mark.parametrize("game_name", GAMES)
def test_a_whole_deal_with_every_seat_searching_by_puct(game_name):
    from engine import registry
    game = registry.get(game_name)
    state = game.new_deal(6)
    players = [IsmctsBot(make_tree_game(game_name, s), s, TreeBudget(iterations=12, prior=0.5))
               for s in range(game.players)]
    while not state.is_over:
        seat = state.to_act
        action = players[seat].choose(state.observation(seat), state.legal_actions())
        state.clone().apply(action)
        state.apply(action)
    assert game.deal_result(state) is not None
