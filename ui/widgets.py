"""Small shared widgets: focusable buttons, labels that shrink to fit, a panel background.

Text never gets cut off: `FitLabel` and `FocusButton` wrap words inside their box and then lower
the font size until the text fits (down to `min_font`), in every language.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label

from ui.focus import Focusable
from ui.fonts import register_text_font

register_text_font()  # Roboto with the suit symbols: cards are named "K♥" (ui.card_names)

#: The frame (`Clock.frames`) whose text waits for the next frame (`hold_text`).
_text_waits = [-1]


def hold_text() -> None:
    """This frame has work enough (a table showing an action): the text it changes is fitted,
    laid out and drawn in the next frame instead, so that one frame does not pay for the
    table's change and all its words (a frame later, 1/60 s: nobody sees the difference)."""
    _text_waits[0] = Clock.frames


class _Fit:
    """Shrink `font_size` from `base_font` until the wrapped text fits the widget's box."""

    base_font = NumericProperty(sp(17))
    min_font = NumericProperty(sp(9))

    def _init_fit(self) -> None:
        self._fit_trigger = Clock.create_trigger(self._fit_due, -1)
        self._fit_next = Clock.create_trigger(lambda _dt: self.fit(), 0)  # the next frame
        # Every change the Label itself would lay out again (its text, colour, font...) is
        # fitted instead: the Label's own update, run before the fit, laid the new text out
        # once at the old font size for nothing (two layouts per change of text).
        self._trigger_texture.cancel()
        self._trigger_texture = self._fit_trigger
        self._fit_trigger()
        self.fbind("size", self._fit_trigger)
        self.fbind("text", self._fit_trigger)
        self.fbind("base_font", self._fit_trigger)

    def _fit_due(self, _dt: float) -> None:
        if _text_waits[0] == Clock.frames:
            self._fit_next()
        else:
            self.fit()

    def fit(self) -> None:
        self._fit_next.cancel()
        if self.width <= 1 or self.height <= 1:
            self.texture_update()  # no room to fit in: laid out as a plain Label would be
            self._trigger_texture.cancel()
            return
        pad_x, pad_y = self.padding[0] * 2, self.padding[1] * 2
        # Kivy wraps inside `text_size` less the padding again: a line holds width - 2 * pad_x.
        self.shorten = False
        self.text_size = (max(1, self.width - pad_x), None)
        size = self.base_font
        self.font_size = size
        self.texture_update()
        while size > self.min_font and (
            self.texture_size[1] > self.height
            or self.texture_size[0] > self.width
            or self._widest_word() > self.width - 2 * pad_x
        ):
            size = max(self.min_font, size * 0.9)
            self.font_size = size
            self.texture_update()
        if self.texture_size[1] > self.height:  # still too tall at the minimum: clip lines
            self.text_size = (max(1, self.width - pad_x), max(1, self.height - pad_y))
            self.shorten = True
            self.texture_update()
        # The texture matches every property now: the Label's own update, armed by the
        # changes above, would only lay the same text out once more in this frame.
        self._trigger_texture.cancel()

    def _widest_word(self) -> float:
        """Width of the longest word at the current font size: a word never breaks mid-word."""
        words = self.text.split()
        if not words:
            return 0.0
        return max(self._label.get_extents(word)[0] for word in words)


class FitLabel(_Fit, Label):
    """A label whose text is wrapped and shrunk to stay inside its box."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._init_fit()


class FocusButton(_Fit, Focusable, Button):
    """A button that takes focus (outline drawn in widgets.kv) and fits its text."""

    selected = BooleanProperty(False)  # e.g. the current language in a row of choices
    tone = ListProperty([0.20, 0.24, 0.30, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._init_fit()

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and not self.disabled:
            screen = _screen_of(self)
            if screen is not None:
                screen.set_focus(self)
        return super().on_touch_down(touch)


class Badge(Label):
    """A coloured rounded label (team colours, small status marks)."""

    tone = ListProperty([0.2, 0.2, 0.2, 0.9])
    note = StringProperty("")


def _screen_of(widget: Any) -> Any:
    node = widget.parent
    while node is not None and node is not node.parent:
        if hasattr(node, "set_focus") and hasattr(node, "handle_input"):
            return node
        node = node.parent
    return None
