"""The one owner of a table's modal panels (`ui.table.panels`): the first open one in the fixed
order keeps the focus and answers BACK and its arrows; a closed one is passed over, and what the
open one does not answer goes to the screen."""

from __future__ import annotations

from typing import Any

from ui.table.panels import Panels, PanelService


class Service(PanelService):
    """A modal service with a panel (`widget`) open or not, counting what it answered."""

    def __init__(self, widget: str, answers_back: bool = True, arrows: bool = False) -> None:
        super().__init__()
        self.widget, self.shown, self.answers_back, self.arrows = widget, False, answers_back, arrows
        self.backs: int = 0
        self.moves: list[str] = []

    def open_panel(self) -> Any:
        return self.widget if self.shown else None

    def back(self) -> bool:
        if not self.answers_back:
            return super().back()
        self.backs += 1
        return True

    def move(self, direction: str) -> bool:
        if not self.arrows:
            return super().move(direction)
        self.moves.append(direction)
        return True


def test_the_first_open_panel_in_the_order_keeps_the_focus_and_answers() -> None:
    why, question, cover, coach = (Service("why"), Service("question"),
                                   Service("cover", answers_back=False), Service("coach", arrows=True))
    panels = Panels(why, question, cover, coach)
    assert panels.top() is None and panels.scope() is None
    assert not panels.back() and not panels.move("UP")  # nothing open: the screen's
    coach.shown = question.shown = True
    assert panels.top() is question and panels.scope() == "question"
    assert panels.back() and question.backs == 1 and coach.backs == 0
    assert not panels.move("UP") and coach.moves == []  # the question has no arrows of its own
    question.shown = False
    assert panels.scope() == "coach" and panels.move("DOWN") and coach.moves == ["DOWN"]
    cover.shown = True  # BACK under the cover is the screen's (Menu)
    assert panels.scope() == "cover" and not panels.back() and coach.backs == 0
    why.shown = True
    assert panels.scope() == "why" and panels.back() and why.backs == 1
