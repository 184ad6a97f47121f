"""Focus navigation: every control and card is reachable with LEFT RIGHT UP DOWN SELECT OK.

A widget takes part by mixing in `Focusable`; `widgets.kv` draws a thick outline around the
focused one. A screen moves focus with `pick()`: the nearest focusable widget whose centre lies
in the pressed direction, preferring widgets in line with the current one. Pure geometry, so it
works the same for a hand of overlapping cards, a row of buttons or a grid of settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kivy.graphics import Color, InstructionGroup, Line
from kivy.metrics import dp
from kivy.properties import BooleanProperty

Rect = tuple[float, float, float, float]  # x, y, width, height in window coordinates

DIRECTIONS = {"LEFT": (-1, 0), "RIGHT": (1, 0), "UP": (0, 1), "DOWN": (0, -1)}


class Outlined:
    """Rounded outlines drawn only while shown: an invisible instruction still costs fill time
    (software GL draws transparent lines too), so outlines are added and removed, not faded."""

    def set_outline(self, name: str, rgba: tuple | None, width: float = 2.5,
                    pad: float = 3.0) -> None:
        groups = self.__dict__.setdefault("_outlines", {})
        old = groups.pop(name, None)
        if old is not None:
            self.canvas.after.remove(old[0])
        if rgba is None:
            return
        line = Line(width=dp(width))
        group = InstructionGroup()
        group.add(Color(*rgba))
        group.add(line)
        self.canvas.after.add(group)
        groups[name] = (group, line, dp(pad))
        if len(groups) == 1:
            self.fbind("pos", Outlined._move_outlines)
            self.fbind("size", Outlined._move_outlines)
        self._move_outlines()

    def _move_outlines(self, *_args: Any) -> None:
        for _group, line, pad in self.__dict__.get("_outlines", {}).values():
            line.rounded_rectangle = (self.x - pad, self.y - pad, self.width + 2 * pad,
                                      self.height + 2 * pad, dp(7))


class Focusable(Outlined):
    """Mixin for widgets that can hold the focus (kivy behaviours are plain mixins like this)."""

    focused = BooleanProperty(False)
    focus_enabled = BooleanProperty(True)

    def on_focused(self, _widget: Any, value: bool) -> None:
        # White: it stands out on the felt, on dark buttons and on gold "selected" ones alike.
        self.set_outline("focus", (1, 1, 1, 1) if value else None, 3, 4)

    def focus_select(self) -> bool:
        """SELECT on the focused widget; True if handled. Buttons press, cards toggle."""
        return self.focus_ok()

    def focus_ok(self) -> bool:
        """OK on the focused widget; True if handled. Default: behave like a click."""
        press = getattr(self, "dispatch", None)
        if press is None or getattr(self, "disabled", False):
            return False
        self.dispatch("on_press")
        self.dispatch("on_release")
        return True


def _visible(widget: Any) -> bool:
    node = widget
    while node is not None:
        if getattr(node, "opacity", 1) <= 0 or getattr(node, "disabled", False):
            return False
        parent = node.parent
        if parent is node:
            break
        node = parent
    return widget.width > 1 and widget.height > 1


def is_candidate(widget: Any, root: Any) -> bool:
    """`widget` is one of `focusables(root)`, found without walking the whole tree (a table
    asks after every action; the walk visits every card)."""
    if not (isinstance(widget, Focusable) and widget.focus_enabled and _visible(widget)):
        return False
    root = root.__self__  # kv ids are weak proxies
    node = widget
    while node is not None:
        if node is root:
            return True
        parent = node.parent
        if parent is node:
            break
        node = parent
    return False


def focusables(root: Any) -> list[Any]:
    """Every focusable, enabled, visible widget under `root`, in tree order."""
    found = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Focusable) and widget.focus_enabled and _visible(widget):
            found.append(widget)
    return found


def window_rect(widget: Any) -> Rect:
    x, y = widget.to_window(widget.x, widget.y)
    return (x, y, widget.width, widget.height)


def pick(current: Rect, candidates: Sequence[Rect], direction: str) -> int | None:
    """Index of the candidate to move to from `current` in `direction`, or None if there is none.

    A candidate qualifies when its centre lies beyond `current`'s centre in that direction.
    Score = distance along the direction + 2 × the sideways offset, so a widget in the same row
    (or column) wins over a closer one diagonally.
    """
    dx, dy = DIRECTIONS[direction]
    cx, cy = current[0] + current[2] / 2, current[1] + current[3] / 2
    best: tuple[float, int] | None = None
    for index, (x, y, w, h) in enumerate(candidates):
        ox, oy = x + w / 2 - cx, y + h / 2 - cy
        along = ox * dx + oy * dy
        if along <= 1:
            continue
        side = abs(oy) if dx else abs(ox)
        score = along + 2 * side
        if best is None or score < best[0]:
            best = (score, index)
    return None if best is None else best[1]


def first(candidates: Iterable[Rect]) -> int | None:
    """The candidate to focus first: the top-left one (reading order)."""
    best: tuple[float, float, int] | None = None
    for index, (x, y, _w, h) in enumerate(candidates):
        key = (-(y + h), x, index)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]
