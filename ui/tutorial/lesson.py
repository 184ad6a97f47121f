"""A tutorial's data: a hand-picked deal stored as a record, and what the table says at each of
the player's decisions in it (`Step`). A game's tutorial is only this data (`ui.tutorial.<game>`);
the flow is `ui.tutorial.controller`'s for every game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.records import ParsedRecord, parse_record

HUMAN = 0


@dataclass(frozen=True)
class Step:
    """The player's decision at `at` (an index into the record's actions): the action(s) the
    lesson expects there (canonical notation; the first is the record's), the text (an English
    msgid, translated when shown; format fields filled from `fields`), the card codes to outline
    in the hand, and the rule ids (shared/rules/<game>.md) this step teaches."""

    at: int
    expect: tuple[str, ...]
    text: str
    highlight: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    """One game's guided deal: the record, the taught steps, the text shown at the player's
    other decisions (`follow`), the closing text, and every rule id the lesson teaches."""

    game: str
    record: dict[str, Any]
    steps: tuple[Step, ...]
    follow: str  # msgid at a decision with no step of its own: do the outlined move
    closing: str  # msgid shown when the deal is over
    rules: tuple[str, ...]

    def parsed(self) -> ParsedRecord:
        """The record checked by the engine's parser (`MalformedRecord` if it is not one)."""
        return parse_record(self.record)

    def step_at(self, index: int) -> Step | None:
        for step in self.steps:
            if step.at == index:
                return step
        return None

    def human_decisions(self) -> list[int]:
        """The indexes of the record's actions that are the player's (seat 0), by replaying it."""
        parsed = self.parsed()
        state = parsed.state
        out = []
        for index, action in enumerate(parsed.actions):
            if state.to_act == HUMAN:
                out.append(index)
            state.apply(action)
        return out
