"""Renders card drawings into `Fbo` textures and keeps the recent ones in an LRU cache.

A table redraws the same few dozen cards at one or two sizes, so each (kind, deck, code, size)
is drawn once into an offscreen framebuffer and its texture reused. Main thread only.
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


def render(draw: Draw, width: int, height: int) -> tuple[Fbo, Texture]:
    """Draws one card with `draw` into a new `width`×`height` Fbo; returns it and its texture."""
    fbo = Fbo(size=(width, height), with_stencilbuffer=False)
    group = InstructionGroup()
    draw(Painter(group, width, height))
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
    fbo.add(group)
    fbo.draw()
    return fbo, fbo.texture


class TextureCache:
    """An LRU map from (kind, deck, code, width, height) to a rendered texture.

    The Fbo is kept alongside its texture: it owns the GL framebuffer and redraws the texture
    if the GL context is ever lost and reloaded.
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"cache capacity must be at least 1, not {capacity}")
        self.capacity = capacity
        self._items: OrderedDict[Key, tuple[Fbo, Texture]] = OrderedDict()
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

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
