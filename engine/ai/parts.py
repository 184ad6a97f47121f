"""The search's interface to parallel work: a decision's independent parts, whatever they are.

A search decision that can be split is a `PartJob`: a picklable description of the decision
(its observation and seed, and a `factory` that builds the game's searcher in another process)
whose part `index` is computed by `evaluate(searcher, index)`, depending on the decision and the
index alone. The determinized search's parts are its sampled worlds (`engine.ai.search.WorldJob`);
the tree search's are its independent trees (`engine.ai.ismcts.TreeJob`). A `PartSource`
(`engine.ai.pool.SearchPool`) computes parts 0..planned-1 across processes and hands them back in
index order, so a decision is the same for any number of processes. Neither side knows the
other's kind of part: the pool only builds the searcher, prepares it for the observation and
calls `evaluate`; the search only sums what comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

__all__ = ["PartJob", "PartSource", "Searcher"]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Searcher(Protocol):
    """What a part is computed with in a worker: the game's search adapter or tree game."""

    def prepare(self, observation: Any) -> None:
        """Set up what this decision's parts need (in every process that computes one)."""


class PartJob(Protocol[R_co]):
    """One decision's parts, picklable: `factory` builds the searcher in a worker (None: this
    process only), `evaluate(searcher, index)` computes part `index`."""

    @property
    def factory(self) -> Callable[[], Any] | None: ...

    @property
    def observation(self) -> Any: ...

    def evaluate(self, searcher: Any, index: int) -> R_co:
        """Part `index` of the decision, from the decision and the index alone."""
        ...


class PartSource(Protocol):
    """Computes a decision's parts in other processes too (`engine.ai.pool.SearchPool`)."""

    size: int  # the processes searching, this one included (1: this one only)

    def parts(self, job: PartJob[R], planned: int, local: Callable[[int], R]) -> Iterator[R]:
        """Parts 0..planned-1 in index order, `local(i)` computing one in this process; the
        caller may stop early (closing the iterator)."""
        ...
