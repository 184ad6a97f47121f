"""The steps of a kept deal, for the replay viewer (no Kivy here: tests read it directly).

`DealSteps` replays a finished deal's record (records.md) once and keeps the state after every
action: step 0 is the deal as dealt, step k the state after the record's first k actions —
exactly the engine's `replay` of that prefix. It knows who made each action and where each trick
(Meri, Tractor) or each stock card drawn (Chắn) completes, for "jump to a trick". What a seat
holds and has on the table comes from observations only (`seat_view`): a seat's own for its hand,
the player's (seat 0) for the table, so face-down cards stay down unless every hand is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Action, State
from engine.records import parse_record
from engine.seatcards import hand_codes, table_codes
from ui.games import get

HUMAN = 0


@dataclass(frozen=True)
class SeatView:
    """One seat at one step: the card codes in its hand ([] = not shown), how many it holds,
    and the codes of its cards on the table ("" = a card face down)."""

    hand: list[str]
    held: int
    table: list[str]


class DealSteps:
    """Every state of one recorded deal, stepped through by index (0 … `last`)."""

    def __init__(self, record: Any) -> None:
        parsed = parse_record(record)  # MalformedRecord if it is not a record
        self.game = parsed.game
        self.texts = list(parsed.texts)
        self.actions: list[Action] = list(parsed.actions)
        self.record = {"game": parsed.game.name, "seed": parsed.seed, "layout": parsed.layout}
        state = parsed.state
        self.states: list[State] = [state.clone()]
        self.actors: list[int] = []  # who made action i
        for action in parsed.actions:
            self.actors.append(state.to_act)
            state.apply(action)  # IllegalAction if the record breaks a rule
            self.states.append(state.clone())
        #: Tricks complete (Chắn: cards drawn from the stock) at each step.
        self.progress = [_progress(self.game.name, s.observation(HUMAN)) for s in self.states]
        progress = self.progress
        #: The steps at which a trick (a Chắn draw) completes, in order: "jump to trick n".
        self.marks = [k for k in range(1, len(progress)) if progress[k] > progress[k - 1]]

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def state(self, step: int) -> State:
        return self.states[step]

    def prefix(self, step: int) -> dict[str, Any]:
        """The record of the first `step` actions (what the engine's `replay` takes)."""
        return {**self.record, "actions": self.texts[:step]}

    def mark_of(self, step: int) -> int:
        """How many tricks (draws) are complete at `step`."""
        return self.progress[step]

    def next_mark(self, step: int) -> int:
        """The step completing the next trick after `step` (the last step if none)."""
        return next((m for m in self.marks if m > step), self.last)

    def previous_mark(self, step: int) -> int:
        """The step completing the trick before `step` (step 0 if none)."""
        return next((m for m in reversed(self.marks) if m < step), 0)

    def made(self, step: int) -> tuple[int, Action] | None:
        """(seat, the engine's action) that led to `step` from `state(step - 1)`; None at
        step 0."""
        if step <= 0:
            return None
        return self.actors[step - 1], self.actions[step - 1]

    def seat_view(self, step: int, seat: int, all_hands: bool) -> SeatView:
        """What the viewer shows of `seat` at `step`: its hand only if it is the player's or
        every hand is shown; its cards on the table as the player saw them."""
        state = self.states[step]
        name = self.game.name
        own = state.observation(seat)
        hand = hand_codes(name, own)
        shown = hand if (all_hands or seat == HUMAN) else []
        table = table_codes(name, state.observation(HUMAN), seat)
        if all_hands and get(name).facedown_plays:  # a face-down trump, seen by its player
            mine = table_codes(name, own, seat)
            table = mine if mine else table
        return SeatView(shown, len(hand), table)


def _progress(name: str, obs: Any) -> int:
    """The tricks done, or the cards revealed in a game that goes on by draws (Chắn)."""
    if get(name).draws:
        return len(obs.revealed)
    return len(obs.tricks)
