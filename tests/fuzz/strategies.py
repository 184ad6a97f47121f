"""Hypothesis strategies shared by the property-based tests: JSON values and mutations of real
documents (a saved session, a record), so that examples stay close to what Parlor reads."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from engine.session import Session

GAMES = ("meri", "tractor", "chan")

scalars = (st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False) | st.text(max_size=12))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=8,
)


@lru_cache(maxsize=64)
def saved_session(game: str, seed: int, actions: int) -> str:
    """A real saved session: `actions` legal moves (the first legal one each time) into a match."""
    session = Session.new(game, seed)
    for _ in range(actions):
        if session.state.is_over:
            break
        session.apply(session.state.legal_actions()[0])
    return session.to_json()


real_sessions = st.builds(saved_session, st.sampled_from(GAMES), st.integers(0, 7),
                          st.integers(0, 12))


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def _set(document: Any, path: tuple, value: Any, delete: bool = False) -> Any:
    if not path:
        return value
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return document


@st.composite
def mutated_json(draw: st.DrawFn, text: str) -> str:
    """`text` (JSON) with one to three values replaced or deleted, or the text itself cut or
    spliced: what a damaged or hand-edited file could hold."""
    how = draw(st.sampled_from(["values", "values", "values", "cut", "splice"]))
    if how == "cut":
        return text[:draw(st.integers(0, max(0, len(text) - 1)))]
    if how == "splice":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.text(max_size=8)) + text[at:]
    document = copy.deepcopy(json.loads(text))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths(document))))
        delete = bool(path) and draw(st.booleans())
        document = _set(document, path, None if delete else draw(json_values), delete)
    return json.dumps(document, ensure_ascii=draw(st.booleans()))
