"""The trees of multiple-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

`grow` runs the iterations of one tree search from one seat's observation: every iteration draws
a world (the hidden cards dealt consistently with the observation, `TreeGame.sample`), walks it
down the trees, expands one move, plays the rest out with the game's playout policy and backs
every seat's value up. There is one tree per seat (MO-ISMCTS): seat s's tree is keyed by what s
observes — its own moves in full, the other seats' moves as s sees them (`TreeGame.play`: a
hidden move as a marker, a declined Chắn offer not at all) and the public outcomes revealed on
the way (a trick turned up, a stock card). Whoever is to act in the world picks in its own tree,
by UCB over the moves legal for it *in this world* (availability counts: a move's exploration
term counts the iterations in which it could have been played, not the node's visits). So no
seat's choice in the tree is keyed by cards it cannot see: the searcher's tree merges the worlds
it cannot tell apart, and an opponent's tree merges the searcher's hidden moves.

Selection (PUCT, when `grow` is given a `prior` weight > 0): instead of trying every move once
and then UCB, a node's moves are scored mean + `explore` × spread × P(a) × sqrt(available) /
(1 + visits), an unvisited move's mean being the node's mean so far (first-play urgency), and
the first unvisited move chosen is the one expansion of the iteration. P puts weight `prior` on
the move the game's heuristic bot would play at the node (`TreeGame.prior`: from the acting
seat's own observation of the world that first reached the node; at the root, the first
candidate, which is the heuristic's choice) and spreads the rest evenly over the other moves legal
in this world. For the searcher's nodes that observation is the same in every world (a node is
one of its information sets); an opponent's node keeps the heuristic's move for the hand it was
first dealt in a world — a prior, corrected by the visits. With `prior_root` off the root alone
keeps UCB, so the heuristic guides the replies and the later moves but not the choice itself.
With a learned policy (`engine.ai.policy`, the kind `puct-policy`), P spreads `prior` by the
policy's probabilities of the moves (from the acting seat's observation of the world that first
reached the node; at the root, from the searcher's) and the rest evenly.

Statistics: an edge of seat s's tree holds the values *for s* of the iterations through it; only
s's own moves need them (only s selects among them). UCB's exploration term is scaled by the
running standard deviation of the searcher's values, so one constant serves games whose values
differ in units (Meri points, Tractor card points, Chắn settlements).

Every random number comes from the `random.Random` handed in, so a search is a function of its
observation, candidates, seed and iteration count (unless the wall-clock safety net cuts it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import log, sqrt
from typing import Any

from engine.ai.ismcts_games import TreeGame


class Edge:
    """A move out of a node of one seat's tree: its visits, the owner's value sum (and sum of
    squares, for the root's spreads), its availability count and the nodes it leads to by public
    outcome (a node is a dict from move key to `Edge`)."""

    __slots__ = ("n", "w", "w2", "avail", "kids")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.w2 = 0.0
        self.avail = 0
        self.kids: dict[Any, dict] = {}


#: The key under which a node keeps its prior move (`TreeGame.prior`; never a move's key).
HINT = object()
#: A node's prior move before it has one (None is a real answer: no heuristic move among them).
_UNSET = object()

#: One root move's statistics: (visits, value sum, value sum of squares), for the searcher.
RootStats = tuple[tuple[int, float, float], ...]


def grow(game: TreeGame, observation: Any, cands: Sequence[Any], rng: random.Random,
         iterations: int, per_world: int = 1, explore: float = 3.0,
         clock: Callable[[], float] | None = None, deadline: float = 0.0,
         stop_early: bool = True, prior: float = 0.0,
         prior_root: bool = True) -> tuple[RootStats, int, int, bool]:
    """Run up to `iterations` iterations from `observation` (the searching seat to act, choosing
    among `cands`, which are expanded in their order first); a world is drawn every `per_world`
    iterations. Returns the root moves' statistics (in `cands`' order), the iterations run, the
    worlds drawn and whether `clock` passed `deadline` first (the safety net). With
    `stop_early`, it stops once no other move can overtake the most visited one in the
    iterations left (the choice is then the same). `prior` > 0: PUCT selection with that weight
    on the heuristic's move (module docstring); 0: every move tried once, then UCB. Without
    `prior_root` the root alone selects by UCB (the searcher's choice weighed without leaning
    on the heuristic; its replies and later moves still by PUCT)."""
    seat = observation.seat
    players = game.players
    roots: list[dict] = [{} for _ in range(players)]
    root = roots[seat]
    if prior > 0.0:
        root[HINT] = game.root_prior(observation, cands)
    puct_root = prior > 0.0 and prior_root
    hint_of = game.prior
    moves_of, play, frontier = game.moves, game.play, game.frontier
    sum_v = sum_v2 = 0.0
    done = worlds = 0
    world = None
    cut = False
    last = clock() if clock is not None else 0.0
    step = 0.0
    while done < iterations:
        if clock is not None:
            now = clock()
            step, last = now - last, now
            if done and now + step > deadline:
                cut = True
                break
        if done % per_world == 0:
            worlds += 1
            try:
                world = game.sample(observation, rng)
            except ValueError:  # no consistent world this time (rare): the iteration counts
                world = None
        done += 1
        if world is None:
            continue
        state = world.clone()
        nodes = roots[:]
        paths: list[list[Edge]] = [[] for _ in range(players)]
        others = False
        moves: Sequence[Any] = cands
        scale = explore * _spread(sum_v, sum_v2, done - 1)
        while not state.is_over and not frontier(state, others):
            p = state.to_act
            node = nodes[p]
            if node is not root:
                moves = moves_of(state)
            if prior > 0.0 and (puct_root or node is not root):
                hint = node.get(HINT, _UNSET)
                if hint is _UNSET:
                    hint = node[HINT] = hint_of(state, moves, rng)
                a, edge = _select_puct(node, moves, scale, prior, hint)
                fresh = edge.n == 0
                paths[p].append(edge)
                nodes[p] = _descend(state, p, a, edge, nodes, play, players)
                if p != seat:
                    others = True
                if fresh:
                    break
                continue
            untried = None
            for a in moves:
                e = node.get(a)
                if e is None:
                    if untried is None:
                        untried = [a]
                    else:
                        untried.append(a)
                else:
                    e.avail += 1
            if untried is not None:
                a = untried[0] if node is root else untried[rng.randrange(len(untried))]
                edge = node[a] = Edge()
                edge.avail = 1
            else:
                a, edge = _select(node, moves, scale)
            paths[p].append(edge)
            nodes[p] = _descend(state, p, a, edge, nodes, play, players)
            if p != seat:
                others = True
            if untried is not None:
                break
        if not state.is_over:
            game.rollout(state, rng, others)
        values = game.values(state)
        v = values[seat]
        sum_v += v
        sum_v2 += v * v
        for s in range(players):
            path = paths[s]
            if path:
                vs = values[s]
                vs2 = vs * vs
                for e in path:
                    e.n += 1
                    e.w += vs
                    e.w2 += vs2
        if stop_early and done & 15 == 0 and _settled(root, cands, iterations - done):
            break
    stats = []
    for a in cands:
        e = root.get(a)
        stats.append((0, 0.0, 0.0) if e is None else (e.n, e.w, e.w2))
    return tuple(stats), done, worlds, cut


def _descend(state: Any, p: int, a: Any, edge: Edge, nodes: list[dict],
             play: Callable[[Any, Any], tuple[Any, Any]], players: int) -> dict:
    """Play seat p's move `a` (its `edge`) in `state` and move every other seat's tree on by
    what it observes of it (`TreeGame.play`); returns p's node after the move."""
    public, outcome = play(state, a)
    kid = edge.kids.get(outcome)
    if kid is None:
        kid = edge.kids[outcome] = {}
    if public is not None or outcome is not None:
        key = (p, public)
        for s in range(players):
            if s != p:
                seen = nodes[s]
                e = seen.get(key)
                if e is None:
                    e = seen[key] = Edge()
                k = e.kids.get(outcome)
                if k is None:
                    k = e.kids[outcome] = {}
                nodes[s] = k
    return kid


