"""Reusable table widgets: a card, a trick area, seat badges, seat geometry.

Nothing here knows a game's rules: a table screen feeds these widgets what its game's
observation says (which cards, which are legal, who is to act) and reacts to their events.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from ui import cards
from ui.focus import Focusable, Outlined
from ui.table import cardsource

#: A card that may not be played now is drawn dimmed: its colours times `DIM_BODY` (table.kv),
#: clearly darker than the cards that may be played, but its index (rank and suit,
#: `ui.cards.index_boxes`) times `DIM_INDEX` only, so that it still reads at arm's length: dark
#: ink on light paper (tests/ui/test_dimmed_cards.py measures it). Dimmed all over, the
#: paper turned a muddy grey the red ranks and suits hardly stood out from (issue 35).
DIM_BODY = 0.42
DIM_INDEX = 0.85


class CardView(Focusable, Widget):
    """One card. `face`: face up, back, or a face-down trump. Events: tap (touch), select
    (SELECT button), activate (OK button). Not `legal`: drawn dimmed, its index kept legible
    (`DIM_BODY`, `DIM_INDEX`)."""

    deck = StringProperty("meri")
    code = StringProperty("")
    face = OptionProperty(cardsource.FACE, options=[cardsource.FACE, cardsource.BACK,
                                                    cardsource.FACEDOWN])
    legal = BooleanProperty(True)  # False: drawn dimmed (a card that may not be played now)
    selected = BooleanProperty(False)
    winner = BooleanProperty(False)  # the card that won the trick on show
    texture = ObjectProperty(None, allownone=True)
    #: The card changed and its texture waits for a later frame's drawing budget: draw nothing
    #: rather than the card it showed before.
    pending = BooleanProperty(False)
    #: A card tucked under the one below it (`ui.table.cardrows`): the card is drawn this many
    #: px tall and only its top `height` px show, the index with them (0: the whole card).
    full_height = NumericProperty(0)

    __events__ = ("on_tap", "on_select", "on_activate")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shows: tuple[str, str, str] | None = None  # the card `texture` depicts
        self._redraw = Clock.create_trigger(self._update_texture, -1)
        self._later = Clock.create_trigger(self._update_texture, 0)  # the next frame
        for name in ("deck", "code", "face", "size", "full_height"):
            self.fbind(name, self._redraw)
        self._redraw()
        # the index of a dimmed face, over the card table.kv draws dimmed (only while dimmed)
        self._index = InstructionGroup()
        self.canvas.add(self._index)
        self._reindex = Clock.create_trigger(self._draw_index, -1)
        for name in ("legal", "texture", "pending", "pos", "size"):
            self.fbind(name, self._reindex)

    def on_winner(self, _view: Any, _value: bool) -> None:
        self._mark()

    def on_selected(self, _view: Any, _value: bool) -> None:
        self._mark()

    def _mark(self) -> None:
        rgba = (0.3, 1, 0.45, 1) if self.winner else (0.35, 0.85, 1, 1) if self.selected else None
        self.set_outline("mark", rgba, 2.5, 1)

    def _update_texture(self, *_args: Any) -> None:
        """Show the card at the current size; a cold card beyond this frame's drawing budget
        waits for the next frame (a card only resized keeps its old texture, stretched)."""
        card = (self.deck, self.code, self.face)
        tall = max(self.full_height, self.height)
        ready, texture = cardsource.budgeted_texture(*card, self.width, tall)
        if ready:
            self._later.cancel()
            if texture is not None and tall > self.height >= 1:  # tucked: its top band only
                tw, th = texture.size
                shown = max(1, min(th, round(th * self.height / tall)))
                texture = texture.get_region(0, th - shown, tw, shown)
            self._shows, self.texture, self.pending = card, texture, False
            return
        if card != self._shows:
            self.pending = True
        if self.parent is not None:  # a view taken off the table waits until it is back
            self._later()

    def _draw_index(self, *_args: Any) -> None:
        """A dimmed face: its index drawn again over it, less dimmed (`DIM_INDEX`), from the
        same texture; nothing for a card that may be played, a back, or a card not drawn yet."""
        group = self._index
        texture = self.texture
        if (self.legal or self.pending or texture is None or self.face != cardsource.FACE
                or not self.code):
            if group.length():
                group.clear()
            return
        group.clear()
        tw, th = texture.size
        sx, sy = self.width / tw, self.height / th  # (a resized card keeps its texture a while)
        whole = th * max(self.full_height, self.height) / max(1.0, self.height)  # tucked: taller
        group.add(Color(DIM_INDEX, DIM_INDEX, DIM_INDEX, 1))
        for x, y_whole, w, h in cards.index_boxes(self.deck, tw, whole):
            y = y_whole - (whole - th)  # from the bottom of the band that shows
            x0, y0 = max(0, int(x)), max(0, int(y))
            x1, y1 = min(tw, math.ceil(x + w)), min(th, math.ceil(y + h))
            if x1 > x0 and y1 > y0:
                group.add(Rectangle(texture=texture.get_region(x0, y0, x1 - x0, y1 - y0),
                                    pos=(self.x + x0 * sx, self.y + y0 * sy),
                                    size=((x1 - x0) * sx, (y1 - y0) * sy)))

    def on_parent(self, _view: Any, parent: Any) -> None:
        if parent is not None and self.pending:
            self._redraw()

    def restyle(self) -> None:
        """The decks' style changed (`ui.cards.set_colour_safe`): draw this card again, and
        until then nothing (it is done from the settings screen, while no table shows)."""
        self._shows = None
        self._redraw()

    def focus_select(self) -> bool:
        self.dispatch("on_select")
        return True

    def focus_ok(self) -> bool:
        self.dispatch("on_activate")
        return True

    def on_touch_down(self, touch: Any) -> bool:
        if not self.focus_enabled or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.grab(self)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        if self.collide_point(*touch.pos):
            self.dispatch("on_tap")
        return True

    def on_tap(self) -> None:
        pass

    def on_select(self) -> None:
        pass

    def on_activate(self) -> None:
        pass


def sync_views(parent: Widget, views: list[CardView], n: int,
               make: Callable[[], CardView]) -> None:
    """Grow or shrink `views` (children of `parent`) to `n` card views, new ones from `make`;
    a removed view gives up the focus."""
    while len(views) < n:
        view = make()
        views.append(view)
        parent.add_widget(view)
    while len(views) > n:
        view = views.pop()
        view.focused = False
        parent.remove_widget(view)


class SeatBadge(Outlined, FloatLayout):
    """A seat: name, team colour, cards left, and marks for dealer / to act / status."""

    seat = NumericProperty(0)
    name = StringProperty("")
    tone = ListProperty([0.2, 0.4, 0.8, 1])
    cards_left = NumericProperty(0)
    active = BooleanProperty(False)  # this seat is to act
    dealer = BooleanProperty(False)
    status = StringProperty("")  # e.g. "declared", "thinking…"

    def on_active(self, _badge: Any, value: bool) -> None:
        self.set_outline("active", (1, 0.85, 0.15, 1) if value else None, 3, 2)


class TrickArea(FloatLayout):
    """The cards on the table: one slot per seat at relative positions `slots` ([(rx, ry)]).

    `cards[seat]` = (code, face) or None. A card appearing in a slot slides in from
    `origins[seat]` (window-relative positions of the seat badges) over `slide_seconds`.
    """

    deck = StringProperty("meri")
    slots = ListProperty([])
    cards = ListProperty([])
    winner = NumericProperty(-1)
    origins = ListProperty([])
    slide_seconds = NumericProperty(0.25)
    card_height = NumericProperty(dp(60))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views: list[CardView] = []
        self._shown: list[Any] = []
        self._sliding: set[int] = set()
        self._relayout = Clock.create_trigger(self._layout, -1)
        for name in ("slots", "cards", "winner", "size", "pos", "card_height"):
            self.fbind(name, self._relayout)

    def _view(self) -> CardView:
        view = CardView(deck=self.deck, size_hint=(None, None), opacity=0)
        view.focus_enabled = False
        return view

    def _target(self, seat: int, w: float, h: float) -> tuple[float, float]:
        rx, ry = self.slots[seat]
        return (self.x + rx * self.width - w / 2, self.y + ry * self.height - h / 2)

    def _layout(self, *_args: Any) -> None:
        n = len(self.slots)
        sync_views(self, self.views, n, self._view)
        self._shown = (self._shown + [None] * n)[:n]
        h = self.card_height
        w = h * cardsource.aspect(self.deck)
        for seat, view in enumerate(self.views[:n]):
            entry = self.cards[seat] if seat < len(self.cards) else None
            target = self._target(seat, w, h)
            view.size = (w, h)
            if entry is None:
                Animation.cancel_all(view)
                self._sliding.discard(seat)
                view.opacity = 0
                view.code = ""
                self._shown[seat] = None
                continue
            code, face = entry
            view.deck = self.deck
            view.code = code
            view.face = face
            view.winner = seat == self.winner
            view.opacity = 1
            if self._shown[seat] is None and seat < len(self.origins) and self.slide_seconds > 0:
                ox, oy = self.origins[seat]
                view.pos = (ox - w / 2, oy - h / 2)
                Animation.cancel_all(view)
                slide = Animation(pos=target, d=self.slide_seconds, t="out_quad")
                slide.bind(on_complete=lambda *_a, s=seat: self._sliding.discard(s))
                self._sliding.add(seat)
                slide.start(view)
            elif seat not in self._sliding:
                view.pos = target
            self._shown[seat] = entry


def ring(n: int, rx: float = 0.5, ry: float = 0.5, cx: float = 0.5, cy: float = 0.5) -> list:
    """Relative positions of `n` seats around an ellipse, seat 0 at the bottom, play clockwise
    (seen from above: bottom, left, top, right)."""
    out = []
    for seat in range(n):
        angle = -math.pi / 2 - 2 * math.pi * seat / n  # clockwise from the bottom
        out.append((cx + rx * math.cos(angle), cy + ry * math.sin(angle)))
    return out
