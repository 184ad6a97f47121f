"""The one input model: semantic events and how they reach the UI.

Every source (GPIO buttons, serial keypad, mock) emits `InputEvent`s named after one of `EVENTS`.
Kinds:

- `press`   the key went down (after debounce);
- `long`    the key is still down `hold_seconds` after its press (keys that do not auto-repeat);
- `repeat`  the key is still down: auto-repeat after `repeat_delay`, then every `repeat_interval`;
- `release` the key went up (not forwarded to the UI by default).

The UI receives plain strings through `post_input(name)` (see `ui/ports.py`). `ui_name` defines the
mapping the composition root applies: `press` and `repeat` -> `"OK"`, `long` -> `"OK:long"`,
`release` -> nothing, or `"OK:release"` when asked for (`releases=True`: the
kiosk exit gesture times a held MENU from its `press` to its `release`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .errors import UnknownEvent

EVENTS: tuple[str, ...] = ("LEFT", "RIGHT", "UP", "DOWN", "SELECT", "OK", "BACK", "MENU")
KINDS: tuple[str, ...] = ("press", "long", "repeat", "release")
Kind = Literal["press", "long", "repeat", "release"]

LONG_SUFFIX = ":long"
RELEASE_SUFFIX = ":release"

log = logging.getLogger(__name__)


def check_event(name: str) -> str:
    """Return `name` if it is a semantic event, else raise `UnknownEvent`."""
    if name not in EVENTS:
        raise UnknownEvent(f"unknown input event {name!r}; expected one of {' '.join(EVENTS)}")
    return name


@dataclass(frozen=True, slots=True)
class InputEvent:
    """One semantic input event. `time` is the source clock's reading (not compared)."""

    name: str
    kind: Kind = "press"
    source: str = ""
    time: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        check_event(self.name)
        if self.kind not in KINDS:
            raise ValueError(f"unknown event kind {self.kind!r}; expected one of {KINDS}")


def ui_name(event: InputEvent, *, releases: bool = False) -> str | None:
    """The string handed to the UI's `post_input` for `event`, or None if it is not forwarded."""
    if event.kind in ("press", "repeat"):
        return event.name
    if event.kind == "long":
        return event.name + LONG_SUFFIX
    return event.name + RELEASE_SUFFIX if releases else None


def forward_to(
    post_input: Callable[[str], None], *, releases: bool = False
) -> Callable[[InputEvent], None]:
    """A `when_event` callback that hands each event's `ui_name` to `post_input`.

    `post_input` must be thread-safe (the UI's hands the name to Kivy's Clock). An exception in
    it is logged, never propagated into the backend thread.
    """

    def when_event(event: InputEvent) -> None:
        name = ui_name(event, releases=releases)
        if name is None:
            return
        try:
            post_input(name)
        except Exception:
            log.exception("post_input(%r) failed", name)

    return when_event
