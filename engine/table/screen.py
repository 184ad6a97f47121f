"""Who the one screen is showing: the pass-and-play policy of a table's local seats.

Several seats may be played by people taking turns at one screen (issue 22). The screen shows
one seat's hand at a time (the *viewer*), and only after that seat's player has said they hold
the screen (*revealed*). When another local seat is to act, or the viewer's own player has not
yet taken the screen (a new deal, a resumed match), the screen must be covered until the right
player takes it. With one local seat its hand is always shown; with none, no hand is.

This is the rule alone, without a screen: the Kivy table's cover (`ui.table.cover`) draws the
panel and asks the player, and tests and other front ends can ask the same questions here.
"""

from __future__ import annotations

from collections.abc import Collection


class ScreenTurns:
    """The viewer seat of one screen and whether its player has taken the screen."""

    __slots__ = ("local", "revealed", "viewer")

    def __init__(self) -> None:
        self.local: tuple[int, ...] = ()  # the seats played at this screen, in seat order
        self.viewer = 0  # the seat the screen is drawn for (its hand, its prompts)
        self.revealed = False  # the viewer's player has taken the screen

    def seat(self, local: Collection[int]) -> None:
        """A table starts (new or resumed) with `local` seats at this screen: drawn for the
        first of them (seat 0 if none); with several, no hand shows before a player takes the
        screen."""
        self.local = tuple(sorted(local))
        self.viewer = self.local[0] if self.local else 0
        self.revealed = len(self.local) == 1

    @property
    def shared(self) -> bool:
        """More than one seat is played at this screen (pass-and-play)."""
        return len(self.local) > 1

    def new_deal(self) -> None:
        """A new deal: with the screen shared, no hand shows until a player takes it."""
        if self.shared:
            self.revealed = False

    def covered(self) -> None:
        """The screen was covered (for any seat): the viewer's hand is hidden until taken."""
        self.revealed = False

    def needs_cover(self, seat: int | None) -> bool:
        """`seat` is to act at this screen and its hand is not the one shown."""
        return seat in self.local and (seat != self.viewer or not self.revealed)

    def take(self, seat: int) -> bool:
        """`seat`'s player took the screen: it is drawn for `seat`, its hand shown. True when
        the viewer changed (the seats are placed anew, that seat at the bottom)."""
        turned = seat != self.viewer
        self.viewer = seat
        self.revealed = True
        return turned

    def hand_shown(self) -> bool:
        """The viewer's hand (and what only that seat knows) may be shown now."""
        return self.viewer in self.local and self.revealed
