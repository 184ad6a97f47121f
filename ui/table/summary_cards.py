"""The summary's pictures: the cards that made a deal's score, drawn from the engine's typed
results (engine/result.py) for every game alike.

`SummaryBody` lays out, top to bottom: who won (and the deal the match is at, "Deal 2 of 5",
on its right), one chip per side with its score (Chắn's
settlement per player), each side's climb on the ladder where the game has one (Tractor's
levels, `LadderView`), one `GroupTile` per `CardGroup` (its label, what it is worth and its
cards in a `CardRow`), and the match's progress (`ui.table.charts.MatchChart`). It draws what
the result holds and never changes it; a game's only part is what its result carries.

Opening a summary must not build dozens of widgets in one frame: the body adds one part per
frame, and a part with cards only once the rows before it have all their cards (a `CardRow`
makes at most `cardrows.NEW_PER_FRAME` card views a frame), so a frame makes a handful.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from engine.result import CardGroup, Climb, DealResult, MatchResult
from ui.games import get
from ui.i18n import tr
from ui.table import cardsource, summary
from ui.table.cardrows import CardRow
from ui.table.charts import MatchChart

#: One colour per side, side 0 (the player's) first: the Okabe–Ito palette, told apart by
#: colour-blind eyes too; the charts use the same colours for the same sides.
SIDE_TONES: tuple[tuple[float, float, float, float], ...] = (
    (0.34, 0.71, 0.91, 1), (0.90, 0.62, 0.0, 1), (0.0, 0.62, 0.45, 1), (0.80, 0.47, 0.65, 1))
NEUTRAL = (0.55, 0.57, 0.6, 1)
FULL_WIDTH = 7  # groups of more cards than this take a whole row


def tone(side: int | None) -> tuple[float, float, float, float]:
    return SIDE_TONES[side % len(SIDE_TONES)] if side is not None else NEUTRAL


def signed(value: int) -> str:
    """A score with its sign (a true minus sign)."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


class SideChip(BoxLayout):
    """One side's name and score, with its colour (layout in table.kv)."""

    name = StringProperty("")
    score = StringProperty("")
    tone = ListProperty(list(NEUTRAL))
    winner = BooleanProperty(False)


class GroupTile(BoxLayout):
    """A `CardGroup`: its label and worth above its cards (layout in table.kv)."""

    text = StringProperty("")
    worth = StringProperty("")
    tone = ListProperty(list(NEUTRAL))
    deck = StringProperty("meri")
    codes = ListProperty([])
    breaks = ListProperty([])
    mark = NumericProperty(-1)
    card_height = NumericProperty(0)

    def row(self) -> CardRow | None:
        return self.ids.get("cards")


class LadderView(Widget):
    """A side's climb on a ladder of named rungs (Tractor's levels "2".."A"): every rung a box,
    the rung before the deal outlined, the rungs climbed filled in the side's colour, the
    rung reached bold; past the top, an arrow off the end. Drawn with canvas instructions."""

    rungs = ListProperty([])
    before = NumericProperty(0)
    after = NumericProperty(0)
    tone = ListProperty(list(NEUTRAL))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(self.draw, -1)
        for name in ("rungs", "before", "after", "tone", "pos", "size"):
            self.fbind(name, self._redraw)

    def boxes(self) -> list[tuple[float, float, float, float]]:
        """Each rung's box (x, y, w, h), low to high, left to right."""
        n = max(1, len(self.rungs))
        gap = dp(3)
        arrow = dp(14)
        w = max(1.0, (self.width - arrow - gap * (n - 1)) / n)
        return [(self.x + i * (w + gap), self.y, w, self.height) for i in range(n)]

    def draw(self, *_args: Any) -> None:
        self.canvas.clear()
        if not self.rungs or self.width < 10:
            return
        top = len(self.rungs) - 1
        low, high = sorted((self.before, self.after))
        with self.canvas:
            for i, (x, y, w, h) in enumerate(self.boxes()):
                climbed = low < i <= high if self.after > self.before else i == self.after
                reached = i == min(self.after, top)
                Color(*(self.tone if climbed or reached else (0.22, 0.25, 0.28, 1)))
                RoundedRectangle(pos=(x, y), size=(w, h), radius=[dp(4)])
                if i == self.before and self.after != self.before:
                    Color(1, 1, 1, 0.95)
                    Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, dp(4)), width=dp(1.5))
                label = CoreLabel(text=self.rungs[i], font_size=sp(15 if reached else 13),
                                  bold=reached)
                label.refresh()
                tex = label.texture
                Color(0.05, 0.05, 0.07, 1) if climbed or reached else Color(0.9, 0.9, 0.9, 1)
                Rectangle(texture=tex, size=tex.size,
                          pos=(x + (w - tex.width) / 2, y + (h - tex.height) / 2))
            if self.after > top:  # climbed off the top: the match is won
                x, y, w, h = self.boxes()[-1]
                Color(*self.tone)
                Line(points=[x + w + dp(2), y + h / 2, self.right - dp(2), y + h / 2],
                     width=dp(2))
                Line(points=[self.right - dp(7), y + h / 2 + dp(5), self.right - dp(2),
                             y + h / 2, self.right - dp(7), y + h / 2 - dp(5)], width=dp(2))


