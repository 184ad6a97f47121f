"""A tiny drawing vocabulary over Kivy graphics instructions, used by the three deck modules.

Each deck module draws one card by calling these methods on a `Painter`, which appends Kivy
instructions (Color, Rectangle, RoundedRectangle, Ellipse, Line, Mesh, text textures) to the
canvas of an `Fbo`. Coordinates are pixels with the origin at the card's bottom-left corner.
Main thread only, like every Kivy graphics call. Colours must be opaque: a translucent wide
`Line` needs a stencil buffer, which the card Fbos do not have (it would tint the whole card).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    Color,
    Ellipse,
    InstructionGroup,
    Line,
    Mesh,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Rotate,
    RoundedRectangle,
)

RGBA = tuple[float, float, float, float]

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
#: The shipped CJK subset (see ui/fonts/README.md); only the characters the Tổ Tôm faces print.
CJK_FONT = str(FONT_DIR / "ParlorCardCJK-Bold.otf")
#: Kivy's bundled Roboto covers Latin including Vietnamese.
LATIN_FONT = "Roboto"


def rgb(hex_code: str, alpha: float = 1.0) -> RGBA:
    """'#RRGGBB' -> an RGBA tuple of floats."""
    value = hex_code.lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


#: Ink of the index glyphs per px of font size (tests/ui/test_hand_legibility.py measures them):
#: the height of Roboto Bold digits and capitals, the width of the widest index ("10", "Su",
#: "Ka"), and the least height of the shipped CJK numerals 四…九 and suit characters (the flat
#: 二 三 are shorter by design, as on the printed cards).
DIGIT_HEIGHT = 0.7
INDEX_WIDTH = 1.1
CJK_HEIGHT = 0.84
#: Cards shorter than this (px) get a compact face designed for strips: one index, its glyphs
#: about a fifth of the card's height (twice the usual), and the pips or figure beside it.
COMPACT_BELOW = 200


def index_font(w: float, h: float, compact_column: float,
               column: float) -> tuple[float, bool, float]:
    """The index's font size on a `w`×`h` card, whether it gets the compact face (a small card:
    one index, about twice the usual size), and the index's left padding. `compact_column` and
    `column` are the index column's widest, as a share of the card's width, on a compact and on
    a full face (each deck's own: its marks are not equally wide)."""
    pad = max(2.0, 0.04 * w)
    compact = h < COMPACT_BELOW
    font = 0.29 * h if compact else 0.17 * h
    cap = compact_column * w - pad if compact else column * w
    return min(font, cap / INDEX_WIDTH), compact, pad


@dataclass(frozen=True)
class Corner:
    """Where a card shows what it is, in px of a card of a given size (each deck's `corner`):
    the ink height of the rank (`glyph`) and of the suit mark (`suit`), how far the index
    reaches from the card's left edge (`width`: a card overlapped by another must keep that
    much showing) and down from its top edge (`depth`: a row of cards lying over the lower part
    of another row must leave that much of it showing)."""

    glyph: float
    suit: float
    width: float
    depth: float


class Style:
    """How every deck is drawn: `colour_safe` tells suits apart by shape as well as colour
    (four-colour French suits, distinct karuta index marks, Tổ Tôm red cards marked by a
    shape). Set through `ui.cards.set_colour_safe`, which also drops the drawn textures."""

    colour_safe: bool = False


STYLE = Style()

WHITE = rgb("#FFFFFF")
PAPER = rgb("#FBF8EF")
INK = rgb("#1A1A1A")
RED = rgb("#C8102E")
GOLD = rgb("#D9A520")


class Painter:
    """Appends drawing instructions for one card of `width`×`height` pixels to `group`."""

    def __init__(self, group: InstructionGroup, width: int, height: int) -> None:
        self.group = group
        self.w = float(width)
        self.h = float(height)

    # -- colour and primitives -------------------------------------------------------------
    def color(self, rgba: RGBA) -> None:
        if rgba[3] < 1.0:
            raise ValueError("card art colours must be opaque (see the module docstring)")
        self.group.add(Color(*rgba))

    def rect(self, x: float, y: float, w: float, h: float, rgba: RGBA) -> None:
        self.color(rgba)
        self.group.add(Rectangle(pos=(x, y), size=(w, h)))

    def rrect(self, x: float, y: float, w: float, h: float, r: float, rgba: RGBA) -> None:
        self.color(rgba)
        self.group.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[max(r, 0.0)] * 4))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, rgba: RGBA) -> None:
        self.color(rgba)
        self.group.add(Ellipse(pos=(cx - rx, cy - ry), size=(2 * rx, 2 * ry)))

    def circle(self, cx: float, cy: float, r: float, rgba: RGBA) -> None:
        self.ellipse(cx, cy, r, r, rgba)

    def ring(self, cx: float, cy: float, r: float, width: float, rgba: RGBA) -> None:
        self.color(rgba)
        self.group.add(Line(circle=(cx, cy, r), width=max(width, 1.0)))

    def line(
        self, points: Sequence[float], width: float, rgba: RGBA, close: bool = False
    ) -> None:
        self.color(rgba)
        self.group.add(Line(points=list(points), width=max(width, 1.0), close=close))

    def frame(self, x: float, y: float, w: float, h: float, r: float, width: float,
              rgba: RGBA) -> None:
        """The outline of a rounded rectangle."""
        self.color(rgba)
        self.group.add(Line(rounded_rectangle=(x, y, w, h, max(r, 1.0)), width=max(width, 1.0)))

    def poly(self, points: Sequence[tuple[float, float]], rgba: RGBA) -> None:
        """A filled polygon that is star-shaped around its first point (a triangle fan)."""
        self.color(rgba)
        vertices: list[float] = []
        for x, y in points:
            vertices += [x, y, 0.0, 0.0]
        self.group.add(Mesh(vertices=vertices, indices=list(range(len(points))),
                            mode="triangle_fan"))

    def rotated(self, angle: float, cx: float, cy: float) -> _Rotation:
        """`with painter.rotated(180, cx, cy): ...` draws the block turned around (cx, cy)."""
        return _Rotation(self, angle, cx, cy)

    # -- text ------------------------------------------------------------------------------
    def text(
        self,
        text: str,
        cx: float,
        cy: float,
        size: float,
        rgba: RGBA,
        font: str = LATIN_FONT,
        bold: bool = True,
        max_width: float | None = None,
    ) -> tuple[float, float]:
        """Draws `text` centred on (cx, cy) with a font of `size` px; returns its drawn size.

        Text wider than `max_width` is scaled down to fit (so long court names never spill).
        """
        label = CoreLabel(text=text, font_size=max(size, 4.0), font_name=font, bold=bold,
                          color=(1, 1, 1, 1), padding=(0, 0))
        label.refresh()
        texture = label.texture
        tw, th = texture.size
        if max_width is not None and tw > max_width > 0:
            scale = max_width / tw
            tw, th = tw * scale, th * scale
        self.color(rgba)
        self.group.add(Rectangle(texture=texture, pos=(cx - tw / 2, cy - th / 2), size=(tw, th)))
        return tw, th

    def cjk(self, char: str, cx: float, cy: float, size: float, rgba: RGBA) -> None:
        """One character from the shipped CJK subset, centred on (cx, cy)."""
        self.text(char, cx, cy, size, rgba, font=CJK_FONT, bold=False)

    # -- common card furniture -------------------------------------------------------------
    def blank(self, paper: RGBA = PAPER, edge: RGBA = INK) -> float:
        """The card body (a rounded paper rectangle with a thin edge); returns the radius."""
        r = min(self.w, self.h) * 0.08
        self.rrect(0, 0, self.w, self.h, r, edge)
        border = max(1.0, min(self.w, self.h) * 0.015)
        self.rrect(border, border, self.w - 2 * border, self.h - 2 * border, r - border, paper)
        return r

    def star(self, cx: float, cy: float, r: float, rgba: RGBA, points: int = 5) -> None:
        outline = [(cx, cy)]
        for i in range(2 * points + 1):
            radius = r if i % 2 == 0 else r * 0.45
            a = math.pi / 2 + i * math.pi / points
            outline.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
        self.poly(outline, rgba)


class _Rotation:
    def __init__(self, painter: Painter, angle: float, cx: float, cy: float) -> None:
        self.painter, self.angle, self.origin = painter, angle, (cx, cy)

    def __enter__(self) -> Painter:
        self.painter.group.add(PushMatrix())
        self.painter.group.add(Rotate(angle=self.angle, origin=self.origin))
        return self.painter

    def __exit__(self, *exc: object) -> None:
        self.painter.group.add(PopMatrix())
