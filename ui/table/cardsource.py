"""The one place the table gets card images from: `ui.cards` (the project's own card art).

Drawing a card is the costliest thing the UI thread does (about 1.5-2 ms of CPU on the
development machine under software GL, three times that on a Pi 4 core), and a hand, a row or
a trick that shows many new cards at once would draw them all in one frame. So a cold card is
drawn in stages (`ui.cards.staged`: the scratch Fbo of a new size, the painting, the Fbo drawing
and read-back), and card widgets draw within `BUDGET`, a per-frame allowance of CPU time for
cold cards: past it, a card's next stage waits for the next frame (`budgeted_texture`), and
`WARMER` draws the faces a table asks for ahead of need, only while the frame's budget is
unspent (`TableScreen.warm_cards`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from kivy.clock import Clock
from kivy.graphics.texture import Texture

from ui import cards

FACE, BACK, FACEDOWN = "face", "back", "facedown"

#: Smaller cards are not drawn at all (nothing on them would be legible): a row squeezed to a
#: few pixels during a relayout must not draw a deck of textures nobody can see.
MIN_WIDTH, MIN_HEIGHT = 6, 10


class FrameBudget:
    """The UI-thread CPU time card drawing may take in one frame (`seconds`): the first cold
    card stage of a frame is drawn, later ones only while the frame's spending is below. A
    frame that shows a table's action (`busy`, or kept for one: `reserve_next`) has work enough
    and draws none, unless a card on show waited in a busy frame just before (none waits two
    busy frames running); the frame after it (its text, `ui.widgets.hold_text`) one stage."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._frame = -1
        self._spent = 0.0
        self._drawn = 0
        self._deferred = -2  # the last frame in which a shown card had to wait
        self._deferred_busy = -2  # ... and the last such frame that showed a table's action
        self._busy = -1  # the last frame that showed a table's action
        self._reserved = -1  # a frame kept for a table's action put off to it (`reserve_next`)

    def _today(self) -> None:
        if Clock.frames != self._frame:
            self._frame, self._spent, self._drawn = Clock.frames, 0.0, 0

    def allows(self) -> bool:
        """True if no card (stage) was drawn yet this frame, or the drawing is still below
        budget; in a frame that shows a table's action, only a first stage for a card that
        waited in a busy frame just before; in the frame after it, one stage."""
        self._today()
        if self.is_busy():
            return self._drawn == 0 and self._deferred_busy == Clock.frames - 1
        if self._busy == Clock.frames - 1:  # the text of that action is laid out now
            return self._drawn == 0
        return self._drawn == 0 or self._spent < self.seconds

    def charge(self, seconds: float) -> None:
        """Count one card (stage) drawn in `seconds` against this frame."""
        self._today()
        self._spent += seconds
        self._drawn += 1

    def drawn(self) -> bool:
        """A card (stage) was drawn in this frame already."""
        self._today()
        return self._drawn > 0

    def busy(self) -> None:
        """This frame does a table's work (an action shown): nothing is drawn ahead in it."""
        self._busy = Clock.frames

    def reserve_next(self) -> None:
        """A table's action was put off to the next frame (this one drew a card): that frame
        is busy from its start."""
        self._reserved = Clock.frames + 1

    def put_off(self, then: Callable[[], None]) -> bool:
        """If this frame drew a card already, put the table's work `then` off to the next
        frame, kept for it from its start (`reserve_next`), and say so (True); else False:
        run it now. The caller puts a piece of work off once, never twice."""
        if not self.drawn():
            return False
        self.reserve_next()
        Clock.schedule_once(lambda _dt: then(), 0)
        return True

    def is_busy(self) -> bool:
        return Clock.frames in (self._busy, self._reserved)

    def defer(self) -> None:
        """A card on show waits for a later frame (the warmer lets it go first)."""
        self._deferred = Clock.frames
        if self.is_busy():
            self._deferred_busy = Clock.frames

    def cards_waiting(self) -> bool:
        """A card on show waited in this frame or the one before: drawing ahead must wait."""
        return Clock.frames - self._deferred <= 1


#: About one cold card per frame here (two if they are small), so that a frame showing new
#: cards stays well inside a 60 fps frame on a Pi.
BUDGET = FrameBudget(0.002)


