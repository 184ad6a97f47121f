"""What a `Table` tells its listeners: plain values, made on the thread that drives the table.

A listener (the Kivy view, the phone transport, a log, a training run collecting positions)
receives each event as it happens and reads anything else it needs from the table itself.

There is no "saved" event: a match saves itself through its `Session`'s save callback after
every change — each action, but also when it is made, resumed, undone or dealt again, most of
them outside this loop — so the callback is the one place a save's outcome is known and
reported (the kiosk shows a failed write, `ui.sessions.Sessions.save`). A table event would
tell only some saves, and a second path for the same fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Action


@dataclass(frozen=True, slots=True)
class Turn:
    """`seat` (a seat of `kind`) is asked for the deal's action number `index` (0-based)."""

    seat: int
    kind: str
    index: int


@dataclass(frozen=True, slots=True)
class Applied:
    """`seat` (of `kind`) played `action`, the deal's action number `index`; `why` is what a
    bot weighed for it (`engine.ai.why.Why`), when it said."""

    seat: int
    kind: str
    index: int
    action: Action
    why: Any = None


@dataclass(frozen=True, slots=True)
class DealOver:
    """The deal has ended after `actions` actions (told once per deal)."""

    actions: int


Event = Turn | Applied | DealOver
