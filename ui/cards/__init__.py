"""Card art for Parlor's three decks, drawn with Kivy graphics into cached textures.

The stable API the tables use (main thread only, like all Kivy graphics):

- `texture(deck, code, width, height)`: the face of one card;
- `back(deck, width, height)`: the back;
- `facedown(deck, width, height)`: a back with a gold trump badge (Meri's face-down trumps);
- `ASPECT[deck]`: width / height of the deck's cards; `size_for(deck, height)` rounds it;
- `CODES[deck]`: every face code of the deck, in canonical deck order;
- `staged(kind, deck, code, width, height)`: the same card drawn in stages, one per `step()`
  (a frame that must draw a cold card does a part of it);
- `preload(deck, width, height, codes=None)`: draw ahead of time (a cold draw costs a few ms
  per card, so a table may preload its sizes while a screen transition runs);
- `corner(deck, width, height)`: where a card of that size shows its index (`paint.Corner`:
  glyph heights, how much of it an overlapping card must leave showing);
- `index_boxes(deck, width, height)`: the boxes a face's index (rank and suit) is drawn in,
  the part a dimmed card keeps legible (`ui.table.widgets.CardView`);
- `set_colour_safe(on)`: suits told apart by shape as well as colour (drops drawn textures);
- `ui.cards.widget.CardWidget` (its own module: it needs kivy.uix, textures do not): one card
  on a table; it imports this package, never the other way round.

Decks: "meri" (Unsun karuta, 75 faces), "tractor" (French cards + two jokers, 54 faces),
"chan" (Tổ Tôm, 30 faces). Textures live in one LRU cache keyed by (kind, deck, code, size).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType

from kivy.graphics.texture import Texture

from ui.cards.paint import GOLD, INK, STYLE, Corner, Painter, rgb
from ui.cards.render import Draw, Staged, TextureCache
from ui.games import games

#: Each game's deck (named as the game) and the module drawing it (`UiGame.deck_art`).
_DECKS: dict[str, ModuleType] = {game.name: importlib.import_module(game.deck_art)
                                 for game in games()}
DECKS: tuple[str, ...] = tuple(_DECKS)
ASPECT: dict[str, float] = {name: module.ASPECT for name, module in _DECKS.items()}
CODES: dict[str, tuple[str, ...]] = {name: module.CODES for name, module in _DECKS.items()}
_VALID: dict[str, frozenset[str]] = {name: frozenset(codes) for name, codes in CODES.items()}

#: Largest texture side accepted: far above any screen, small enough to stay a clear error.
MAX_SIDE = 4096
CACHE = TextureCache()

__all__ = ["ASPECT", "CACHE", "CODES", "DECKS", "back", "corner", "facedown", "index_boxes",
           "preload", "set_colour_safe", "size_for", "staged", "texture"]



def _deck(deck: str) -> ModuleType:
    module = _DECKS.get(deck)
    if module is None:
        raise ValueError(f"unknown deck {deck!r} (expected one of {', '.join(DECKS)})")
    return module


def _size(width: int, height: int) -> tuple[int, int]:
    w, h = int(width), int(height)
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ValueError(f"card size {width}x{height} is out of range 1..{MAX_SIDE}")
    return w, h


def size_for(deck: str, height: float) -> tuple[int, int]:
    """The (width, height) in whole pixels of a card of `deck` that is `height` tall."""
    h = max(1, round(height))
    return max(1, round(h * _deck(deck).ASPECT)), h


def _drawing(kind: str, deck: str, code: str) -> Draw:
    """How to draw a card shown as `kind` ("face", "back" or "facedown") of `deck`."""
    module = _deck(deck)
    if kind == "face":
        if code not in _VALID[deck]:
            raise ValueError(f"unknown card code {code!r} for deck {deck!r}")
        return lambda p: module.draw_face(p, code)
    if kind == "back":
        return module.draw_back
    if kind == "facedown":
        return lambda p: _draw_facedown(module, p)
    raise ValueError(f"unknown card kind {kind!r} (expected face, back or facedown)")


def texture(deck: str, code: str, width: int, height: int) -> Texture:
    """The face of card `code` of `deck`, drawn at `width`×`height` pixels (cached)."""
    draw = _drawing("face", deck, code)
    w, h = _size(width, height)
    return CACHE.get(("face", deck, code, w, h), draw)


def back(deck: str, width: int, height: int) -> Texture:
    """The back of a card of `deck` (cached)."""
    draw = _drawing("back", deck, "")
    w, h = _size(width, height)
    return CACHE.get(("back", deck, "", w, h), draw)


def facedown(deck: str, width: int, height: int) -> Texture:
    """A card lying face down that everyone knows is a trump: the back with a gold star badge."""
    draw = _drawing("facedown", deck, "")
    w, h = _size(width, height)
    return CACHE.get(("facedown", deck, "", w, h), draw)


def _draw_facedown(module: ModuleType, p: Painter) -> None:
    module.draw_back(p)
    r = min(p.w * 0.34, p.h * 0.22)
    cx, cy = p.w / 2, p.h / 2
    p.circle(cx, cy, r * 1.08, INK)
    p.circle(cx, cy, r, rgb("#FFF8E1"))
    p.ring(cx, cy, r * 0.9, max(1.0, r * 0.06), GOLD)
    p.star(cx, cy, r * 0.75, GOLD)


def staged(kind: str, deck: str, code: str, width: int, height: int) -> Staged:
    """The card `texture`/`back`/`facedown` would draw (`kind` "face", "back" or "facedown";
    `code` "" unless a face), to be drawn in stages, one per `step()` (see `ui.cards.render`);
    the same drawing while it is unfinished."""
    draw = _drawing(kind, deck, code if kind == "face" else "")
    w, h = _size(width, height)
    return CACHE.staged((kind, deck, code if kind == "face" else "", w, h), draw)


def preload(deck: str, width: int, height: int, codes: Iterable[str] | None = None) -> int:
    """Draws the faces `codes` (default: the whole deck) and the back now; returns how many
    textures had to be drawn (0 when everything was cached already)."""
    before = CACHE.renders
    _deck(deck)
    for code in CODES[deck] if codes is None else codes:
        texture(deck, code, width, height)
    back(deck, width, height)
    return CACHE.renders - before


def corner(deck: str, width: float, height: float) -> Corner:
    """Where a `width`×`height` card of `deck` shows its index (the geometry its art draws)."""
    return _deck(deck).corner(float(width), float(height))


def index_boxes(deck: str, width: float, height: float) -> list[tuple[float, float, float, float]]:
    """The boxes (x, y, w, h in px from the card's bottom-left corner) a `width`×`height` face
    of `deck` draws its index in: the rank and suit the player reads, top left (a Tổ Tôm card:
    its head numeral and its foot suit character). A card drawn dimmed keeps these brighter.
    The index turned round at the foot of a large French or karuta face is left out: it says
    the same, and in a hand the next card covers it."""
    module = _deck(deck)
    w, h = float(width), float(height)
    own = getattr(module, "index_boxes", None)
    if own is not None:
        return own(w, h)
    c = module.corner(w, h)
    return [(0.0, max(0.0, h - c.depth), min(w, c.width), min(h, c.depth))]


def set_colour_safe(on: bool) -> bool:
    """Draw every deck in the colour-safe style (or not); True if that changed the style, and
    then every drawn texture is dropped (cards on show must ask for theirs again)."""
    if STYLE.colour_safe == bool(on):
        return False
    STYLE.colour_safe = bool(on)
    CACHE.clear()
    return True