class Warmer:
    """Draws the faces of a deck at the sizes tables asked for, in the order asked, in stages
    (`ui.cards.render.Staged`) within each frame's `BUDGET`. Asking again for a queued size is free; cards already drawn are skipped at no cost."""

    def __init__(self) -> None:
        self.queued: set[tuple[str, int, int]] = set()
        self.todo: deque[tuple[str, str, int, int]] = deque()
        self.drawn = 0  # cards drawn ahead (a figure for tests and benchmarks)
        self.asked: dict[str, set[tuple[str, int, int]]] = {}  # the sizes each asker wants now
        self._event = None
        self._late = Clock.create_trigger(self._draw_one, -1)  # before the frame is drawn

    def warm(self, deck: str, width: int, height: int) -> None:
        """Draw every face of `deck` at `width`×`height` soon, a few stages per frame."""
        key = (deck, width, height)
        if width < MIN_WIDTH or height < MIN_HEIGHT or key in self.queued:
            return
        self.queued.add(key)
        self.todo.extend((deck, code, width, height) for code in cards.CODES[deck])
        if self._event is None:
            self._event = Clock.schedule_interval(self._slice, 0)

    def request(self, asker: str, deck: str, sizes: list[tuple[int, int]]) -> None:
        """`asker` (a table) wants `deck` drawn at `sizes` now: `warm` them, and drop the sizes
        it asked for before and no longer wants (a layout passing through transient sizes must
        not leave a whole deck to draw at a size nobody shows)."""
        wanted = {(deck, int(w), int(h)) for w, h in sizes}
        others = set().union(*(keys for who, keys in self.asked.items() if who != asker))
        stale = self.asked.get(asker, set()) - wanted - others
        self.asked[asker] = wanted
        if stale:
            self.queued -= stale
            self.todo = deque(item for item in self.todo
                              if (item[0], item[2], item[3]) not in stale)
        for key in sorted(wanted):
            self.warm(*key)

    def _slice(self, _dt: float) -> bool:
        """Each frame: draw a card at the frame's end (after its own work); False stops."""
        if not self.todo:
            self._event = None
            self.queued.clear()
            return False
        self._late()
        return True

    def _draw_one(self, _dt: float) -> None:
        """Draw the next stages of the cards not drawn yet while the frame's budget allows,
        unless this frame shows a table's action or cards on show wait for the budget."""
        while (self.todo and BUDGET.allows() and not BUDGET.cards_waiting()
               and not BUDGET.is_busy()):
            deck, code, w, h = self.todo[0]
            if ("face", deck, code, w, h) in cards.CACHE:
                self.todo.popleft()
                continue
            begin = time.thread_time()
            done = cards.staged("face", deck, code, w, h).step()
            BUDGET.charge(time.thread_time() - begin)
            if done is not None:
                self.todo.popleft()
                self.drawn += 1


WARMER = Warmer()


def aspect(deck: str) -> float:
    """Width / height of the deck's cards."""
    return cards.ASPECT[deck]


def _key(deck: str, code: str, face: str, w: int, h: int) -> tuple[str, str, str, int, int]:
    """The texture cache's key of a card shown `face` at `w`×`h` (as `card_texture` draws it)."""
    if face == BACK or not code and face == FACE:
        return ("back", deck, "", w, h)
    if face == FACEDOWN:
        return ("facedown", deck, "", w, h)
    return ("face", deck, code, w, h)


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


def budgeted_texture(deck: str, code: str, face: str, width: float,
                     height: float) -> tuple[bool, Texture | None]:
    """`(True, card_texture(...))` if the card is drawn already or this frame's `BUDGET`
    allows drawing its last stage now; `(False, None)`: ask next frame. A cold card is drawn in
    stages (`ui.cards.staged`), one per request while the frame's budget allows, each charged
    to it: a frame showing a new card does a part of it, never all of a costly one."""
    w, h = int(width), int(height)
    key = _key(deck, code, face, w, h)
    if w < MIN_WIDTH or h < MIN_HEIGHT or key in cards.CACHE:
        return True, card_texture(deck, code, face, width, height)
    if not BUDGET.allows():
        BUDGET.defer()
        return False, None
    job = cards.staged(key[0], deck, key[2], w, h)
    begin = time.thread_time()
    texture = job.step()
    BUDGET.charge(time.thread_time() - begin)
    if texture is None:
        BUDGET.defer()  # the card on show goes on next frame, before any drawing ahead
        return False, None
    return True, texture
