"""The one place the table gets card images from: `ui.cards` (the project's own card art).

Drawing a card is the costliest thing the UI thread does (a few ms on an idle desktop, 15-60 ms
under software GL on a loaded machine), and a trick that shows several new cards at once draws
them all in one frame. `WARMER` draws the faces a table asks for ahead of need, one card per
frame (`TableScreen.warm_cards`).
"""

from __future__ import annotations

from collections import deque

from kivy.clock import Clock
from kivy.graphics.texture import Texture

from ui import cards

FACE, BACK, FACEDOWN = "face", "back", "facedown"

#: Smaller cards are not drawn at all (nothing on them would be legible): a row squeezed to a
#: few pixels during a relayout must not draw a deck of textures nobody can see.
MIN_WIDTH, MIN_HEIGHT = 6, 10


class Warmer:
    """Draws the faces of a deck at the sizes tables asked for, one card per frame, in the order
    asked. Asking again for a queued size is free; cards already drawn are skipped at no cost."""

    def __init__(self) -> None:
        self.queued: set[tuple[str, int, int]] = set()
        self.todo: deque[tuple[str, str, int, int]] = deque()
        self.drawn = 0  # cards drawn ahead (a figure for tests and benchmarks)
        self._event = None

    def warm(self, deck: str, width: int, height: int) -> None:
        """Draw every face of `deck` at `width`×`height` soon, one per frame."""
        key = (deck, width, height)
        if width < MIN_WIDTH or height < MIN_HEIGHT or key in self.queued:
            return
        self.queued.add(key)
        self.todo.extend((deck, code, width, height) for code in cards.CODES[deck])
        if self._event is None:
            self._event = Clock.schedule_interval(self._slice, 0)

    def _slice(self, _dt: float) -> bool:
        """One frame's share: draw the next card not drawn yet; False stops the interval."""
        while self.todo:
            deck, code, w, h = self.todo.popleft()
            if ("face", deck, code, w, h) not in cards.CACHE:
                cards.texture(deck, code, w, h)
                self.drawn += 1
                break
        if not self.todo:
            self._event = None
            self.queued.clear()
            return False
        return True


WARMER = Warmer()


def aspect(deck: str) -> float:
    """Width / height of the deck's cards."""
    return cards.ASPECT[deck]


def card_texture(deck: str, code: str, face: str, width: float, height: float) -> Texture | None:
    """The texture of a card shown `face` (face up, back, or face-down trump); None if too small."""
    w, h = int(width), int(height)
    if w < MIN_WIDTH or h < MIN_HEIGHT:
        return None
    if face == BACK or not code and face == FACE:
        return cards.back(deck, w, h)
    if face == FACEDOWN:
        return cards.facedown(deck, w, h)
    return cards.texture(deck, code, w, h)