class ClimbRow(BoxLayout):
    """A side's name and its `LadderView` (layout in table.kv)."""

    name = StringProperty("")
    change = StringProperty("")
    tone = ListProperty(list(NEUTRAL))
    rungs = ListProperty([])
    before = NumericProperty(0)
    after = NumericProperty(0)


class TitleRow(BoxLayout):
    """Who won the deal, and on its right the deal the match is at (layout in table.kv)."""

    text = StringProperty("")
    deal_text = StringProperty("")


class MatchBox(BoxLayout):
    """The match's progress: its standing in words and, from the second deal on, a `MatchChart`
    (layout in table.kv); after the first deal a chart would be a stub line per side from zero,
    which tells nothing the words and the side tiles above do not."""

    text = StringProperty("")


Part = Callable[[], Widget | None]  # a part to add (None: work done in place, e.g. a chart)


class SummaryBody(StackLayout):
    """The pictures of a finished deal and of the match so far, built a part a frame."""

    deck = StringProperty("meri")
    building = BooleanProperty(False)  # parts are still being added
    compact = BooleanProperty(False)  # a narrow screen: every tile a whole row
    scale = NumericProperty(1.0)  # card size factor (a tall portrait screen has room to spare)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._queue: list[Part] = []
        self._next = Clock.create_trigger(self._add_next, 0)
        self.rows: list[CardRow] = []
        self.chart: MatchChart | None = None
        self._shown: tuple[DealResult, MatchResult | None] | None = None
        self._value: summary.ValueFormat | None = None
        self._texts: list[Callable[[], None]] = []  # each part's words, redone on a new language
        self._notes: list[str] = []
        self._bound: list[Callable[..., None]] = []  # parts following the body's width

    # -- what is shown ---------------------------------------------------------------------
    def show(self, deal: DealResult, match: MatchResult | None,
             value: summary.ValueFormat | None = None, notes: Sequence[str] = ()) -> None:
        """Draw `deal` and `match` (a one-deal match has no progress to show), with the table's
        `notes` (in words) under the title: replaces what was shown; the parts arrive over the
        next frames. The same results again (a language switch) only redo the words, in place."""
        self._value = value
        self._notes = list(notes)
        if self._shown == (deal, match) and not self._queue:
            for redo in self._texts:
                redo()
            return
        self.clear()
        self._shown = (deal, match)
        parts: list[Part] = []
        if deal.winners or deal.lines or summary.progress_line(match):
            parts.append(lambda: self._title(deal, match))
        if notes:
            parts.append(self._note)
        if not deal.climbs:  # a chip a frame (four players' chips at once are a heavy frame)
            parts += [lambda i=index: self._chip(deal, i) for index in range(len(deal.sides))]
        parts += [lambda c=climb: self._climb(deal, c) for climb in deal.climbs]
        parts += [lambda g=group: self._tile(g) for group in deal.groups]
        if match is not None and match.deals_total != 1 and len(match.history) >= 2:
            parts.append(lambda: self._match(match))
        self._queue = parts
        self.building = bool(parts)
        self._next()

    def _add_next(self, *_args: Any) -> None:
        if not self._queue:
            self.building = False
            return
        if any(len(row.views) < len(row.codes) for row in self.rows):
            self._next()  # the rows before still make their cards: wait a frame
            return
        part = self._queue.pop(0)()
        if part is not None:
            self._add(part)
        self._next()

    def _add(self, part: Widget) -> None:
        """Add a part laid out at once: it never shows a frame at a layout's default size
        (100×100 at the corner) before the next frame's layout pass reaches it."""
        self.add_widget(part)
        self.do_layout()
        for widget in part.walk(restrict=True):
            layout = getattr(widget, "do_layout", None)
            if layout is not None:
                layout()

    def clear(self) -> None:
        """Show nothing (the next `show` builds every part anew)."""
        self._shown = None
        self._queue = []
        self.building = False
        self.clear_widgets()
        self.rows = []
        self.chart = None
        self._texts = []
        for fit in self._bound:
            self.funbind("width", fit)
        self._bound = []

    def ready(self) -> bool:
        """Every part is added and every card drawn (a cold card texture waits for a frame's
        drawing budget, `cardsource.BUDGET`)."""
        return not self.building and all(
            len(row.views) == len(row.codes) and not any(v.pending for v in row.views)
            for row in self.rows)

    def finish(self) -> None:
        """Add every remaining part now (tests, screenshots)."""
        while self._queue:
            part = self._queue.pop(0)()
            if part is not None:
                self._add(part)
        self.building = False

    # -- the parts ---------------------------------------------------------------------------
    def _words(self, redo: Callable[[], None]) -> None:
        """Fill a part's words now and again on a new language."""
        redo()
        self._texts.append(redo)

    def _title(self, deal: DealResult, match: MatchResult | None) -> Widget:
        row = TitleRow(size_hint=(1, None), height=dp(40))

        def words() -> None:  # who won; on a drawn deal, how it was drawn (its first line)
            text = summary.winner_line(deal) or "".join(
                summary.render(deal.lines[:1], self._value))
            row.text = f"[b]{text}[/b]" if text else ""
            row.deal_text = summary.progress_line(match)

        self._words(words)
        return row

    def _note(self) -> Widget:
        """The table's notes, wrapped to the body's width (a lesson's closing words are long)."""
        label = Label(font_size=sp(16), size_hint=(1, None), halign="left", valign="top",
                      color=(0.85, 0.9, 1, 1), markup=True)
        label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                   texture_size=lambda w, size: setattr(w, "height", size[1] + dp(6)))
        label.text_size = (self.width if self.width > 200 else Window.width * 0.9, None)
        self._words(lambda: setattr(label, "text", "\n".join(n for n in self._notes if n)))
        label.texture_update()
        label.height = label.texture_size[1] + dp(6)
        return label

    def _chip(self, deal: DealResult, index: int) -> Widget:
        numbers = len(deal.sides) > 2  # players as sides: a settlement, signed
        score = deal.sides[index].score
        chip = SideChip(score=signed(score) if numbers else str(score), tone=list(tone(index)),
                        winner=index in deal.winners, size_hint=(None, None), height=dp(46))
        n = len(deal.sides)

        def fit(*_args: Any) -> None:  # n chips and their gaps fill one row exactly
            gaps = self.spacing[0] if isinstance(self.spacing, (list, tuple)) else self.spacing
            chip.width = max(1.0, (self.width - (n - 1) * gaps) / n - 0.5)

        fit()
        self.fbind("width", fit)
        self._bound.append(fit)
        self._words(lambda: setattr(chip, "name", summary.side_markup(deal.sides, index)))
        return chip

    def _climb(self, deal: DealResult, climb: Climb) -> Widget:
        steps = climb.after - climb.before
        row = ClimbRow(change=signed(steps) if steps else "", tone=list(tone(climb.side)),
                       rungs=list(deal.rungs), before=climb.before, after=climb.after,
                       size_hint=(1, None), height=dp(44))
        self._words(lambda: setattr(row, "name", summary.side_markup(deal.sides, climb.side)))
        return row

    def _tile(self, group: CardGroup) -> Widget:
        cards = len(group.cards)
        deck = self.deck
        # tall enough for the index to read at arm's length (`UiGame.summary_card_dp`)
        sizes = get(deck)
        height = dp(sizes.summary_hand_dp if group.breaks else sizes.summary_card_dp)
        height = round(height * self.scale)
        if group.breaks:  # a hand in its pairs stays side by side, its gaps showing
            room = (self.width if self.width > 200 else Window.width * 0.9) - dp(16)
            fit = room / (cards + 0.25 * len(group.breaks)) / cardsource.aspect(deck)
            height = max(dp(sizes.summary_card_dp) * 0.8, min(height, int(fit)))
        width = self.width if self.width > 200 else Window.width * 0.9
        side_by_side = cards * height * cardsource.aspect(deck) * 1.04 <= width / 2 - dp(16)
        half = 0 < cards <= FULL_WIDTH and side_by_side and not self.compact
        if not cards:  # a label of its own: a bonus of the whole hand, the way it adds up
            half = group.points is None and not self.compact
            height = 0
        tile = GroupTile(
            worth=str(group.points) if group.points else "",
            tone=list(tone(group.side)), deck=deck,
            breaks=list(group.breaks), mark=group.mark, card_height=height,
            size_hint=(0.5 if half else 1, None), height=height + dp(34))
        self._words(lambda: setattr(tile, "text", summary.render([group.label], self._value)[0]))
        row = tile.row()
        if row is not None and cards:
            self.rows.append(row)
            # Its cards the next frame: the tile's own widgets and its first cards at once
            # made the heaviest frame of a Chắn summary.
            self._queue.insert(0, lambda: setattr(tile, "codes", list(group.cards)))
        return tile

    def _match(self, match: MatchResult) -> Widget:
        if len(match.history) < 3:  # one deal done: the words say all a chart's stubs could
            box = MatchBox(size_hint=(1, None), height=dp(30))

            def standing() -> None:
                notes = summary.render(match.lines[:1], self._value)
                box.text = notes[0] if notes else tr("Match")

            self._words(standing)
            return box
        box = MatchBox(size_hint=(1, None), height=round(dp(170) * self.scale ** 2))
        chart = MatchChart(
            series=[list(col) for col in zip(*match.history, strict=True)],
            tones=[list(tone(i)) for i in range(len(match.sides))],
            rungs=list(match.rungs), deals_total=match.deals_total or 0)

        def words() -> None:
            notes = summary.render(match.lines[:1], self._value)
            box.text = notes[0] if notes else tr("Match")
            chart.names = [summary.side_name(match.sides, i) for i in range(len(match.sides))]

        self._words(words)
        self.chart = chart
        self._queue.insert(0, lambda: box.ids.chart_slot.add_widget(chart))  # drawn next frame
        return box
