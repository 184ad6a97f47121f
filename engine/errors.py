"""The engine's two error types.

`IllegalAction` is raised by `State.apply` for a move the rules forbid; it carries the id of the
violated rule (`H-25`, `T-20`, `C-16`, or the generic `turn` / `held` of records.md) and the state
is left exactly as it was. `MalformedRecord` is raised while parsing text (a record, a layout, an
action or a card code) that does not follow records.md; it never reaches the rules.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid in the current state."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class MalformedRecord(EngineError, ValueError):
    """Text that does not parse: bad JSON, an unknown action or card code, a wrong layout."""
