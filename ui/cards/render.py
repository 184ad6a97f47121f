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
#: Scratch Fbos kept, one per size: a table draws at a few sizes (trick, hand, rows) at a time.
SCRATCH_SIZES = 3

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


def pixels(draw: Draw, width: int, height: int) -> bytes:
    """Draws one card with `draw` into the scratch `width`×`height` Fbo (cleared first);
    returns its RGBA bytes and leaves the Fbo without the card's instructions."""
    fbo = _fbo(width, height)
    group = InstructionGroup()
    draw(Painter(group, width, height))
    fbo.clear()
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
    fbo.add(group)
    fbo.draw()
    data = fbo.pixels
    fbo.clear()
    return data


class _Redraw:
    """Re-uploads a card's pixels if the GL context is ever lost and reloaded (the texture keeps
    this observer alive through the cache entry that holds both)."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw

    def reload(self, texture: Texture) -> None:
        w, h = texture.size
        texture.blit_buffer(pixels(self.draw, w, h), colorfmt="rgba", bufferfmt="ubyte")


def render(draw: Draw, width: int, height: int) -> tuple[_Redraw, Texture]:
    """Draws one card with `draw` into a new plain `width`×`height` RGBA texture."""
    texture = Texture.create(size=(width, height), colorfmt="rgba")
    texture.blit_buffer(pixels(draw, width, height), colorfmt="rgba", bufferfmt="ubyte")
    redraw = _Redraw(draw)
    texture.add_reload_observer(redraw.reload)
    return redraw, texture


class TextureCache:
    """An LRU map from (kind, deck, code, width, height) to a rendered texture."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"cache capacity must be at least 1, not {capacity}")
        self.capacity = capacity
        self._items: OrderedDict[Key, tuple[_Redraw, Texture]] = OrderedDict()
        self.renders = 0  # how many textures were drawn (a figure for benchmarks and tests)

    def get(self, key: Key, draw: Draw) -> Texture:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
            return item[1]
        item = render(draw, key[3], key[4])
        self.renders += 1
        self._items[key] = item
        if len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return item[1]

    def __contains__(self, key: Key) -> bool:
        return key in self._items

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
