"""Fitting a move policy (`engine.ai.policy.LinearPolicy`) to labelled positions (`imitate`).

A position is the feature rows of a decision's moves, the teacher's move, the move played and
the teacher's value of each move it weighed (None where it did not: a move its search pruned, or
a teacher without a search). The target of a position is the teacher's move — or, with `mix`
> 0, that share of it taken from the teacher's values instead: a softmax of the weighed moves'
values at `temperature` (in the game's search units: Meri points, Tractor card points + 20 ×
levels, Chắn settlement), so a move the search valued nearly as high is not counted as wrong.
The fit minimises the cross-entropy to the targets plus an L2 penalty by Newton's method from
zero (each step halved until the objective falls): pure Python, a couple of dozen weights, and
no random numbers — the same positions give the same weights.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.ai import policy
from engine.ai.tools.train import solve

#: One position: the moves' feature rows, the teacher's move and the move played (indices), and
#: the teacher's value of each move (None: not weighed).
Position = tuple[list[list[float]], int, int, list[float | None]]


def targets(position: Position, mix: float, temperature: float) -> list[float]:
    """The target distribution over the position's moves (module docstring)."""
    rows, label, _played, values = position
    out = [0.0] * len(rows)
    out[label] = 1.0 - mix if mix else 1.0
    weighed = [(i, v) for i, v in enumerate(values) if v is not None]
    if not mix or len(weighed) < 2:
        out[label] = 1.0
        return out
    soft = policy.softmax([v / temperature for _, v in weighed])
    for (i, _v), q in zip(weighed, soft, strict=True):
        out[i] += mix * q
    return out


def log_loss(weights: Sequence[float], positions: Sequence[Position]) -> float:
    """The mean negative log-likelihood of the teacher's moves under the policy."""
    model = policy.LinearPolicy(weights)
    total = 0.0
    for rows, label, _played, _values in positions:
        total -= math.log(max(model.probabilities(rows)[label], 1e-300))
    return total / max(1, len(positions))


def fit(positions: Sequence[Position], l2: float, mix: float = 0.0, temperature: float = 1.0,
        rounds: int = 30) -> list[float]:
    """The weights minimising the cross-entropy to the positions' `targets` + l2/2·|w|²."""
    n = len(positions[0][0][0])
    goals = [targets(p, mix, temperature) for p in positions]

    def objective(w: Sequence[float]) -> float:
        model = policy.LinearPolicy(w)
        total = 0.5 * l2 * sum(x * x for x in w)
        for position, goal in zip(positions, goals, strict=True):
            probs = model.probabilities(position[0])
            total -= sum(q * math.log(max(p, 1e-300)) for q, p in zip(goal, probs, strict=True)
                         if q)
        return total

    w = [0.0] * n
    current = objective(w)
    for _ in range(rounds):
        grad = [l2 * x for x in w]
        hess = [[0.0] * n for _ in range(n)]
        model = policy.LinearPolicy(w)
        for position, goal in zip(positions, goals, strict=True):
            rows = position[0]
            probs = model.probabilities(rows)
            for k in range(n):
                grad[k] += sum((p - q) * row[k] for p, q, row in zip(probs, goal, rows,
                                                                      strict=True))
            mean = [sum(p * row[k] for p, row in zip(probs, rows, strict=True)) for k in range(n)]
            for p, row in zip(probs, rows, strict=True):
                if p < 1e-12:
                    continue
                d = [row[k] - mean[k] for k in range(n)]
                for i in range(n):
                    if d[i]:
                        pd = p * d[i]
                        hrow = hess[i]
                        for j in range(i, n):
                            hrow[j] += pd * d[j]
        for i in range(n):
            hess[i][i] += l2
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = [x - scale * s for x, s in zip(w, step, strict=True)]
            value = objective(trial)
            if value <= current:
                break
            scale /= 2
        else:
            break
        gain = current - value
        w, current = trial, value
        if gain < 1e-7 * max(1.0, abs(current)):
            break
    return w


def agreement(positions: Sequence[Position], weights: Sequence[float] | None) -> float:
    """How often the policy's most likely move (None: the move played) is the teacher's."""
    if not positions:
        return 0.0
    model = policy.LinearPolicy(weights) if weights is not None else None
    hits = 0
    for rows, label, played, _values in positions:
        hits += (model.best(rows) if model is not None else played) == label
    return hits / len(positions)


def regret(positions: Sequence[Position], weights: Sequence[float] | None) -> float | None:
    """The mean shortfall of the policy's most likely move (None: the move played) from the best
    of the teacher's values, over the positions whose every move it valued (a truth teacher's
    values are the outcome, so this is what the choice costs in the game's units); None if no
    position was valued whole."""
    model = policy.LinearPolicy(weights) if weights is not None else None
    total, count = 0.0, 0
    for rows, _label, played, values in positions:
        if any(v is None for v in values):
            continue
        choice = model.best(rows) if model is not None else played
        total += max(v for v in values if v is not None) - (values[choice] or 0.0)
        count += 1
    return total / count if count else None
