"""Renders card drawings into plain textures and keeps the recent ones in an LRU cache.

A table redraws the same few dozen cards at one or two sizes, so each (kind, deck, code, size)
is drawn once and its texture reused. Main thread only.

A card is drawn into a scratch `Fbo`, its pixels are copied into a plain `Texture` and the
card's drawing instructions are dropped: under software GL (llvmpipe) a kept Fbo cost ~0.5 MiB
per card, a plain texture about a sixth of that. One scratch Fbo serves every size: a card is
drawn in its lower left corner (the Fbo's projection maps one unit to one pixel, so the pixels
are those of an Fbo of the card's own size) and only that corner is read back. Creating and
first binding an Fbo cost as much CPU as drawing the card into it (~2 of ~4 ms under
llvmpipe), and every Fbo made and released left memory behind in the GL driver for good (an
Fbo per card: ~0.45 MiB each; one kept per recent size, as before: ~0.2 MiB per new size, and
a Tractor hand takes a new size as it empties, so a deal grew the app by several MiB). The
scratch Fbo is only remade, larger, for a card that does not fit it; its sides are powers of
two, so mapping a card's coordinates to its pixels scales them exactly.

A cold card costs a few ms in one piece, too much for one frame on a Pi: `Staged` draws it in
stages, one per call (the scratch Fbo of a new size, the painting, then the Fbo drawing and
read-back), for the table's per-frame budget (`ui.table.cardsource`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from kivy.graphics import ClearBuffers, ClearColor, Fbo, InstructionGroup
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
from kivy.graphics.texture import Texture

from ui.cards.paint import Painter

Draw = Callable[[Painter], None]
Key = tuple[str, str, str, int, int]

#: Enough for every face of the largest deck at three sizes plus backs.
DEFAULT_CAPACITY = 300
#: Cards left half drawn (asked for, then not needed) are forgotten past this many.
MAX_STAGED = 64
#: The scratch Fbo's smallest side (px): enough for most cards, so it is seldom remade.
SCRATCH_MIN = 128

_scratch: list[Fbo] = []  # the scratch Fbo, once made


def _side(needed: int) -> int:
    """The smallest power of two at least `needed` and `SCRATCH_MIN`."""
    side = SCRATCH_MIN
    while side < needed:
        side *= 2
    return side


def fits(width: int, height: int) -> bool:
    """Whether a `width`×`height` card fits the scratch Fbo as it is (False: none yet)."""
    if not _scratch:
        return False
    w, h = _scratch[0].size
    return width <= w and height <= h


def _fbo(width: int, height: int) -> Fbo:
    """The scratch Fbo, remade larger first if a `width`×`height` card does not fit it."""
    if not fits(width, height):
        w, h = _scratch[0].size if _scratch else (0, 0)
        size = (_side(max(w, width)), _side(max(h, height)))
        _scratch[:] = [Fbo(size=size, with_stencilbuffer=False)]
    return _scratch[0]


def drop_scratch() -> None:
    """Forget the scratch Fbo (the next card makes a new one; for tests)."""
    _scratch.clear()


def paint(draw: Draw, width: int, height: int) -> InstructionGroup:
    """A card's first stage: its drawing instructions, built by `draw` (Python painting, and the
    text of its indices and names rendered to textures)."""
    group = InstructionGroup(nocompiler=True)  # drawn once: nothing to gain from compiling
    draw(Painter(group, width, height))
    return group


def rasterize(group: InstructionGroup, width: int, height: int) -> bytes:
    """Draws a painted card into the lower left `width`×`height` corner of the scratch Fbo
    (cleared first); returns that corner's RGBA bytes (bottom row first, as `Fbo.pixels`) and
    leaves the Fbo and the emptied `group` without the card's instructions.

    Emptying the group unlinks each instruction from it (instruction and group point at each
    other), so the card's few hundred instructions are freed here, at once, rather than left as
    reference cycles to the garbage collector: they were most of what the UI's collections
    walked and freed during a deal (a generation-2 pass took 7 ms of a frame)."""
    fbo = _fbo(width, height)
    fbo.clear()
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
    fbo.add(group)
    fbo.draw()
    fbo.bind()
    try:
        data = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
    finally:
        fbo.release()
    fbo.clear()
    group.clear()
    return data


def pixels(draw: Draw, width: int, height: int) -> bytes:
    """Draws one card with `draw` (both stages at once); its RGBA bytes."""
    return rasterize(paint(draw, width, height), width, height)


class _Redraw:
    """Re-uploads a card's pixels if the GL context is ever lost and reloaded (the texture keeps
    this observer alive through the cache entry that holds both)."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw

    def reload(self, texture: Texture) -> None:
        w, h = texture.size
        texture.blit_buffer(pixels(self.draw, w, h), colorfmt="rgba", bufferfmt="ubyte")


