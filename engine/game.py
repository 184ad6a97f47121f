"""The shape every game module exposes (after OpenSpiel's State API).

A game is a `Game` object registered under its name (`meri`, `tractor`, `chan`). It deals states,
parses and prints actions in the record notation, and describes results. A `State` is one deal in
progress; it is mutated in place by `apply` and copied cheaply by `clone` for search.

Actions are whatever small, hashable value a game finds fastest (an int, a tuple of ints); only
`Game.parse_action` / `Game.format_action` turn them into and out of text.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NamedTuple

from engine.result import DealResult, MatchResult

Action = Hashable


class HandOrder(NamedTuple):
    """A seat's own hand as its player sees it, left to right: one owner for every place a
    person holds a hand (the kiosk's hand strip and a phone's page), so they always agree."""

    cards: list[int]  # the game's card ints (Meri card, Tractor kind, Chắn face), repeated
    codes: list[str]  # the same cards as record codes (records.md)
    breaks: list[int]  # indexes where a new group starts (a suit, the trumps, a pair)
    groups: list[int]  # indexes where a new kind of group starts (Chắn: pairs, Cạ, singles)


class State(ABC):
    """One deal in progress. Subclasses use `__slots__` and keep everything as ints."""

    __slots__ = ()

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat that must decide next (out of turn for a claim), or None when over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The kind of decision `to_act` faces, as named in records.md (`over` at the end)."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the deal has ended."""

    @property
    @abstractmethod
    def result(self) -> Any:
        """The deal's outcome (game-specific), or None until `is_over`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action for `to_act` (empty when over)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play `action` for `to_act`; raise `IllegalAction` and change nothing if it is illegal."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy, cheap enough for search to call thousands of times a move."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """Exactly what `seat` may know: its own hand and everything public, nothing hidden."""

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action. Games override this where listing is expensive."""
        legal = self.legal_actions()
        return legal[rng.randrange(len(legal))]


MAX_LENGTH = 99  # deals in one match at most (a saved match claiming more is not one of ours)


def check_length(deals: object, own_end: bool = False) -> int:
    """A match length: a plain int from 1 to `MAX_LENGTH` deals, or 0 (no fixed number: the
    game's own end) where the game has one (`own_end`); `ValueError` otherwise."""
    low = 0 if own_end else 1
    if type(deals) is not int or not low <= deals <= MAX_LENGTH:
        raise ValueError(f"a match length must be an integer from {low} to {MAX_LENGTH}, "
                         f"got {str(deals)[:20]!r}")
    return deals


