"""`CardWidget`: one card on a table, drawn from the cached textures of `ui.cards`.

Properties: `deck`, `code`, `face_up`, `trump_mark` (face down with the trump badge, for Meri's
face-down trumps), `selected` (lifted), `legal` (False dims the card: it cannot be played now),
`highlighted` (a gold outline, e.g. the card just played or a hint) and `focused` (the thick
outline of the button-navigation focus). Changing `deck` clears a `code` the new deck does not
have; an unknown `code` raises ValueError like `ui.cards.texture`. A tap inside the card fires `on_press`; in an
overlapping fan the card drawn last (on top) receives the touch first, as players expect.
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

import ui.cards as cards

FOCUS_RGBA = (1.0, 0.76, 0.0, 1.0)
HIGHLIGHT_RGBA = (0.2, 0.85, 0.35, 1.0)
DIM_RGBA = (0.0, 0.0, 0.0, 0.45)


class CardWidget(Widget):
    deck = StringProperty("tractor")
    code = StringProperty("")
    face_up = BooleanProperty(True)
    trump_mark = BooleanProperty(False)
    selected = BooleanProperty(False)
    legal = BooleanProperty(True)
    highlighted = BooleanProperty(False)
    focused = BooleanProperty(False)
    #: How far a selected card rises, as a fraction of its height.
    lift = NumericProperty(0.15)

    __events__ = ("on_press",)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self._card_color = Color(1, 1, 1, 1)
            self._card = Rectangle()
            self._dim_color = Color(*DIM_RGBA)
            self._dim = Rectangle()
            self._outline_color = Color(*FOCUS_RGBA)
            self._outline = Line(width=1)
        self.fbind("pos", self._redraw)
        self.fbind("size", self._redraw)
        for name in ("deck", "code", "face_up", "trump_mark", "selected", "legal",
                     "highlighted", "focused", "lift"):
            self.fbind(name, self._redraw)
        self._redraw()

    def on_deck(self, _widget: Widget, deck: str) -> None:
        """A code of the old deck means nothing in the new one: clear it (no error mid-change)."""
        if self.code and self.code not in cards.CODES.get(deck, ()):
            self.code = ""

    def card_texture(self):
        """The texture shown now, or None while the widget has no usable size or no code."""
        w, h = int(round(self.width)), int(round(self.height))
        if w < 1 or h < 1:
            return None
        if not self.face_up:
            if self.trump_mark:
                return cards.facedown(self.deck, w, h)
            return cards.back(self.deck, w, h)
        if not self.code:
            return None
        return cards.texture(self.deck, self.code, w, h)

    def _redraw(self, *_args: object) -> None:
        texture = self.card_texture()
        x, y = self.x, self.y + (self.height * self.lift if self.selected else 0.0)
        size = (self.width, self.height) if texture is not None else (0, 0)
        self._card.texture = texture
        self._card.pos, self._card.size = (x, y), size
        self._dim.pos = (x, y)
        self._dim.size = size if (texture is not None and not self.legal) else (0, 0)
        radius = min(self.width, self.height) * 0.08
        self._outline.rounded_rectangle = (x, y, self.width, self.height, max(radius, 1.0))
        if texture is not None and (self.focused or self.highlighted):
            self._outline_color.rgba = FOCUS_RGBA if self.focused else HIGHLIGHT_RGBA
            self._outline.width = dp(3) if self.focused else dp(2)
        else:
            self._outline_color.rgba = (0, 0, 0, 0)  # hidden

    def collide_point(self, x: float, y: float) -> bool:
        lifted = self.height * self.lift if self.selected else 0.0
        return self.x <= x <= self.right and self.y + lifted <= y <= self.top + lifted

    def on_touch_down(self, touch) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        self.dispatch("on_press")
        return True

    def on_press(self) -> None:
        """Default handler: nothing; tables bind to it."""
