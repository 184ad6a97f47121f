"""Rows of cards: how cards fit a box (`fit`, shared with the hand) and `CardRow`, a read-only
row of small cards fitted to its box (a play in a trick, a gate, exposed pairs, the kitty, point
cards, the winning hand on a summary), one of them optionally outlined.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from ui.table import cardsource
from ui.table.widgets import CardView, sync_views

MIN_STEP = 0.3  # overlapped cards keep at least this fraction of their width visible
SNAP = 8  # card heights are whole multiples of this many pixels (texture cache reuse)
#: Card views a row makes in one frame: a summary's twenty-card hand is spread over a few
#: frames (each card's texture is drawn within the frame budget anyway, `cardsource.BUDGET`).
NEW_PER_FRAME = 6
#: And the UI-thread CPU all rows may spend making views in one frame (the first view of a
#: frame is always made): a new widget costs ~0.5 ms here, more on a loaded machine, and the
#: frame that opens a summary has its own work.
VIEWS = cardsource.FrameBudget(0.0015)


def fit(n: int, gaps: int, width: float, height: float, ratio: float, gap: float,
        spread: float = 1.04) -> tuple[float, float, float]:
    """Card width, height and step so `n` cards (with `gaps` extra gaps of `gap` card widths)
    fit in `width` × `height`: side by side if they can, else overlapped, else smaller.

    Heights snap down to a multiple of `SNAP` pixels: card textures are cached per pixel size,
    so a few sizes (not one per hand length) keep memory and cold draws down."""
    n = max(1, n)
    h = height
    w = h * ratio
    if w * (1 + MIN_STEP * (n - 1) + gaps * gap) > width:  # too wide even when overlapped
        w = width / (MIN_STEP * (n - 1) + 1 + gaps * gap)
        h = w / ratio
    h = max(4.0, float(int(h // SNAP) * SNAP)) if h >= 2 * SNAP else max(4.0, float(int(h)))
    w = float(round(h * ratio))
    step = w * spread
    if n > 1 and w + step * (n - 1) + gaps * gap * w > width:
        step = max(1.0, (width - w - gaps * gap * w) / (n - 1))
    return w, h, step


class CardRow(FloatLayout):
    """Small face-up (or back) cards in a row fitted to the box; `mark` outlines one of them."""

    deck = StringProperty("tractor")
    codes = ListProperty([])
    face = StringProperty(cardsource.FACE)
    mark = NumericProperty(-1)  # index of the outlined card (an open card)
    marked = BooleanProperty(False)  # outline every card (the play winning the trick)
    breaks = ListProperty([])  # indexes before which a small gap separates groups (pairs)
    align = StringProperty("center")  # "left", "center" or "right"
    max_card = NumericProperty(0)  # the tallest a card may be (0: the row's height)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views: list[CardView] = []
        #: Views taken off the row, kept for its next cards: a trick row empties and fills
        #: again every trick, and a widget dropped is a few hundred objects in reference
        #: cycles for a garbage collection to walk in some later frame (and a new one costs
        #: its building).
        self._spare: list[CardView] = []
        self._relayout = Clock.create_trigger(self._layout, -1)
        self._more = Clock.create_trigger(self._layout, 0)  # the next frame: more views
        for name in ("codes", "face", "mark", "marked", "breaks", "size", "pos", "deck",
                     "align", "max_card"):
            self.fbind(name, self._relayout)

    def _view(self) -> CardView:
        """A card view for the row: one it showed before if any (see `_layout`), else new."""
        if self._spare:
            return self._spare.pop()
        # No size until the row places it: a view made while the row has no room yet (and so
        # is not placed) would draw its card at Kivy's default 100x100.
        view = CardView(deck=self.deck, size_hint=(None, None), size=(0, 0))
        view.focus_enabled = False
        return view

    def single_size(self) -> tuple[int, int]:
        """The size of a card alone in this row (and of each card while the row is not full):
        the size a table draws ahead for the cards that may land here."""
        tallest = min(self.height, self.max_card) if self.max_card > 0 else self.height
        w, h, _step = fit(1, 0, self.width, tallest, cardsource.aspect(self.deck), 0.25,
                          spread=1.0)
        return int(w), int(h)

    def _layout(self, *_args: Any) -> None:
        """Place the cards in the row; at most `NEW_PER_FRAME` new views a frame and only
        within the frame's `VIEWS` budget, each at its final place (the rest follow in the
        next frames)."""
        codes = list(self.codes)
        if len(codes) <= len(self.views):
            shown = len(codes)
            leaving = self.views[shown:]
            sync_views(self, self.views, shown, self._view)
            for view in leaving:
                view.size = (0, 0)  # as a new one: no card drawn before the row places it
            self._spare.extend(reversed(leaving))
        else:
            most = min(len(codes), len(self.views) + NEW_PER_FRAME)
            while len(self.views) < most and VIEWS.allows():
                begin = time.thread_time()
                sync_views(self, self.views, len(self.views) + 1, self._view)
                VIEWS.charge(time.thread_time() - begin)
            shown = len(self.views)
        if shown < len(codes):
            self._more()
        if not codes or self.width < 4 or self.height < 4:
            return
        breaks = {b for b in self.breaks if 0 < b < len(codes)}
        gap = 0.25
        tallest = min(self.height, self.max_card) if self.max_card > 0 else self.height
        w, h, step = fit(len(codes), len(breaks), self.width, tallest,
                         cardsource.aspect(self.deck), gap, spread=1.0)
        total = w + step * (len(codes) - 1) + len(breaks) * gap * w
        if self.align == "left":
            x = self.x
        elif self.align == "right":
            x = self.right - total
        else:
            x = self.x + (self.width - total) / 2
        y = self.y + (self.height - h) / 2 if self.align == "center" else self.top - h
        for i, (view, code) in enumerate(zip(self.views, codes[:shown], strict=True)):
            if i in breaks:
                x += gap * w
            view.deck = self.deck
            view.code = code
            view.face = self.face
            view.size = (w, h)
            view.winner = self.marked or i == self.mark
            view.pos = (x, y)
            x += step
