"""The human's hand: one widget for every game, picking one card or several.

Cards are addressed by index, so two identical cards (Tractor, Chắn) stay distinct. The hand
shows `codes` left to right with gaps between groups (`breaks`: suits, pairs; `groups`: a double
gap between kinds of groups), picked cards raised, hinted ones outlined and, with `dim_illegal`,
every card not in `legal` dimmed.

Legibility first (`plan`): the hand takes the largest cards whose index (`ui.cards.corner`)
shows whole on every card, each overlapped card keeping at least `MIN_STRIP` px. With `rows = 2`
a long hand may take two rows, split at the group break nearest its middle, the second row lying
over the lower part of the first below its indexes; it does when that gives larger indexes.

Picking: `multi = False` (Meri, Chắn) keeps at most one card picked, `multi = True` (Tractor)
any number; `toggle(index)` does what the mode says. The hand owns `picked` and clears it when
its cards change. Events: `on_pick(event, index)` with event `tap` (touch), `select` (SELECT
button) or `activate` (OK button); the table decides what a pick means. Touches use
slide-to-pick (`ui.table.slidepick`): the card under the finger is previewed and tapped on
release. Focus navigation moves over `views` (each a focusable `CardView`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from ui import cards
from ui.table import cardsource
from ui.table.cardrows import SNAP, fit
from ui.table.slidepick import SlidePick
from ui.table.widgets import CardView, sync_views

LIFT = 0.16  # a picked card rises by this fraction of its height
GAP = 0.35  # a gap between groups in a hand, in card widths
SPLIT_FROM = 7  # a two-row hand uses its second row from 2 × this many cards
MIN_STRIP = 20.0  # px of an overlapped card left showing, at least (a fingertip; issue 20)
INDEX_PAD = 2.0  # px an overlapping card or row leaves showing beyond the index
SPREAD = 1.04  # cards that do not need to overlap stand this many widths apart


@dataclass(frozen=True)
class Plan:
    """A hand's layout: card size, the step between cards of a row, where the second row
    starts (0: one row), and how far below the first row's top the second row's top lies."""

    w: float
    h: float
    step: float
    split: int
    drop: float
    glyph: float  # the index's glyph height at this size (what the plan maximises)


def plan(deck: str, n: int, gaps: list[int], width: float, height: float, split: int,
         gap: float = GAP) -> Plan | None:
    """The cards of `deck` with the largest index (then the largest cards) whose index shows
    whole on each of `n` cards in the box, in one row (`split` = 0) or two (the second from
    index `split`), or None if none fits. `gaps[i]` counts the group gaps (of `gap` card
    widths) before card i."""
    ratio = cardsource.aspect(deck)
    rows = [(0, split), (split, n)] if split else [(0, n)]
    best: Plan | None = None
    h = float(int(height / (1 + LIFT) // SNAP) * SNAP)
    while h >= 2 * SNAP:
        w = float(round(h * ratio))
        corner = cards.corner(deck, w, h)
        need = max(MIN_STRIP, corner.width + INDEX_PAD)
        drop = min(h, corner.depth + INDEX_PAD) if split else 0.0
        step = w * SPREAD
        for a, b in rows:
            room = width - w - sum(gaps[a + 1:b]) * gap * w
            if b - a > 1:
                step = min(step, room / (b - a - 1))
            elif room < 0:
                step = -1.0
        if (step >= need and h * (1 + LIFT) + drop <= height
                and (best is None or corner.glyph > best.glyph)):
            best = Plan(w, h, step, split, drop, corner.glyph)
        h -= SNAP
    return best


class Hand(SlidePick, FloatLayout):
    """A hand of cards addressed by index; see the module docstring."""

    deck = StringProperty("meri")
    codes = ListProperty([])
    multi = BooleanProperty(False)  # several cards may be picked (else at most one)
    picked = ListProperty([])  # indexes of raised (picked) cards, ascending
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
        self.fbind("codes", self._forget_picks)
        self.slide_watch()

    def on_pick(self, event: str, index: int) -> None:
        pass

    # -- picking -----------------------------------------------------------------------------
    def toggle(self, index: int) -> None:
        """Pick card `index`, or unpick it if it is picked; one card at most unless `multi`."""
        if not 0 <= index < len(self.codes):
            return
        if index in self.picked:
            self.picked = [i for i in self.picked if i != index]
        elif self.multi:
            self.picked = sorted([*self.picked, index])
        else:
            self.picked = [index]

    def _forget_picks(self, *_args: Any) -> None:
        """Other cards, other indexes: a pick never carries over to a changed hand."""
        self.picked = []

    def card_view(self, code: str) -> CardView | None:
        """The (first) view showing `code`."""
        for view in self.views:
            if view.code == code:
                return view
        return None

    # -- events ------------------------------------------------------------------------------
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

    # -- layout ------------------------------------------------------------------------------
    def _layout(self, *_args: Any) -> None:
        codes = list(self.codes)
        sync_views(self, self.views, len(codes), self._view)
        gaps = [0] * (len(codes) + 1)  # gaps before each card
        for b in (*self.breaks, *self.groups):
            if 0 < b < len(codes):
                gaps[b] += 1
        layout = self._plan(len(codes), gaps)
        split = layout.split
        rows = [(0, split), (split, len(codes))] if split else [(0, len(codes))]
        w, h = layout.w, layout.h
        top = self.y + (self.height + h * (1 + LIFT) + layout.drop) / 2 - h * LIFT  # row 1's top
        picked, hinted, legal = set(self.picked), set(self.hinted), set(self.legal)
        for r, (a, b) in enumerate(rows):
            step = layout.step
            inner = sum(gaps[a + 1:b])
            total = w + step * (b - a - 1) + inner * GAP * w
            x = self.x + max(0.0, (self.width - total) / 2)
            y = top - h - r * layout.drop
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

    def _plan(self, n: int, gaps: list[int]) -> Plan:
        """The layout with the largest legible indexes (see `plan`): one row, or two when that
        reads better; if no size shows every index whole (a box far too small), the cards are
        fitted to the box as before, overlapped down to `cardrows.MIN_STEP`."""
        best: Plan | None = None
        for split in {0, self._split(n)}:
            if self.width <= 0 or self.height <= 0:
                break
            option = plan(self.deck, n, gaps, self.width, self.height, split)
            if option is not None and (best is None or (option.glyph, option.h, -option.split)
                                       > (best.glyph, best.h, -best.split)):
                best = option
        if best is not None:
            return best
        w, h, step = fit(n, sum(gaps[1:n]), self.width, self.height / (1 + LIFT),
                         cardsource.aspect(self.deck), GAP)
        return Plan(w, h, min(step, w * SPREAD), 0, 0.0, 0.0)

    def _split(self, n: int) -> int:
        """Where the second row starts (0: one row): at the group break nearest the middle."""
        if self.rows < 2 or n < 2 * SPLIT_FROM:
            return 0
        middle = n / 2
        candidates = [b for b in self.breaks if n / 3 <= b <= 2 * n / 3]
        if candidates:
            return min(candidates, key=lambda b: abs(b - middle))
        return n // 2
