"""The human's hand: one widget for every game, picking one card or several.

Cards are addressed by index, so two identical cards (Tractor, Chắn) stay distinct. The hand
shows `codes` left to right with gaps between groups (`breaks`: suits, pairs; `groups`: a double
gap between kinds of groups), picked cards raised, hinted ones outlined and, with `dim_illegal`,
every card not in `legal` dimmed.

Legibility first (`plan`): the hand takes the largest cards whose index (`ui.cards.corner`)
shows whole on every card, each overlapped card keeping at least `MIN_STRIP` px. With `rows` > 1
a long hand may take up to that many rows, split at the group breaks nearest equal shares, each
row lying over the lower part of the row above below its indexes; it does when that gives larger
indexes.

Picking: `multi = False` (Meri, Chắn) keeps at most one card picked, `multi = True` (Tractor)
any number; `toggle(index)` does what the mode says. The hand owns `picked` and clears it when
its cards change. Events: `on_pick(event, index)` with event `tap` (touch), `select` (SELECT
button) or `activate` (OK button); the table decides what a pick means. Touches use
slide-to-pick (`ui.table.slidepick`): the card under the finger is previewed and tapped on
release. Focus navigation moves over `views` (each a focusable `CardView`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
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
SPLIT_FROM = 7  # a hand takes k rows only from k × this many cards
MIN_STRIP = 20.0  # px of an overlapped card left showing, at least (a fingertip; issue 20)
INDEX_PAD = 2.0  # px an overlapping card or row leaves showing beyond the index
SPREAD = 1.04  # cards that do not need to overlap stand this many widths apart


@dataclass(frozen=True)
class Plan:
    """A hand's layout: card size, the step between cards of a row, where each row after the
    first starts (none: one row), and how far below a row's top the next row's top lies."""

    w: float
    h: float
    step: float
    splits: tuple[int, ...]
    drop: float
    glyph: float  # the index's glyph height at this size (what the plan maximises)


def plan(deck: str, n: int, gaps: list[int], width: float, height: float,
         splits: tuple[int, ...] = (), gap: float = GAP, tallest: float = 0) -> Plan | None:
    """The cards of `deck` with the largest index (then the largest cards) whose index shows
    whole on each of `n` cards in the box, in one row or (`splits`: where each further row
    starts) several, or None if none fits. `gaps[i]` counts the group gaps (of `gap` card
    widths) before card i; no card taller than `tallest` (if not 0)."""
    ratio = cardsource.aspect(deck)
    edges = [0, *splits, n]
    rows = list(zip(edges, edges[1:], strict=False))
    best: Plan | None = None
    top = min(height / (1 + LIFT), tallest) if tallest > 0 else height / (1 + LIFT)
    h = float(int(top // SNAP) * SNAP)
    while h >= 2 * SNAP:
        w = float(round(h * ratio))
        corner = cards.corner(deck, w, h)
        need = max(MIN_STRIP, corner.width + INDEX_PAD)
        drop = min(h, corner.depth + INDEX_PAD) if splits else 0.0
        if drop >= h:  # an index down to the foot (Chắn): a picked card rises clear of it
            drop = h * (1 + LIFT)
        step = w * SPREAD
        for a, b in rows:
            room = width - w - sum(gaps[a + 1:b]) * gap * w
            if b - a > 1:
                step = min(step, room / (b - a - 1))
            elif room < 0:
                step = -1.0
        if (step >= need and h * (1 + LIFT) + drop * len(splits) <= height
                and (best is None or corner.glyph > best.glyph)):
            best = Plan(w, h, step, splits, drop, corner.glyph)
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
    rows = NumericProperty(1)  # the most rows a long hand may take (see the module docstring)
    #: The tallest a card may be (0: as the box allows): a tall portrait hand sized for the
    #: dealer's cards would otherwise draw its last few cards huge (a face past
    #: `ui.cards.paint.COMPACT_BELOW` prints a larger index only when much larger).
    max_card = NumericProperty(0)
    #: The large-cards setting, for the table's kv to size the hand from (`large: app.large_cards`
    #: on a line of its own: a size rule that read `app` would re-read kv's app proxy whenever
    #: the screen is resized, even after the app stopped, and keep the stopped app there).
    large = BooleanProperty(False)

    __events__ = ("on_pick",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views: list[CardView] = []
        self._relayout = Clock.create_trigger(self._layout, -1)
        for name in ("codes", "picked", "hinted", "legal", "dim_illegal", "breaks", "groups",
                     "size", "pos", "interactive", "deck", "rows", "max_card"):
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
        edges = [0, *layout.splits, len(codes)]
        rows = list(zip(edges, edges[1:], strict=False))
        w, h = layout.w, layout.h
        block = h * (1 + LIFT) + layout.drop * len(layout.splits)  # the rows, a lift above
        top = self.y + (self.height + block) / 2 - h * LIFT  # the first row's top
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
        """The layout with the largest legible indexes (see `plan`): one row, or more when that
        reads better; if no size shows every index whole (a box far too small), the cards are
        fitted to the box as before, overlapped down to `cardrows.MIN_STEP`."""
        best: Plan | None = None
        for k in range(1, int(self.rows) + 1):
            if self.width <= 0 or self.height <= 0 or (k > 1 and n < k * SPLIT_FROM):
                break
            option = plan(self.deck, n, gaps, self.width, self.height, self._splits(n, k),
                          tallest=self.max_card)
            if option is not None and (best is None or (option.glyph, option.h)
                                       > (best.glyph, best.h)):
                best = option
        if best is not None:
            return best
        w, h, step = fit(n, sum(gaps[1:n]), self.width, self.height / (1 + LIFT),
                         cardsource.aspect(self.deck), GAP)
        return Plan(w, h, min(step, w * SPREAD), (), 0.0, 0.0)

    def _splits(self, n: int, k: int) -> tuple[int, ...]:
        """Where rows 2..k start: near each equal share of the cards (within a sixth of the
        hand for two rows), at group breaks where that keeps the rows about as long (a row cut
        inside a group counts as 1.5 cards longer)."""
        breaks = set(self.breaks)
        options = []
        for r in range(1, k):
            share = n * r / k
            near = {b for b in breaks if abs(b - share) <= n / (2 * k + 2)}
            options.append(sorted(near | {round(share)}))
        best: tuple[float, tuple[int, ...]] | None = None
        for splits in product(*options):
            edges = [0, *splits, n]
            if any(a >= b for a, b in zip(edges, edges[1:], strict=False)):
                continue
            longest = max(b - a + GAP * sum(1 for g in breaks if a < g < b)
                          for a, b in zip(edges, edges[1:], strict=False))
            cost = longest + 1.5 * sum(1 for g in splits if g not in breaks)
            if best is None or cost < best[0]:
                best = (cost, tuple(splits))
        return best[1] if best is not None else ()
