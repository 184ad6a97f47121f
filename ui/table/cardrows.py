"""Card widgets for tables with duplicate cards and several cards per play (Tractor, Chắn).

- `PickHand`: a hand whose cards are addressed by index (two identical cards stay distinct),
  with any number of cards picked (raised), hinted cards outlined, dimmed illegal cards,
  gaps between groups (suits, pairs), and optionally two rows (a long hand on a tall screen). Events: `on_pick(event, index)` with event `tap`
  (touch), `select` (SELECT button) or `activate` (OK button). Touches use slide-to-pick
  (`ui.table.slidepick`): the card under the finger is previewed and tapped on release.
- `CardRow`: a read-only row of small cards fitted to its box (a play in a trick, a gate,
  exposed pairs, the kitty, point cards), one of them optionally outlined.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from ui.table import cardsource
from ui.table.slidepick import SlidePick
from ui.table.widgets import CardView

LIFT = 0.16  # a picked card rises by this fraction of its height
MIN_STEP = 0.3  # overlapped cards keep at least this fraction of their width visible
SNAP = 8  # card heights are whole multiples of this many pixels (texture cache reuse)
GAP = 0.35  # a gap between groups in a hand, in card widths
SPLIT_FROM = 7  # a two-row hand uses its second row from 2 × this many cards


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


class PickHand(SlidePick, FloatLayout):
    """A hand of cards addressed by index; see the module docstring."""

    deck = StringProperty("tractor")
    codes = ListProperty([])
    picked = ListProperty([])  # indexes of raised (selected) cards
    hinted = ListProperty([])  # indexes outlined (a hint, the cards from the kitty)
    legal = ListProperty([])  # indexes that may be chosen now (others dimmed if dim_illegal)
    dim_illegal = BooleanProperty(False)
    breaks = ListProperty([])  # indexes before which a gap separates groups
    groups = ListProperty([])  # indexes before which a double gap separates kinds of groups
    interactive = BooleanProperty(True)
    rows = NumericProperty(1)  # 2: a long hand takes two rows (portrait screens)

    __events__ = ("on_pick",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views: list[CardView] = []
        self._relayout = Clock.create_trigger(self._layout, -1)
        for name in ("codes", "picked", "hinted", "legal", "dim_illegal", "breaks", "groups",
                     "size", "pos", "interactive", "deck", "rows"):
            self.fbind(name, self._relayout)
        self.slide_watch()

    def on_pick(self, event: str, index: int) -> None:
        pass

    def _view(self) -> CardView:
        view = CardView(deck=self.deck, size_hint=(None, None))
        view.bind(
            on_tap=lambda v: self._send("tap", v),
            on_select=lambda v: self._send("select", v),
            on_activate=lambda v: self._send("activate", v),
        )
        return view

    def slide_tap(self, index: int) -> None:
        """A tap on card `index` (slide-to-pick released on it)."""
        if 0 <= index < len(self.views):
            self._send("tap", self.views[index])

    def _send(self, event: str, view: CardView) -> None:
        if view in self.views:
            self.dispatch("on_pick", event, self.views.index(view))

    def _layout(self, *_args: Any) -> None:
        codes = list(self.codes)
        while len(self.views) < len(codes):
            view = self._view()
            self.views.append(view)
            self.add_widget(view)
        while len(self.views) > len(codes):
            view = self.views.pop()
            view.focused = False
            self.remove_widget(view)
        gaps = [0] * (len(codes) + 1)  # gaps before each card
        for b in self.breaks:
            if 0 < b < len(codes):
                gaps[b] += 1
        for b in self.groups:
            if 0 < b < len(codes):
                gaps[b] += 1
        split = self._split(len(codes))
        rows = [(0, split), (split, len(codes))] if split else [(0, len(codes))]
        row_h = self.height / len(rows)
        ratio = cardsource.aspect(self.deck)
        sizes = [fit(b - a, sum(gaps[a + 1:b]), self.width, row_h / (1 + LIFT), ratio, GAP)
                 for a, b in rows]
        w, h = min(s[0] for s in sizes), min(s[1] for s in sizes)  # one card size for the hand
        picked, hinted, legal = set(self.picked), set(self.hinted), set(self.legal)
        for r, (a, b) in enumerate(rows):
            step = min(sizes[r][2], w * 1.04)
            inner = sum(gaps[a + 1:b])
            total = w + step * (b - a - 1) + inner * GAP * w
            x = self.x + max(0.0, (self.width - total) / 2)
            y = self.y + row_h * (len(rows) - 1 - r)  # the first row on top
            for i in range(a, b):
                view = self.views[i]
                if i > a:
                    x += gaps[i] * GAP * w
                view.deck = self.deck
                view.code = codes[i]
                view.size = (w, h)
                view.selected = i in picked
                view.winner = i in hinted and i not in picked
                view.legal = (i in legal) or not self.dim_illegal
                view.focus_enabled = self.interactive
                view.pos = (x, y + (h * LIFT if i in picked else 0))
                x += step

    def _split(self, n: int) -> int:
        """Where the second row starts (0: one row): at the group break nearest the middle."""
        if self.rows < 2 or n < 2 * SPLIT_FROM:
            return 0
        middle = n / 2
        candidates = [b for b in self.breaks if n / 3 <= b <= 2 * n / 3]
        if candidates:
            return min(candidates, key=lambda b: abs(b - middle))
        return n // 2


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
        self._relayout = Clock.create_trigger(self._layout, -1)
        for name in ("codes", "face", "mark", "marked", "breaks", "size", "pos", "deck",
                     "align", "max_card"):
            self.fbind(name, self._relayout)

    def _layout(self, *_args: Any) -> None:
        codes = list(self.codes)
        while len(self.views) < len(codes):
            view = CardView(deck=self.deck, size_hint=(None, None))
            view.focus_enabled = False
            self.views.append(view)
            self.add_widget(view)
        while len(self.views) > len(codes):
            self.remove_widget(self.views.pop())
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
        for i, (view, code) in enumerate(zip(self.views, codes, strict=True)):
            if i in breaks:
                x += gap * w
            view.deck = self.deck
            view.code = code
            view.face = self.face
            view.size = (w, h)
            view.winner = self.marked or i == self.mark
            view.pos = (x, y)
            x += step
