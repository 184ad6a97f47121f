"""A game's engine knowledge in one typed, frozen place: `GameInfo` (and its AI part, `AiInfo`).

Each of Parlor's games declares one in its info module (`engine.info.<name>`), which the registry
finds (`engine.registry.info`). An info module is light: it imports nothing of its game nor of
the AI. What lives in heavy modules (the game's package, its heuristic bot, its search adapter,
its tree search, its invariants) is named by a *reference*, `"module:attribute"`, imported only
when `load` is called on it — so reading a title or the match lengths (the home screen at
start-up, the config schema) imports no game.

The per-game tables of the engine and device layers (the bots' profiles and tree budgets, the
coach's floors and units, the arena's figures, the soak's invariants, the seats' cards as codes,
the config's length keys) are built from these descriptors: adding a game is its package plus its
info module.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


def load(ref: str) -> Any:
    """The object a reference names: `"package.module:attr"` (attr may be dotted), or a module
    (`"package.module"`); imports the module."""
    module_name, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class AiInfo:
    """What Parlor's AI and coach know of one game (`engine.ai.bots`, `engine.ai.coach`, the
    arena's tools). Budgets are the keyword arguments of `engine.ai.search.Budget` (`normal`,
    `hard`) and `engine.ai.ismcts.TreeBudget` (`tree`): plain data, so the descriptor needs no
    AI module."""

    heuristic: str  #: reference to the rule-based bot class: seed -> bot
    adapter: str  #: reference to the search adapter class: (game, seed) -> adapter
    tree: str  #: reference to the information-set tree search's game class: (adapter, prior)
    normal: Mapping[str, Any]  #: the normal level's search budget
    hard: Mapping[str, Any]  #: the hard level's: more worlds, and inference weighting
    tree_budget: Mapping[str, Any]  #: the tree search's (`ismcts`; arena and benches only)
    coach_floor: float  #: the smallest gain the coach tells, in `coach_unit`
    coach_unit: str  #: what the search's values measure, for the deciding seat
    figure: tuple[str, str]  #: (arena metric, label): the game's own figure per deal
    learned: bool = False  #: the levels use the adapter's learned evaluation (if it has one)
    #: module of its learned policy's move features (`engine.ai.policy.MoveFeatures`); "" none
    policy: str = ""
    #: the levels' search keeps the learned policy's move first (`engine.ai.policy.lead`),
    #: instead of the heuristic's, where the policy's weights load
    lead: bool = False

    def __post_init__(self) -> None:
        for name in ("normal", "hard", "tree_budget"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))


@dataclass(frozen=True)
class GameInfo:
    """One game's engine knowledge, readable without importing the game."""

    name: str  #: the registry name (records, config keys, file names)
    title: str  #: the English title, a translatable msgid
    order: int  #: where the game stands in lists of the games (settings, the config file)
    package: str  #: the module that registers its `Game` when imported
    lengths: tuple[int, ...]  #: match lengths offered, in deals; 0 = the game's own end
    default_length: int  #: a new match's length when none is chosen (one of `lengths`)
    length_doc: str  #: what the config key `[game] <name>_deals` says
    #: reference to its module reading a seat's cards as record codes from an observation
    #: (`engine.seatcards`: `hand_codes`, `table_codes`, `on_table`, `done`)
    seatcards: str
    ai: AiInfo | None = None  #: its AI, if Parlor plays it with bots
    #: reference to its extra checks of a finished deal (`engine.soak`): (state, replayed state
    #: or None) -> a broken invariant's description, or None
    invariants: str | None = None
    #: reference to its studies module besides `soak` (`python -m engine study`, AI tools):
    #: `KINDS`, their names, and `run(kind, deals, seed, out, worlds=, fair=)`
    studies: str | None = None

    def __post_init__(self) -> None:
        if self.default_length not in self.lengths:
            raise ValueError(f"{self.name}: default length {self.default_length} not offered")

    def references(self) -> list[str]:
        """Every lazy reference the descriptor holds (each must `load`)."""
        refs = [self.package, self.seatcards]
        if self.ai is not None:
            refs += [self.ai.heuristic, self.ai.adapter, self.ai.tree]
        refs += [r for r in (self.invariants, self.studies) if r is not None]
        return refs
