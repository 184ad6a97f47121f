"""Rows of cards: how cards fit a box (`fit`, shared with the hand) and `CardRow`, a read-only
row of small cards fitted to its box (a play in a trick, a gate, exposed pairs, the kitty, point
cards, the winning hand on a summary), one of them optionally outlined.

A row on a table is `legible` (issue 35): its cards are never drawn smaller than
`legible_height`, the least height at which the deck's index (rank and suit mark) is
`MIN_INDEX` px tall, readable at arm's length from a 7" panel. When the box is too small for
that, the cards are overlapped down to their index, wrapped onto more lines, and tucked: each
line lies over the lower part of the one above, and the last shows only its top band
(`CardView.full_height`), the index with it (decks whose index is in the top corner only).
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from ui import cards
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
#: px: the least height of a card's index glyphs on a table (tests/ui/test_hand_legibility.py).
MIN_INDEX = 14.0
#: px between the bottom of a tucked card's index and the edge of the card lying over it.
TUCK_MARGIN = 3.0


@cache
def legible_height(deck: str) -> int:
    """The least card height (a multiple of `SNAP`, as rows draw) at which a card of `deck`
    prints its index glyphs at least `MIN_INDEX` px tall."""
    h = 2 * SNAP
    while h < 400:
        c = cards.corner(deck, *cards.size_for(deck, h))
        if min(c.glyph, c.suit) >= MIN_INDEX:
            return h
        h += SNAP
    return h


def tuck_depth(deck: str, height: float) -> float:
    """How much of a `height`-px card of `deck` must show for its index to read: the depth of
    its index plus a margin, or the whole card for a deck whose index reaches its foot."""
    depth = cards.corner(deck, *cards.size_for(deck, height)).depth + TUCK_MARGIN
    return float(height) if depth >= height - SNAP else depth


def wrap(groups: list[int], width: float, w: float, step: float, gap: float) -> list[list[int]]:
    """Card indexes by line: runs of `groups[i]` cards (e.g. pairs) left to right, cards `w`
    wide at `step`, `gap` px more before each run; a run that would pass `width` starts a new
    line (a run longer than a line is split)."""
    lines: list[list[int]] = [[]]
    left = 0.0  # the left edge of the line's last card
    index = 0
    for size in groups:
        if lines[-1] and left + gap + step * size + w > width:
            lines.append([])
        for k in range(size):
            if lines[-1]:
                left += step + (gap if k == 0 else 0.0)
                if left + w > width:
                    lines.append([])
            if not lines[-1]:
                left = 0.0
            lines[-1].append(index)
            index += 1
    return lines


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
    #: Cards at least `legible_height` tall, wrapped and tucked to fit (a table's rows; a
    #: summary's pictures are laid out their own way).
    legible = BooleanProperty(False)
    #: How tall a `legible` row must be to show its cards at its width: its lines of cards
    #: overlapped down to their index, each line tucked under the next (0: no cards). A box
    #: that grows with its cards (Tractor's points) takes this height.
    needed_height = NumericProperty(0)

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
                     "align", "max_card", "legible"):
            self.fbind(name, self._relayout)
        for name in ("codes", "breaks", "width", "deck", "legible"):
            self.fbind(name, self._need)

    def _need(self, *_args: Any) -> None:
        """`needed_height` for the row's cards at its width."""
        n = len(self.codes)
        if not self.legible or not n:
            self.needed_height = 0
            return
        cw, ch = (float(v) for v in cards.size_for(self.deck, legible_height(self.deck)))
        step = cards.corner(self.deck, cw, ch).width + 1
        bounds = [0, *sorted(b for b in self.breaks if 0 < b < n), n]
        count = len(wrap([b - a for a, b in zip(bounds, bounds[1:], strict=False)],
                         self.width, cw, step, 2.0))
        depth = tuck_depth(self.deck, ch)
        self.needed_height = count * ch + (count - 1) * 2 if depth >= ch else count * depth

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
        if self.legible and h < legible_height(self.deck):
            return cards.size_for(self.deck, legible_height(self.deck))
        return int(w), int(h)

    def place_all(self) -> None:
        """Make and place a view for every card now, whatever this frame's budget: a flight
        must find the card it lands on in the frame it starts (a row otherwise spreads its new
        views over frames, and a card made a frame late would be shown where it lands before
        its flight)."""
        if len(self.views) < len(self.codes):
            self._layout(all_now=True)

    def _layout(self, *_args: Any, all_now: bool = False) -> None:
        """Place the cards in the row; at most `NEW_PER_FRAME` new views a frame and only
        within the frame's `VIEWS` budget, each at its final place (the rest follow in the
        next frames); `all_now` makes every missing view in this frame (`place_all`)."""
        codes = list(self.codes)
        if len(codes) <= len(self.views):
            shown = len(codes)
            leaving = self.views[shown:]
            sync_views(self, self.views, shown, self._view)
            for view in leaving:
                view.size = (0, 0)  # as a new one: no card drawn before the row places it
            self._spare.extend(reversed(leaving))
        else:
            most = len(codes) if all_now else min(len(codes), len(self.views) + NEW_PER_FRAME)
            while len(self.views) < most and (all_now or VIEWS.allows()):
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
        places = self._legible_places(len(codes), sorted(breaks), h, step, gap) \
            if self.legible else None
        if places is None:
            places = self._places(len(codes), breaks, w, h, step, gap)
        for i, (view, code) in enumerate(zip(self.views, codes[:shown], strict=True)):
            x, y, cw, ch, whole = places[i]
            view.deck = self.deck
            view.code = code
            view.face = self.face
            view.full_height = whole if whole > ch else 0
            view.size = (cw, ch)
            view.winner = self.marked or i == self.mark
            view.pos = (x, y)

    def _places(self, n: int, breaks: set[int], w: float, h: float, step: float,
                gap: float) -> list[tuple[float, float, float, float, float]]:
        """One line of `n` cards `w`×`h` at `step` (the row's own fit): (x, y, w, h, h) each."""
        total = w + step * (n - 1) + len(breaks) * gap * w
        if self.align == "left":
            x = self.x
        elif self.align == "right":
            x = self.right - total
        else:
            x = self.x + (self.width - total) / 2
        y = self.y + (self.height - h) / 2 if self.align == "center" else self.top - h
        out = []
        for i in range(n):
            if i in breaks:
                x += gap * w
            out.append((x, y, w, h, h))
            x += step
        return out

    def _legible_places(self, n: int, breaks: list[int], h: float, step: float,
                        gap: float) -> list[tuple[float, float, float, float, float]] | None:
        """Where `n` cards go so that each index reads (`legible_height`), or None when the
        row's own fit already does (`h` tall, its index clear of the next card at `step`)
        or the box cannot hold them legibly even wrapped and tucked."""
        deck = self.deck
        least = legible_height(deck)
        corner = cards.corner(deck, *cards.size_for(deck, max(h, least)))
        if h >= least and (n == 1 or step >= corner.width + 1):
            return None
        cw, ch = (float(v) for v in cards.size_for(deck, least))
        corner = cards.corner(deck, cw, ch)
        depth = tuck_depth(deck, ch)
        bounds = [0, *breaks, n]
        groups = [b - a for a, b in zip(bounds, bounds[1:], strict=False)]
        gap_px = gap * cw
        for step_x, group_gap in ((cw, gap_px), (corner.width + 1, 2.0)):
            # side by side if the lines fit, else overlapped down to the index
            lines = wrap(groups, self.width, cw, step_x, group_gap)
            pitch = self._pitch(len(lines), ch, depth)
            if pitch is not None:
                break
        else:
            return None
        out: list[tuple[float, float, float, float, float]] = [(0.0, 0.0, 0.0, 0.0, 0.0)] * n
        starts = set(breaks)
        used = (len(lines) - 1) * pitch + ch
        drop = (self.height - used) / 2 if self.align == "center" and used < self.height else 0.0
        for number, line in enumerate(lines):
            top = self.top - drop - number * pitch
            shown = min(ch, top - self.y)  # a line reaching below the box: its top band
            width = cw + step_x * (len(line) - 1) + group_gap * sum(
                1 for index in line[1:] if index in starts)
            if self.align == "left":
                x = self.x
            elif self.align == "right":
                x = self.right - width
            else:
                x = self.x + (self.width - width) / 2
            for k, index in enumerate(line):
                if k and index in starts:
                    x += group_gap
                out[index] = (x, top - shown, cw, shown, ch)
                x += step_x
        return out

    def _pitch(self, count: int, ch: float, depth: float) -> float | None:
        """How far apart `count` lines of `ch`-px cards go down the box, each showing at least
        `depth` of its cards (the next line lies over the rest); None if they cannot."""
        room = self.height
        if count == 1:
            return 0.0 if room >= depth else None
        if room >= ch + (count - 1) * depth:  # the last line whole
            return min((room - ch) / (count - 1), ch + 2.0)
        pitch = room / count  # every line tucked, the last one too
        return pitch if pitch >= depth else None
