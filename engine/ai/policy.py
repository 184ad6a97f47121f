"""A learned move policy: how likely a seat is to choose each of its legal moves.

Model: a conditional logit. Each legal move gets a row of features computed from the deciding
seat's observation alone (`move_features` of the game's policy module, named in its descriptor's
`AiInfo.policy`); P(move) ∝ exp(w · row). The moves weighed are the search adapter's candidates
(every legal move in Chắn and Meri, but for moves equivalent to one listed; a shortlist of a
Tractor follow's plays). Linear and pure Python: a decision costs the features (Chắn's about
0.26 ms, the heuristic's reading of each move; Meri's 0.05 ms, Tractor's 0.10 ms here) and a dot product per move —
affordable once per decision and per tree node, not per playout move (a Chắn playout costs
about 0.1 ms, a whole Meri playout 0.1 ms: a policy there would cut the playouts ten- to
thirtyfold). The weights are fitted by `engine.ai.tools.imitate` to the moves a stronger
player chose — the search, in the positions of its own games (expert iteration) — and kept in
`engine/ai/weights/<game>-policy.json` (format `parlor-policy`, read by the learned evaluations'
checked reader, `engine.ai.learned.read_weights`). A missing, corrupt or mismatched file gives
None and one log line per process: the caller keeps the heuristic (`PolicyBot`) or its plain
prior. `PARLOR_NO_MODEL=1` switches policies off too.
"""

from __future__ import annotations

import importlib
import logging
import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, cast

from engine.ai import learned
from engine.game import Action
from engine.registry import ai_infos

FORMAT = "parlor-policy"
MODEL = "linear-softmax"

log = logging.getLogger(__name__)

Rows = list[list[float]]


class MoveFeatures(Protocol):
    """A game's policy features (the module `AiInfo.policy` names)."""

    FEATURES: tuple[str, ...]

    def move_features(self, observation: Any, legal: Sequence[Action]) -> Rows:
        """One row of `FEATURES` per move of `legal`, in its order, from the observation."""
        ...


class LinearPolicy:
    """P(move) ∝ exp(weights · row) over a decision's rows."""

    def __init__(self, weights: Sequence[float]) -> None:
        self.weights = tuple(float(w) for w in weights)

    def scores(self, rows: Rows) -> list[float]:
        w = self.weights
        return [sum(a * b for a, b in zip(w, row, strict=True)) for row in rows]

    def probabilities(self, rows: Rows) -> list[float]:
        """The softmax of the scores (shifted by their maximum: no overflow)."""
        return softmax(self.scores(rows))

    def best(self, rows: Rows) -> int:
        """The index of the most likely move (the first on ties)."""
        scores = self.scores(rows)
        return max(range(len(scores)), key=lambda i: (scores[i], -i))

    def sample(self, rows: Rows, rng: random.Random) -> int:
        """A move index drawn from the probabilities."""
        probs = self.probabilities(rows)
        x = rng.random()
        for i, p in enumerate(probs):
            x -= p
            if x < 0.0:
                return i
        return len(probs) - 1


def softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def features_of(game: str) -> MoveFeatures | None:
    """The policy features module of `game` (None where its descriptor names none)."""
    info = ai_infos().get(game)
    if info is None or not info.policy:
        return None
    return cast(MoveFeatures, importlib.import_module(info.policy))


def policy_path(game: str) -> Path:
    """Where the policy weights of `game` live (`engine/ai/weights/<game>-policy.json`)."""
    return learned.WEIGHTS_DIR / f"{game}-policy.json"


def policy(game: str, path: Path | None = None) -> LinearPolicy | None:
    """The learned policy of `game` (from `path`, default `policy_path`), or None (no model:
    one log line per process and file says why)."""
    if learned.disabled():
        return None
    def read(path: Path) -> LinearPolicy:
        module = features_of(game)
        if module is None:
            raise ValueError(f"{game} has no policy features")
        return LinearPolicy(learned.read_weights(path, FORMAT, MODEL, game, module.FEATURES))

    return learned.cached(path or policy_path(game), read, log,
                          f"learned {game} policy not used")


def clear_cache() -> None:
    """Forget the loaded policies (and learned values: one cache, `engine.ai.learned`)."""
    learned.clear_cache()


def lead(game: str, path: Path | None = None) -> Callable[[Any, Sequence[Action]], Action] | None:
    """The learned policy's most likely move as a function of (observation, the moves weighed:
    the search's candidates), for the search's first candidate (`engine.ai.search.SearchBot`'s
    `lead`) and `PolicyBot`; None without a policy."""
    model = policy(game, path)
    features = features_of(game) if model is not None else None
    if model is None or features is None:
        return None

    def best(observation: Any, moves: Sequence[Action]) -> Action:
        return moves[model.best(features.move_features(observation, moves))]

    return best


class PolicyBot:
    """Plays the learned policy's most likely move among the search adapter's candidates (arena
    kind `policy`: what the policy alone is worth) — the adapter's first, the heuristic's
    choice, where the game has no policy."""

    name = "policy"

    def __init__(self, game: str, adapter: Any, seed: int, path: Path | None = None) -> None:
        self.game = game
        self.adapter = adapter
        self.rng = random.Random(seed)
        self.best = lead(game, path)

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        moves = list(self.adapter.candidates(observation, legal_actions, self.rng))
        if self.best is None or len(moves) == 1:
            return moves[0]
        return self.best(observation, moves)


__all__ = ["FORMAT", "MODEL", "LinearPolicy", "MoveFeatures", "PolicyBot", "clear_cache",
           "features_of", "lead", "policy", "policy_path", "softmax"]
