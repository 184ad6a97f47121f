"""Loading the learned evaluations (engine/ai/weights/<game>.json), once per process.

A weights file is JSON written by `engine.ai.tools.train`: `format` "parlor-eval", `version`
(`VERSION`), `game`, `model` "linear", the `features` names (which must equal the ones the code
computes, in order), the `weights` and the `training` block (seeds, deals and the command that
reproduces the file). A search adapter asks `model(game, features)` lazily, in whichever process
evaluates its worlds (the table's bot process, a search worker), and the answer is cached in that
process: one read per process. A missing, corrupt or mismatched file gives None — the search
then keeps its plain value (Chắn: the heuristic's hand value; Tractor: the card points so far;
Meri: the playout to the end of the deal) — and one log line per process says why.

`PARLOR_NO_MODEL=1` switches every learned evaluation off (the plain path), e.g. to measure
what the model adds; the arena-only kind `normal-nomodel` does the same for one side.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

VERSION = 1
FORMAT = "parlor-eval"
WEIGHTS_DIR = Path(__file__).with_name("weights")
MAX_BYTES = 1 << 20  # the limit per game; a larger file is refused, not read

log = logging.getLogger(__name__)


class LinearValue:
    """A learned evaluation: `weights · features` (pure Python: a dot product over a few dozen
    numbers). Each game's value module folds its own features into the weights for the search's
    leaves (`chan_value.leaf_value`, `tractor_value.leaf_value`, given `weights`)."""

    def __init__(self, weights: Sequence[float]) -> None:
        self.weights = tuple(float(w) for w in weights)

    def __call__(self, features: Sequence[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, features, strict=True))


_cache: dict[Path, Any] = {}

T = TypeVar("T")


def weights_path(game: str) -> Path:
    """Where the weights of `game` live (`WEIGHTS_DIR` / <game>.json)."""
    return WEIGHTS_DIR / f"{game}.json"


def disabled() -> bool:
    """True when `PARLOR_NO_MODEL` switches the learned evaluations off."""
    return os.environ.get("PARLOR_NO_MODEL", "") not in ("", "0")


def model(game: str, features: Sequence[str]) -> LinearValue | None:
    """The learned value of `game` over `features`, or None (no model: use the plain value)."""
    if disabled():
        return None
    return cached(weights_path(game), lambda path: read(path, game, features), log,
                  f"learned {game} evaluation not used, the search's plain value is")


def cached(path: Path, read_file: Callable[[Path], T], logger: logging.Logger,
           failure: str) -> T | None:
    """`read_file(path)` once per process and path (the learned values' and policies' files);
    None where it fails (`OSError`, `ValueError`), told once to `logger` as "`failure`: why"."""
    if path not in _cache:
        try:
            _cache[path] = read_file(path)
        except (OSError, ValueError) as exc:
            logger.warning("%s: %s", failure, exc)
            _cache[path] = None
    return _cache[path]


def clear_cache() -> None:
    """Forget the loaded models and policies (tests; a new weights file)."""
    _cache.clear()


def read(path: Path, game: str, features: Sequence[str]) -> LinearValue:
    """Parse and check one weights file; `ValueError` (one line) if it does not fit."""
    return LinearValue(read_weights(path, FORMAT, "linear", game, features))


def read_weights(path: Path, fmt: str, kind: str, game: str,
                 features: Sequence[str]) -> tuple[float, ...]:
    """The weights of a linear model file of format `fmt` and model `kind` for `game` over
    `features` (the learned evaluations' and policies' files, `engine.ai.policy`), checked;
    `ValueError` (one line) if it does not fit."""
    if not path.exists():
        raise ValueError(f"no weights file {path}")
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path} is larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"{path} is not a {fmt} file")
    if data.get("version") != VERSION:
        raise ValueError(f"{path} has version {data.get('version')!r}, this code reads {VERSION}")
    if data.get("game") != game or data.get("model") != kind:
        raise ValueError(f"{path} is not a {kind} model of {game}")
    if data.get("features") != list(features):
        raise ValueError(f"{path} was trained on other features than this code computes")
    weights = data.get("weights")
    if (not isinstance(weights, list) or len(weights) != len(features)
            or not all(isinstance(w, (int, float)) and not isinstance(w, bool)
                       and math.isfinite(w) for w in weights)):
        raise ValueError(f"{path} has no {len(features)} finite weights")
    return tuple(float(w) for w in weights)
