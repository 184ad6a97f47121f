"""A small line chart of a match's progress, drawn with Kivy canvas instructions (no plotting
library): one line per side over the deals (Meri's cumulative scores, Tractor's levels on the
ladder "2".."A", Chắn's running settlement), the sides' colours and names in a legend, a few
values on the left axis and the deal numbers below.

Lines of sides standing level lie on each other: the earlier ones are drawn wider, so each
colour still shows along them. `MatchChart.plotted` keeps the points each line was drawn through (window-free widget
coordinates), so a test can check the drawing against the match's history.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

AXIS = (0.55, 0.58, 0.62, 1)
GRID = (0.3, 0.33, 0.36, 1)
TEXT = (0.9, 0.9, 0.88, 1)
MIN_DEALS = 4  # the x axis spans at least this many deals (a match with no fixed length)


def _text(text: str, size: float, bold: bool = False) -> Any:
    """A texture of `text` (one line) at `size` sp."""
    label = CoreLabel(text=text, font_size=sp(size), bold=bold)
    label.refresh()
    return label.texture


def ticks(low: int, high: int, rungs: int) -> list[int]:
    """The values labelled on the left axis: every rung of a short ladder, else about every
    third and the top; for numbers the bottom, zero and the top."""
    if rungs:
        step = 1 if rungs <= 6 else 3
        out = list(range(0, rungs, step))
        if out[-1] != rungs - 1:
            out.append(rungs - 1)
        return out
    return sorted({low, high, 0} if low < 0 < high else {low, high})


class MatchChart(Widget):
    """Lines of the sides' standings after each deal (`series[side][deal]`, deal 0 = before
    the first); `rungs` names the values where they are rungs of a ladder; `deals_total` fixes
    the x axis where the match has a length (0: as far as it has gone)."""

    series = ListProperty([])
    names = ListProperty([])
    tones = ListProperty([])
    rungs = ListProperty([])
    deals_total = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plotted: list[list[tuple[float, float]]] = []
        self._redraw = Clock.create_trigger(self.draw, -1)
        for name in ("series", "names", "tones", "rungs", "deals_total", "pos", "size"):
            self.fbind(name, self._redraw)

    def bounds(self) -> tuple[int, int, int]:
        """(lowest value, highest value, last deal index) the axes span."""
        values = [v for line in self.series for v in line] or [0]
        if self.rungs:
            low, high = 0, len(self.rungs) - 1
        else:
            low, high = min(0, *values), max(0, *values)
            if low == high:
                high = low + 1
        deals = max((len(line) for line in self.series), default=1) - 1
        return low, high, max(MIN_DEALS, int(self.deals_total), deals)

    def draw(self, *_args: Any) -> None:
        self.canvas.clear()
        self.plotted = []
        if not self.series or self.width < 40 or self.height < 40:
            return
        low, high, last = self.bounds()
        legend_h = dp(22)
        left, bottom, right = self.x + dp(30), self.y + dp(18), self.right - dp(28)
        top = self.top - legend_h - dp(4)
        top_rung = len(self.rungs) - 1

        def px(i: int) -> float:
            return left + (right - left) * i / last

        def py(v: float) -> float:
            if self.rungs:
                v = min(v, top_rung + 0.6)  # past the top: just above it
            return bottom + (top - bottom) * (v - low) / (high - low)

        with self.canvas:
            for value in ticks(low, high, len(self.rungs)):  # grid and left axis labels
                Color(*GRID)
                Line(points=[left, py(value), right, py(value)], width=1)
                tex = _text(self.rungs[value] if self.rungs else str(value), 12)
                Color(*TEXT)
                Rectangle(texture=tex, size=tex.size,
                          pos=(left - tex.width - dp(5), py(value) - tex.height / 2))
            Color(*AXIS)
            Line(points=[left, top, left, bottom, right, bottom], width=dp(1.2))
            step = 1 if last <= 10 else 2 if last <= 20 else 5
            for i in range(1, last + 1):  # the deal numbers
                if i % step and i != last:
                    continue
                tex = _text(str(i), 11)
                Color(*TEXT)
                Rectangle(texture=tex, size=tex.size,
                          pos=(px(i) - tex.width / 2, self.y + dp(1)))
            for index, line in enumerate(self.series):
                tone = self.tones[index] if index < len(self.tones) else TEXT
                points = [(px(i), py(v)) for i, v in enumerate(line)]
                self.plotted.append(points)
                Color(*tone)
                if len(points) > 1:
                    # Earlier lines are wider: where sides stand level, every colour shows.
                    width = dp(2) + dp(1.2) * (len(self.series) - 1 - index)
                    Line(points=[c for p in points for c in p], width=width)
                r = dp(3.5)
                for x, y in points:
                    Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
            labelled: list[float] = []
            for index, line in enumerate(self.series):  # each line's latest value beside it
                if not line:
                    continue
                x, y = self.plotted[index][-1]
                if any(abs(y - other) < dp(14) for other in labelled):
                    continue  # level with a value already written
                labelled.append(y)
                value = line[-1]
                text = self.rungs[min(value, top_rung)] if self.rungs else str(value)
                tex = _text(text, 13, bold=True)
                tone = self.tones[index] if index < len(self.tones) else TEXT
                Color(*tone)
                left_of = x + dp(6) + tex.width > self.right
                Rectangle(texture=tex, size=tex.size,
                          pos=(x - dp(6) - tex.width if left_of else x + dp(6),
                               y - tex.height / 2))
            x = left
            for index, name in enumerate(self.names):  # the legend, one swatch and name each
                tone = self.tones[index] if index < len(self.tones) else TEXT
                tex = _text(name, 13)
                Color(*tone)
                Rectangle(pos=(x, self.top - legend_h / 2 - dp(5)), size=(dp(16), dp(10)))
                Color(*TEXT)
                Rectangle(texture=tex, size=tex.size,
                          pos=(x + dp(20), self.top - legend_h / 2 - tex.height / 2))
                x += dp(20) + tex.width + dp(14)