class Match(ABC):
    """A sequence of deals with what carries over between them (scores, levels, dealer).

    `length` is the deals the match lasts (0: no fixed number, the game's own end); it is
    saved with the match (`to_dict`) and may be changed before the first deal is finished
    (`set_length`: the seating screen's choice for a match made early for the phones)."""

    length: int = 0

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True when no further deal is due."""

    @abstractmethod
    def next_deal(self) -> State:
        """Deal the next hand (from the match's seeded RNG and carried-over context)."""

    @abstractmethod
    def finish_deal(self, state: State) -> None:
        """Account for a finished deal (scores, levels, next dealer)."""

    @abstractmethod
    def result(self) -> MatchResult:
        """The standings: every side's cumulative score, progress, and the winner once over."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume the match between deals (JSON-friendly, incl. RNG state)."""

    @property
    @abstractmethod
    def deals_finished(self) -> int:
        """How many deals the match has accounted for."""

    def set_length(self, deals: int) -> None:
        """Make the match `deals` long (checked as `check_length`); `ValueError` once a deal
        is finished (the standings so far were played for the old length)."""
        deals = check_length(deals, own_end=self.has_own_end)
        if self.deals_finished:
            raise ValueError("the length of a match is set before its first deal ends")
        self.length = deals

    #: The match has an end of its own (length 0 plays to it: Tractor's team passing A).
    has_own_end = False


class Game(ABC):
    """Everything the record format, the CLI, the UI and the AI need to know about one game.

    The class attributes are the game's registry entry: what the home screen, the arena, the
    store and the bots read about it without knowing the game. A game knows nothing of bots:
    `engine.ai.bots` builds them for a game and a level.
    """

    name: str = ""  # the registry key and record `game` value
    title: str = ""  # the English title (a translatable msgid)
    players: int = 0  # seat count
    #: The sides that score together, by seat: teams, or one seat each (Chắn).
    teams: tuple[tuple[int, ...], ...] = ()
    phases: tuple[str, ...] = ()
    #: The game's `Match` class (what `new_match` builds and `restore_match` rebuilds).
    match_type: type[Match]
    #: The match lengths offered and the one a match has when none is chosen (deals; 0 = the
    #: game's own end): for Parlor's games, their descriptors' (`engine.info`).
    lengths: tuple[int, ...] = (1,)
    default_length: int = 1

    @abstractmethod
    def new_deal(self, seed: int) -> State:
        """Deal a hand by the engine's own method from `random.Random(seed)` (records without a layout)."""

    @abstractmethod
    def from_layout(self, layout: Mapping[str, Any], seed: int) -> State:
        """Build the start of a deal from a records.md layout; `MalformedRecord` if it is wrong."""

    @abstractmethod
    def layout_of(self, state: State) -> dict[str, Any]:
        """The records.md layout of `state`'s deal (as dealt, before any action)."""

    @abstractmethod
    def new_match(self, seed: int, deals: int | None = None) -> Match:
        """A fresh match of `deals` deals (None: `default_length`; 0: to the game's own end,
        where it has one; `ValueError` for another), every random choice drawn from
        `random.Random(seed)`."""

    @abstractmethod
    def restore_match(self, data: Mapping[str, Any]) -> Match:
        """The match saved by `Match.to_dict()`; `MalformedRecord` if it does not fit."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse one action in record notation (syntax only); `MalformedRecord` if it does not parse."""

    @abstractmethod
    def format_action(self, action: Action) -> str:
        """The canonical record notation of an action."""

    @abstractmethod
    def result_json(self, state: State) -> dict[str, Any] | None:
        """The `result` object of records.md, or None while the deal goes on."""

    @abstractmethod
    def deal_result(self, state: State) -> DealResult:
        """The typed outcome of a finished deal (`ValueError` while it goes on)."""

    @abstractmethod
    def describe_deal(self, state: State) -> str:
        """A few human-readable lines about a finished deal (for `simulate`)."""

    @abstractmethod
    def arena_seatings(self) -> list[frozenset[int]]:
        """The seat sets side A takes in turn on one duplicate deal (teams swapped, or seats rotated)."""

    @abstractmethod
    def arena_metrics(self, state: State, a_seats: frozenset[int]) -> dict[str, float]:
        """Figures of a finished deal from side A's point of view (A minus B where that makes sense).

        The first key is the arena's headline metric.
        """

    @abstractmethod
    def shown_hand(self, observation: Any) -> HandOrder:
        """`observation.seat`'s hand in the order its player sees it (the package's `order`)."""

    @abstractmethod
    def determinize(self, observation: Any, hidden: Mapping[str, Sequence[int]]) -> State:
        """A full state consistent with `observation`, with `hidden` cards placed where it says.

        `hidden` maps each hidden location the observation names (e.g. `"hand3"`, `"kitty"`,
        `"stock"`) to its cards. The state has the same public history as the observed one, so
        `determinize(obs, true_hidden).observation(obs.seat) == obs`. Search samples `hidden`.
        """

    def legal_listing(self, state: State, limit: int = 1000) -> tuple[list[str], int]:
        """The first `limit` legal actions as canonical text sorted as plain strings, and their count.

        Games whose legal sets can be huge (a void Tractor follow) override this to count without
        building every string.
        """
        texts = sorted(self.format_action(a) for a in state.legal_actions())
        return texts[:limit], len(texts)
