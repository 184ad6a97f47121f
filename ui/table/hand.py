"""The human's hand: one widget for every game, picking one card or several.

Cards are addressed by index, so two identical cards (Tractor, Chắn) stay distinct. The hand
shows `codes` left to right with gaps between groups (`breaks`: suits, pairs; `groups`: a double
gap between kinds of groups), picked cards raised, hinted ones outlined and, with `dim_illegal`,
every card not in `legal` dimmed; `rows = 2` puts a long hand on two rows (portrait screens).

Picking: `multi = False` (Meri, Chắn) keeps at most one card picked, `multi = True` (Tractor)
any number; `toggle(index)` does what the mode says. The hand owns `picked` and clears it when
its cards change. Events: `on_pick(event, index)` with event `tap` (touch), `select` (SELECT
button) or `activate` (OK button); the table decides what a pick means. Touches use
slide-to-pick (`ui.table.slidepick`): the card under the finger is previewed and tapped on
release. Focus navigation moves over `views` (each a focusable `CardView`).
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from ui.table import cardsource
from ui.table.cardrows import fit
from ui.table.slidepick import SlidePick
from ui.table.widgets import CardView, sync_views

LIFT = 0.16  # a picked card rises by this fraction of its height
GAP = 0.35  # a gap between groups in a hand, in card widths
SPLIT_FROM = 7  # a two-row hand uses its second row from 2 × this many cards


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
