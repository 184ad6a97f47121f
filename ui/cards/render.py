"""Renders card drawings into plain textures and keeps the recent ones in an LRU cache.

A table redraws the same few dozen cards at one or two sizes, so each (kind, deck, code, size)
is drawn once and its texture reused. Main thread only.

A card is drawn into a scratch `Fbo`, its pixels are copied into a plain `Texture` and the
card's drawing instructions are dropped: under software GL (llvmpipe) a kept Fbo cost ~0.5 MiB
per card, a plain texture about a sixth of that. The scratch Fbos (one per recently drawn size,
`SCRATCH_SIZES` at most) are reused: creating and first binding an Fbo cost as much CPU as
drawing the card into it (~2 of ~4 ms under llvmpipe), and a cold card stalls the frame it is
drawn in; and an Fbo made and released per card left ~0.45 MiB per card behind in the GL driver
for good (30 Tổ Tôm faces at 24x80: +13 MiB of RSS each time, malloc_trim gave none back).

A cold card costs a few ms in one piece, too much for one frame on a Pi: `Staged` draws it in
stages, one per call (the scratch Fbo of a new size, the painting, then the Fbo drawing and
read-back), for the table's per-frame budget (`ui.table.cardsource`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from kivy.graphics import ClearBuffers, ClearColor, Fbo, InstructionGroup
from kivy.graphics.texture import Texture

from ui.cards.paint import Painter

Draw = Callable[[Painter], None]
Key = tuple[str, str, str, int, int]

#: Enough for every face of the largest deck at three sizes plus backs.
DEFAULT_CAPACITY = 300
#: Cards left half drawn (asked for, then not needed) are forgotten past this many.
MAX_STAGED = 64
#: Scratch Fbos kept, one per size: a table draws at a few sizes (trick, hand, rows) at a time.
SCRATCH_SIZES = 5

_scratch: OrderedDict[tuple[int, int], Fbo] = OrderedDict()


def _fbo(width: int, height: int) -> Fbo:
    """The scratch Fbo of this size (made on first use; the least recently used size goes)."""
    key = (width, height)
    fbo = _scratch.get(key)
    if fbo is None:
        fbo = _scratch[key] = Fbo(size=key, with_stencilbuffer=False)
        if len(_scratch) > SCRATCH_SIZES:
            _scratch.popitem(last=False)
    else:
        _scratch.move_to_end(key)
    return fbo


def paint(draw: Draw, width: int, height: int) -> InstructionGroup:
    """A card's first stage: its drawing instructions, built by `draw` (Python painting, and the
    text of its indices and names rendered to textures)."""
    group = InstructionGroup(nocompiler=True)  # drawn once: nothing to gain from compiling
    draw(Painter(group, width, height))
    return group


def rasterize(group: InstructionGroup, width: int, height: int) -> bytes:
    """Draws a painted card into the scratch `width`×`height` Fbo (cleared first); returns its
    RGBA bytes and leaves the Fbo and the emptied `group` without the card's instructions.

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
    data = fbo.pixels
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
    """A card being drawn over several frames, one stage per `step()`: the scratch Fbo of its
    size if there is none yet, then the painting (`paint`), then the Fbo drawing and read-back
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
            if (w, h) not in _scratch:
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
