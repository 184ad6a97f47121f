"""The one owner of focus and input precedence over a table's modal panels.

Each modal feature of a table (Why?, the table's question, the pass-and-play cover, the coach)
is a service the screen holds (`ui.table.why`, `undo`, `cover`, `coaching`); each may have a
panel open over the table. `Panels` lists them in one fixed order of precedence, and the
screen's `ensure_focus`, `handle_input` and `move_focus` ask it first: the first service in
that order with a panel open keeps the focus inside its panel and answers BACK and the arrows
it handles. The order (first wins), the one the table has always kept its focus by:

1. Why? (`WhyService`): the flow waits while it is open;
2. the table's question (`UndoService`: undo, Why? in a counted game, Restart);
3. the pass-and-play cover (`CoverService`): BACK is not its own (it goes to the screen);
4. the coach (`CoachService`), over the summary.

In play two of them are hardly ever open together (each is modal: it takes every touch); the
order says who wins when they are.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.event import EventDispatcher


class PanelOwner(Protocol):
    """A service with a modal panel, as the screen's focus and input see it."""

    def open_panel(self) -> Any:
        """Its panel while it is open (focus stays inside it), else None."""

    def back(self) -> bool:
        """BACK while its panel is open: True when it answered it."""

    def move(self, direction: str) -> bool:
        """An arrow while its panel is open: True when it used it (else the focus moves)."""


class PanelService(EventDispatcher):
    """The common ground of the table's modal services: by default BACK and the arrows are
    not theirs (the screen's); each says when its panel is open (`open_panel`)."""

    def open_panel(self) -> Any:
        """Its panel while it is open, else None (services override)."""
        return None

    def back(self) -> bool:
        return False

    def move(self, direction: str) -> bool:
        return False


class Panels:
    """The table's modal services in their order of precedence (see the module docstring)."""

    def __init__(self, *owners: PanelOwner) -> None:
        self.owners = owners

    def top(self) -> PanelOwner | None:
        """The first service in the order with its panel open, else None."""
        return next((owner for owner in self.owners if owner.open_panel() is not None), None)

    def scope(self) -> Any:
        """The panel the focus stays inside now, else None (the screen's own scope)."""
        owner = self.top()
        return owner.open_panel() if owner is not None else None

    def back(self) -> bool:
        """BACK to the open panel first: True when it answered it."""
        owner = self.top()
        return owner is not None and owner.back()

    def move(self, direction: str) -> bool:
        """An arrow to the open panel first: True when it used it."""
        owner = self.top()
        return owner is not None and owner.move(direction)
