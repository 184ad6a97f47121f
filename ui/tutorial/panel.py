"""The lesson's panel over the table: what to do and why, the step counter and Skip.

Drawn near the top of the table, over the far seats (the hand, the trick and the prompt's
buttons stay free); its text shrinks to fit (`FitLabel`), so a long language stays inside it.
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


class TutorialPanel(BoxLayout):
    """`text` (translated already) and `counter` ("Step 3 of 9"); Skip calls `on_skip`."""

    text = StringProperty("")
    counter = StringProperty("")

    def __init__(self, on_skip: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", padding=dp(8), spacing=dp(8),
                         size_hint=(None, None), **kwargs)
        with self.canvas.before:
            Color(0.10, 0.12, 0.22, 0.93)
            self._bg = RoundedRectangle(radius=[dp(10)])
        self.bind(pos=self._draw, size=self._draw)
        self.text_label = FitLabel(base_font=sp(16), halign="left")
        self.add_widget(self.text_label)
        side = BoxLayout(orientation="vertical", spacing=dp(2), size_hint_x=None, width=dp(92))
        self.counter_label = FitLabel(size_hint_y=None, height=dp(18), base_font=sp(12),
                                      color=(0.75, 0.85, 1, 1))
        self.skip_button = FocusButton(base_font=sp(14), tone=[0.45, 0.25, 0.25, 1])
        self.skip_button.bind(on_release=lambda _b: on_skip())
        side.add_widget(self.counter_label)
        side.add_widget(self.skip_button)
        self.add_widget(side)
        self.bind(text=self._texts, counter=self._texts)
        self._texts()
        self.bind(parent=self._follow_parent)

    def _texts(self, *_args: Any) -> None:
        self.text_label.text = self.text
        self.counter_label.text = self.counter
        self.skip_button.text = tr("Skip tutorial")

    def _follow_parent(self, *_args: Any) -> None:
        parent = self.parent
        if parent is not None:
            ids = getattr(parent, "ids", {})
            area = ids.get("seats") or ids.get("table") or parent
            for widget in {id(parent): parent, id(area): area}.values():
                widget.bind(size=self._place, pos=self._place)
            self._place()

    def _place(self, *_args: Any) -> None:
        """At the top of the table's play area (`ids.seats` or `ids.table`: the side panel with
        the prompt and the hand stay free), four lines of text (fewer
        over the far seats in landscape, where the text shrinks to fit)."""
        parent = self.parent
        if parent is None:
            return
        ids = getattr(parent, "ids", {})
        area = ids.get("seats") or ids.get("table") or parent
        x, top = area.to_window(area.x, area.top)
        x, top = parent.to_widget(x, top)
        self.width = max(dp(200), area.width - dp(12))
        self.height = dp(118) if parent.height > parent.width else dp(84)
        self.x = x + (area.width - self.width) / 2
        self.top = top - dp(4)

    def _draw(self, *_args: Any) -> None:
        self._bg.pos = self.pos
        self._bg.size = self.size
