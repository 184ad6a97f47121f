"""Dimmed cards stay legible (issue 35 point 4): a card that may not be played now is drawn
dimmed, yet its index (rank and suit, where `ui.cards.index_boxes` says the face prints it)
keeps dark ink on light paper, and the rest of the card is still clearly darker than a card
that may be played.

Measured on rendered pixels: every face of the three decks, at a hand's size on the 7" screen
and at a large one, drawn as the table's `CardView` (a card that may be played, and a dimmed
one) into one framebuffer. In each index box the paper is the light end of its pixels'
relative luminance and the ink the dark end; their contrast ratio (WCAG's (L1 + 0.05) /
(L2 + 0.05)) must reach `MIN_CONTRAST`, as for text, or, for the few faces whose index has
less even when they may be played, keep `KEPT` of it. Dimmed all over (before), the paper
turned a grey that black ink stood out from at about 3.6:1 and coloured ink at 2 to 3:1.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.ui.uitools import pump
from ui import cards

pytestmark = pytest.mark.ui

MIN_CONTRAST = 4.5  # WCAG AA for text: the index is text read at arm's length ...
KEPT = 0.8  # ... or, where the face itself has less (an ochre suit), this share of it
DARKER = 0.6  # a dimmed card's paper (outside its index) at most this share of a lit one's
HEIGHTS = (90, 150)  # px: cards of a hand at 800×480, and large cards


def _luminance(r: int, g: int, b: int) -> float:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def _render(board: Any) -> tuple[bytes, int]:
    """The board drawn into a framebuffer of its size: RGBA rows from the bottom up."""
    from kivy.graphics import ClearBuffers, ClearColor, Fbo, Translate
    from kivy.lang import Builder

    Builder.sync()  # the kv rules' canvas values (a frame does it before drawing)
    fbo = Fbo(size=board.size)
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
        Translate(-board.x, -board.y, 0)
    fbo.add(board.canvas)
    fbo.draw()
    pixels = fbo.pixels
    fbo.remove(board.canvas)
    return pixels, int(board.width)


def _levels(pixels: bytes, stride: int, box: tuple[int, int, int, int]) -> list[float]:
    """The luminance of the opaque pixels in box (x0, y0, x1, y1), sorted."""
    x0, y0, x1, y1 = box
    out = []
    for y in range(y0, y1):
        row = y * stride * 4
        for x in range(x0, x1):
            i = row + x * 4
            if pixels[i + 3] >= 250:  # (the rounded corners let the background through)
                out.append(_luminance(pixels[i], pixels[i + 1], pixels[i + 2]))
    return sorted(out)


def _share(levels: list[float], q: float) -> float:
    return levels[min(len(levels) - 1, int(q * len(levels)))]


def _contrast(levels: list[float]) -> float:
    """Paper (the light end) against ink (the dark end) of an index's pixels."""
    paper, ink = _share(levels, 0.9), _share(levels, 0.03)
    return (paper + 0.05) / (ink + 0.05)


def _inside(box: tuple[float, float, float, float], view: Any) -> tuple[int, int, int, int]:
    """`box` (in the card's pixels) in the board's, away from the card's rounded edge (its
    ink is the card's outline, not the index's)."""
    x, y, w, h = box
    edge = math.ceil(0.08 * min(view.size)) + 1  # (`Painter.blank`'s corner radius)
    x0, y0 = max(x, edge), max(y, edge)
    x1, y1 = min(x + w, view.width - edge), min(y + h, view.height - edge)
    return (int(view.x + x0), int(view.y + y0), int(view.x + x1), int(view.y + y1))


def _board(deck: str, height: int) -> tuple[Any, list[tuple[Any, Any]]]:
    """Every face of `deck`, each once as a card that may be played and once dimmed."""
    from kivy.uix.widget import Widget

    from ui.table.widgets import CardView

    w, h = cards.size_for(deck, height)
    codes = cards.CODES[deck]
    per_row = max(1, 1600 // (2 * w + 12))
    rows = -(-len(codes) // per_row)
    board = Widget(size=(per_row * (2 * w + 12), rows * (h + 6)), pos=(0, 0))
    pairs = []
    for n, code in enumerate(codes):
        x, y = (n % per_row) * (2 * w + 12), (n // per_row) * (h + 6)
        lit = CardView(deck=deck, code=code, size=(w, h), pos=(x, y), legal=True)
        dim = CardView(deck=deck, code=code, size=(w, h), pos=(x + w + 4, y), legal=False)
        board.add_widget(lit)
        board.add_widget(dim)
        pairs.append((lit, dim))
    for _ in range(400):  # faces are drawn a few per frame
        pump(1)
        if not any(v.pending or v.texture is None for pair in pairs for v in pair):
            break
    pump(2)
    return board, pairs


@pytest.mark.parametrize("height", HEIGHTS)
@pytest.mark.parametrize("deck", cards.DECKS)
def test_a_dimmed_card_keeps_its_index_legible(make_app: Any, deck: str, height: int) -> None:
    make_app()  # (the app's kv rules: how a CardView draws itself)
    board, pairs = _board(deck, height)
    pixels, stride = _render(board)
    faint, bright = [], []
    for lit, dim in pairs:
        w, h = dim.size
        boxes = cards.index_boxes(deck, w, h)
        for box in boxes:
            full = _contrast(_levels(pixels, stride, _inside(box, lit)))
            contrast = _contrast(_levels(pixels, stride, _inside(box, dim)))
            if contrast < min(MIN_CONTRAST, KEPT * full):
                faint.append(f"{dim.code}: {contrast:.1f}:1 (may be played: {full:.1f}:1)")
        # the body: the card's middle column below the top index (and above a foot index)
        top = min((b[1] for b in boxes if b[1] > 0), default=h)
        foot = max((b[3] for b in boxes if b[1] == 0), default=0.0)
        body = (0.3 * w, foot + 2, 0.4 * w, max(1.0, top - foot - 4))
        paper_lit = _share(_levels(pixels, stride, _inside(body, lit)), 0.9)
        paper_dim = _share(_levels(pixels, stride, _inside(body, dim)), 0.9)
        if paper_dim > DARKER * paper_lit:
            bright.append(f"{dim.code}: {paper_dim:.2f} against {paper_lit:.2f}")
    assert not faint, f"dimmed {deck} cards {height} px tall whose index reads faintly: {faint}"
    assert not bright, f"dimmed {deck} cards {height} px tall hardly darker: {bright}"
