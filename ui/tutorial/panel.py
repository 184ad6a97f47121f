"""The lesson's panel on the table: what to do and why, the step counter and Skip.

Docked above the table's middle row (the play area, `ids.seats` or `ids.table`, and the side
panel with the prompt), not over it: while a lesson runs, the panel and that row share the row's
place in the table's layout, so the table lays its seats out in what is left and the panel covers
no seat badge, trick or gate; the hand keeps its place and size. Its text shrinks to fit
(`FitLabel`), so a long language stays inside it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, RoundedRectangle
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui.i18n import tr
from ui.widgets import FitLabel, FocusButton


def middle_row(table: Any) -> Any:
    """The table's row between the top bar and the hand: the play area (the seats and the trick
    or gates: `ids.seats`, else `ids.table`) and the side panel."""
    ids = getattr(table, "ids", {})
    return (ids.get("seats") or ids.get("table")).parent


class TutorialPanel(BoxLayout):
    """`text` (translated already) and `counter` ("Step 3 of 9"); Skip calls `on_skip`."""

    text = StringProperty("")
    counter = StringProperty("")

    def __init__(self, on_skip: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", padding=(dp(8), dp(5)), spacing=dp(8),
                         size_hint=(1, None), height=dp(84), **kwargs)
        with self.canvas.before:
            Color(0.10, 0.12, 0.22, 0.93)
            self._bg = RoundedRectangle(radius=[dp(10)])
        self.bind(pos=self._draw, size=self._draw)
        self.text_label = FitLabel(base_font=sp(16), halign="left")
        self.add_widget(self.text_label)
        side = BoxLayout(orientation="vertical", spacing=dp(2), size_hint_x=None, width=dp(104))
        self.counter_label = FitLabel(size_hint_y=None, height=dp(18), base_font=sp(12),
                                      color=(0.75, 0.85, 1, 1))
        self.skip_button = FocusButton(base_font=sp(14), tone=[0.45, 0.25, 0.25, 1])
        self.skip_button.bind(on_release=lambda _b: on_skip())
        side.add_widget(self.counter_label)
        side.add_widget(self.skip_button)
        self.add_widget(side)
        self.bind(text=self._texts, counter=self._texts)
        self._texts()
        self._stack: BoxLayout | None = None  # the panel above the play area, while docked
        self._table: Any = None

    def _texts(self, *_args: Any) -> None:
        self.text_label.text = self.text
        self.counter_label.text = self.counter
        self.skip_button.text = tr("Skip tutorial")

    # -- docking ------------------------------------------------------------------------------
    @property
    def docked(self) -> bool:
        return self._stack is not None

    def dock(self, table: Any) -> None:
        """Take the middle row's place in the table's layout with a column of this panel above
        the row (same size hints: the hand does not move)."""
        if self._stack is not None:
            return
        area = middle_row(table)
        holder = area.parent
        index = holder.children.index(area)
        holder.remove_widget(area)
        stack = BoxLayout(orientation="vertical", spacing=dp(4),
                          size_hint=(area.size_hint_x, area.size_hint_y))
        area.size_hint = (1, 1)
        stack.add_widget(self)
        stack.add_widget(area)
        holder.add_widget(stack, index=index)
        self._stack, self._table = stack, table
        table.bind(size=self._size)
        self._size()

    def undock(self) -> None:
        """Give the middle row its place back, as it was before `dock`."""
        stack, table = self._stack, self._table
        if stack is None:
            return
        area = middle_row(table)
        holder = stack.parent
        index = holder.children.index(stack) if holder is not None else 0
        stack.remove_widget(self)
        stack.remove_widget(area)
        area.size_hint = stack.size_hint
        if holder is not None:
            holder.remove_widget(stack)
            holder.add_widget(area, index=index)
        table.unbind(size=self._size)
        self._stack = self._table = None

    def _size(self, *_args: Any) -> None:
        """Four lines of text in portrait, two or three in landscape (the text shrinks to fit)."""
        table = self._table
        self.height = dp(100) if table.height > table.width else dp(70)

    def _draw(self, *_args: Any) -> None:
        self._bg.pos = self.pos
        self._bg.size = self.size
