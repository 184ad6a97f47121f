"""Completed tricks on show and the last-trick review: the table of the trick-taking games (Meri,
Tractor).

After an action completes a trick, the trick stays on show (`showing`) for `TRICK_HOLD` while
`trick_won_text` says who took it; several tricks completed by one action (Meri's trick 8 and the
automatic trick 9) are shown one after the other, each swept to its winner as it goes
(`TableMotion.sweep`). While `reviewing`, play is paused and the previous trick is shown; BACK,
OK or SELECT (or the button again) return to play. A table derives from `TrickTableScreen`, sets
`can_review` in its refresh, draws `showing` (or, when reviewing, the last trick) and says what
the review shows in `review_message()`.

This stays a base class, not a service: it is the trick games' own flow on the shared one
(`applied`, `paused` and `reset_view` are extended, and each game fills in its words), not a
feature a table holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.properties import BooleanProperty

from ui.sound import events as sounds
from ui.table.base import TRICK_HOLD
from ui.table.picking import PickingTableScreen


class TrickTableScreen(PickingTableScreen):
    """The table of a trick-taking game (Meri, Tractor): tricks on show and their review, cards
    picked in the hand, on the shared flow."""

    reviewing = BooleanProperty(False)
    can_review = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        self.showing: Any = None  # a completed trick on show
        self._tricks_seen = 0
        super().__init__(**kwargs)

    def completed_tricks(self) -> Sequence[Any]:
        """The tricks of this deal completed so far, from the human's observation."""
        return self.observation().tricks

    def review_message(self) -> str:
        """The line shown while the last trick is reviewed."""
        raise NotImplementedError

    def trick_won_text(self, trick: Any) -> str:
        """The line shown while a completed trick is on show."""
        raise NotImplementedError

    def reset_view(self) -> None:
        super().reset_view()
        self.showing = None
        self.reviewing = False
        self._tricks_seen = len(self.completed_tricks())

    # -- tricks on show ------------------------------------------------------------------------
    def applied(self, seat: int, action: Any) -> None:
        super().applied(seat, action)
        tricks = self.completed_tricks()
        new = list(tricks[self._tricks_seen:])
        self._tricks_seen = len(tricks)
        if new:
            self._show_completed(new)
        else:
            self.refresh()

    def _show_completed(self, tricks: list) -> None:
        trick = tricks[0]
        self.showing = trick
        self.refresh()
        self.message = self.trick_won_text(trick)
        self.alert = False
        self.app.cue(sounds.TRICK)

        def after() -> None:
            self.motion.sweep(trick[2])  # (…, winner, …): to its seat
            self.showing = None
            if len(tricks) > 1:
                self.holding = False
                self._show_completed(tricks[1:])

        self.hold(self.seconds(TRICK_HOLD), after)

    # -- the review ----------------------------------------------------------------------------
    def toggle_review(self) -> None:
        if not self.can_review and not self.reviewing:
            return
        self.reviewing = not self.reviewing
        self.refresh()
        if self.reviewing:
            self.message = self.review_message()
            self.alert = False
        else:
            self.step()

    def review_input(self, name: str) -> bool:
        """Handle `name` if it ends a review; True when it did."""
        if self.reviewing and name in ("BACK", "OK", "SELECT"):
            self.toggle_review()
            return True
        return False

    def paused(self) -> bool:
        return self.reviewing or super().paused()
