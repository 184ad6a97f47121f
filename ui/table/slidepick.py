"""Slide-to-pick for hands of overlapping cards (`PickHand`, `HandStrip`).

On a small touchscreen a crowded hand shows only a narrow strip of each card, thinner than a
finger. So the hand, not each card, handles the touch: touch down previews the card under the
finger (outlined in the hand, plus an enlarged copy floating above the finger), sliding moves the
preview, and lifting the finger sends the same tap a tap on that card sends. Lifting the finger
more than about a card height above or below the cards cancels (no event).
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ui.table import cardsource

PREVIEW_RGBA = (1.0, 0.78, 0.2, 1.0)  # the outline of the previewed card in the hand
ZOOM = 1.7  # the floating copy is this many times the card's height...
ZOOM_MAX = 0.5  # ...but at most this fraction of the window's height
ZOOM_SNAP = 8  # its height snaps down to a multiple of this (card textures are cached per size)
AWAY = 1.0  # lifting the finger this many card heights above or below the cards cancels


class CardZoom(Widget):
    """The enlarged copy of the previewed card, drawn on the window above everything else."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), **kwargs)
        self.code = ""
        with self.canvas:
            self._shade = Color(1, 1, 1, 1)
            self._rect = Rectangle()
            Color(*PREVIEW_RGBA)
            self._line = Line(width=dp(2))
        self.fbind("pos", self._place)
        self.fbind("size", self._place)

    def show(self, deck: str, code: str, face: str, legal: bool) -> None:
        """Draw card `code` at this widget's size, greyed like the hand draws an illegal card."""
        self.code = code
        self._rect.texture = cardsource.card_texture(deck, code, face, self.width, self.height)
        self._shade.rgba = (1, 1, 1, 1) if legal else (0.42, 0.42, 0.42, 1)

    def _place(self, *_args: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size
        self._line.rounded_rectangle = (self.x - 1, self.y - 1, self.width + 2, self.height + 2,
                                        dp(5))


class SlidePick(Widget):
    """Base for a hand widget with `views` (its `CardView`s, later ones on top), `interactive`,
    `deck` and `codes` (listed first: `class PickHand(SlidePick, FloatLayout)`). The hand calls
    `slide_watch()` once and implements `slide_tap(index)`, which sends exactly what a tap on
    card `index` sends."""

    views: list[Any]  # the hand's CardViews, in drawing order
    interactive: bool  # a Kivy property of the hand: False, no touch is taken

    preview_index: int = -1  # the card previewed now (-1: none)
    preview_zoom: CardZoom | None = None  # the floating enlarged copy while one is shown
    _slide_touch: Any = None  # the touch sliding over the hand

    def slide_watch(self) -> None:
        """Drop a slide in progress when the cards change, the hand stops taking touches or
        leaves the screen."""
        for name in ("codes", "deck", "interactive", "disabled", "parent"):
            self.fbind(name, self.slide_cancel)

    def slide_tap(self, index: int) -> None:
        raise NotImplementedError

    def slide_cancel(self, *_args: Any) -> None:
        """End the slide without an event and remove the preview."""
        self._slide_touch = None
        self._slide_preview(-1, None)

    def slide_card_at(self, x: float, y: float) -> int:
        """The index of the card shown at (x, y), in the hand's coordinates, or -1.

        The topmost card containing the point (later cards lie on top); else, when the finger
        is above or below the cards, the card whose strip contains x in the nearest row."""
        views = [(i, v) for i, v in enumerate(self.views)
                 if v.focus_enabled and v.width > 0 and v.height > 0]
        for i, view in reversed(views):
            if view.collide_point(x, y):
                return i
        best, best_key = -1, (0.0, 0)
        for i, view in views:
            if not view.x <= x <= view.right:
                continue
            key = (max(view.y - y, y - view.top, 0.0), -i)
            if best < 0 or key < best_key:
                best, best_key = i, key
        return best

    def slide_away(self, y: float) -> bool:
        """The finger is more than `AWAY` card heights above or below the cards."""
        views = [v for v in self.views if v.focus_enabled]
        if not views:
            return True
        h = max(v.height for v in views)
        return y > max(v.top for v in views) + AWAY * h or y < min(v.y for v in views) - AWAY * h

    def on_touch_down(self, touch: Any) -> bool:
        if self._slide_touch is not None:  # one finger slides at a time; ignore the others
            if self.collide_point(*touch.pos):
                return True
            return super().on_touch_down(touch)
        if (not self.interactive or self.disabled
                or ("button" in touch.profile and touch.button.startswith("scroll"))
                or not self.collide_point(*touch.pos)):
            return super().on_touch_down(touch)
        index = self.slide_card_at(*touch.pos)
        if index < 0:
            return super().on_touch_down(touch)
        touch.grab(self)
        self._slide_touch = touch
        self._slide_preview(index, touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        if touch is self._slide_touch:
            away = self.slide_away(touch.y)
            self._slide_preview(-1 if away else self.slide_card_at(*touch.pos), touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        if touch is not self._slide_touch:  # the slide was cancelled meanwhile
            return True
        index = -1 if self.slide_away(touch.y) else self.slide_card_at(*touch.pos)
        self.slide_cancel()
        if index >= 0:
            self.slide_tap(index)
        return True

    def _slide_preview(self, index: int, touch: Any) -> None:
        """Outline card `index` (-1: none) and float its enlarged copy above the finger."""
        views = self.views
        if index != self.preview_index:
            if 0 <= self.preview_index < len(views):
                views[self.preview_index].set_outline("preview", None)
            self.preview_index = index
            if index >= 0:
                views[index].set_outline("preview", PREVIEW_RGBA, 3, 2)
        zoom = self.preview_zoom
        window = self.get_root_window()
        if index < 0 or window is None:
            if zoom is not None:
                if zoom.parent is not None:
                    zoom.parent.remove_widget(zoom)
                self.preview_zoom = None
            return
        view = views[index]
        h = min(view.height * ZOOM, window.height * ZOOM_MAX)
        h = max(view.height, float(int(h // ZOOM_SNAP) * ZOOM_SNAP))
        w = float(round(h * cardsource.aspect(view.deck)))
        if zoom is None:
            zoom = self.preview_zoom = CardZoom()
            window.add_widget(zoom)
        if zoom.size != [w, h] or zoom.code != view.code:
            zoom.size = (w, h)
            zoom.show(view.deck, view.code, view.face, view.legal)
        tx, ty = self.to_window(*touch.pos)
        top = self.to_window(0, max(v.top for v in views))[1]
        bottom = max(ty + dp(32), top + dp(6))
        zoom.pos = (min(max(0.0, tx - w / 2), window.width - w),
                    min(bottom, window.height - h))