def finish(draw: Draw, group: InstructionGroup, width: int,
           height: int) -> tuple[_Redraw, Texture]:
    """A card's second stage: its painted `group` drawn into a new plain `width`×`height` RGBA
    texture (which redraws itself with `draw` if the GL context is ever reloaded)."""
    texture = Texture.create(size=(width, height), colorfmt="rgba")
    texture.blit_buffer(rasterize(group, width, height), colorfmt="rgba", bufferfmt="ubyte")
    redraw = _Redraw(draw)
    texture.add_reload_observer(redraw.reload)
    return redraw, texture


def render(draw: Draw, width: int, height: int) -> tuple[_Redraw, Texture]:
    """Draws one card with `draw` into a new plain `width`×`height` RGBA texture, both stages
    at once."""
    return finish(draw, paint(draw, width, height), width, height)


class Staged:
    """A card being drawn over several frames, one stage per `step()`: the scratch Fbo, if there
    is none yet or the card does not fit it, then the painting (`paint`), then the Fbo drawing and read-back
    (`finish`). Each stage is a fraction of a whole card's cost, so a frame that has to draw a
    cold card does a part of it. The pixels are those `render` draws."""

    def __init__(self, cache: TextureCache, key: Key, draw: Draw) -> None:
        self.cache, self.key, self.draw = cache, key, draw
        self.group: InstructionGroup | None = None

    def step(self) -> Texture | None:
        """Do the next stage; the texture once the card is drawn (and cached), else None."""
        w, h = self.key[3], self.key[4]
        done = self.cache.cached(self.key)
        if done is not None:
            return done
        if self.group is None:
            if not fits(w, h):
                _fbo(w, h)
                return None
            self.group = paint(self.draw, w, h)
            return None
        return self.cache.put(self.key, finish(self.draw, self.group, w, h))


class TextureCache:
    """An LRU map from (kind, deck, code, width, height) to a rendered texture."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"cache capacity must be at least 1, not {capacity}")
        self.capacity = capacity
        self._items: OrderedDict[Key, tuple[_Redraw, Texture]] = OrderedDict()
        self._jobs: dict[Key, Staged] = {}  # cards being drawn in stages
        self.renders = 0  # how many textures were drawn (a figure for benchmarks and tests)

    def get(self, key: Key, draw: Draw) -> Texture:
        """The texture of `key`, drawn now with `draw` if it is not cached (a card being drawn
        in stages is finished from the stage it reached)."""
        texture = self.cached(key)
        if texture is not None:
            return texture
        job = self._jobs.get(key)
        if job is not None and job.group is not None:
            return self.put(key, finish(draw, job.group, key[3], key[4]))
        return self.put(key, render(draw, key[3], key[4]))

    def cached(self, key: Key) -> Texture | None:
        """The texture of `key` if it is drawn already (marked recently used), else None."""
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[1]

    def staged(self, key: Key, draw: Draw) -> Staged:
        """The drawing in stages of `key` (the same one while it is unfinished)."""
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = Staged(self, key, draw)
            if len(self._jobs) > MAX_STAGED:  # a card asked for and then not needed any more
                del self._jobs[next(iter(self._jobs))]
        return job

    def put(self, key: Key, item: tuple[_Redraw, Texture]) -> Texture:
        """Keep a newly drawn card (the least recently used one goes past `capacity`)."""
        self._jobs.pop(key, None)
        self.renders += 1
        self._items[key] = item
        if len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return item[1]

    def __contains__(self, key: Key) -> bool:
        return key in self._items

    def clear(self) -> None:
        self._items.clear()
        self._jobs.clear()

    def __len__(self) -> int:
        return len(self._items)