def _select_puct(node: dict, moves: Sequence[Any], scale: float, weight: float,
                 hint: Any) -> tuple[Any, Edge]:
    """The move with the highest PUCT score among `moves` (module docstring), counting each as
    available; P is `weight` on `hint` (if it is among `moves`) and the rest shared evenly — or,
    where `hint` is a learned policy's probabilities, `weight` spread by them (renormalised over
    the moves legal here) and the rest evenly. The first on ties, so a fresh node plays its
    heuristic move first."""
    total_n = 0
    total_w = 0.0
    for a in moves:
        e = node.get(a)
        if e is None:
            e = node[a] = Edge()
        e.avail += 1
        total_n += e.n
        total_w += e.w
    k = len(moves)
    learned = hint if isinstance(hint, dict) else None
    has_hint = False
    if learned is not None:  # a policy's probabilities: `weight` on them, the rest even
        total = sum(learned.get(a, 0.0) for a in moves)
        scale_p = weight / total if total > 0.0 else 0.0
        p_other = (1.0 - weight) / k if total > 0.0 else 1.0 / k
    elif k > 1 and hint in moves:
        has_hint = True
        p_hint, p_other = weight, (1.0 - weight) / (k - 1)
    else:
        p_hint = p_other = 1.0 / k
    fpu = total_w / total_n if total_n else 0.0
    best: Any = None
    best_edge: Edge | None = None
    best_u = -1e300
    for a in moves:
        e = node[a]
        n = e.n
        if learned is not None:
            p = scale_p * learned.get(a, 0.0) + p_other
        else:
            p = p_hint if has_hint and a == hint else p_other
        u = (e.w / n if n else fpu) + scale * p * sqrt(e.avail) / (1 + n)
        if u > best_u:
            best, best_edge, best_u = a, e, u
    assert best_edge is not None
    return best, best_edge


def _spread(sum_v: float, sum_v2: float, n: int) -> float:
    """The standard deviation of the searcher's values so far (1 before there are two)."""
    if n < 2:
        return 1.0
    mean = sum_v / n
    var = sum_v2 / n - mean * mean
    return sqrt(var) if var > 1e-12 else 1e-6


def _select(node: dict, moves: Sequence[Any], scale: float) -> tuple[Any, Edge]:
    """The move with the highest UCB among `moves` (all tried), by availability counts: mean +
    `scale` × sqrt(ln(available) / visits); the first on ties."""
    best: Any = None
    best_edge: Edge | None = None
    best_u = -1e300
    for a in moves:
        e = node[a]
        n = e.n
        if n == 0:  # (not backed up yet: cannot happen within one search, kept for safety)
            return a, e
        u = e.w / n + scale * sqrt(log(e.avail) / n)
        if u > best_u:
            best, best_edge, best_u = a, e, u
    assert best_edge is not None
    return best, best_edge


def _settled(root: dict, cands: Sequence[Any], left: int) -> bool:
    """True when the most visited root move is ahead of every other by more than `left`."""
    first = second = 0
    for a in cands:
        e = root.get(a)
        n = e.n if e is not None else 0
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left
