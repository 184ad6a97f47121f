"""Last-trick review, shared by the trick-taking tables (Meri, Tractor).

While `reviewing`, play is paused and the previous trick is shown; BACK, OK or SELECT (or the
button again) return to play. A table lists `TrickReviewMixin` before `TableScreen`, sets
`can_review` in its refresh, and says what the review shows in `review_message()`.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty


class TrickReviewMixin:
    reviewing = BooleanProperty(False)
    can_review = BooleanProperty(False)

    def review_message(self) -> str:
        """The line shown while the last trick is reviewed."""
        raise NotImplementedError

    def toggle_review(self) -> None:
        if not self.can_review and not self.reviewing:
            return
        self.reviewing = not self.reviewing
        self.refresh()  # type: ignore[attr-defined]
        if self.reviewing:
            self.message = self.review_message()
            self.alert = False
        else:
            self.step()  # type: ignore[attr-defined]

    def review_input(self, name: str) -> bool:
        """Handle `name` if it ends a review; True when it did."""
        if self.reviewing and name in ("BACK", "OK", "SELECT"):
            self.toggle_review()
            return True
        return False

    def paused(self) -> bool:
        return self.reviewing or super().paused()  # type: ignore[misc]
