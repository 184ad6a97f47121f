"""Unsun karuta, the 75-card deck of Hachinin Meri (meri.md H-5…H-7).

Codes: suit `P I K O G` (Pao batons, Isu swords, Koppu cups, Ouru coins, Guru whorls) followed
by `1`..`9` or a court `Su Un Re Ka So Ro`. Each suit has its own colour, paper tint and
symbol; numbers show that many symbols; courts show a labelled figure. The corner index (rank
over suit symbol, in the suit colour) stays visible when cards overlap.

Small cards (shorter than `paint.COMPACT_BELOW`: a hand on a 7" screen) get a compact face:
one index, its glyphs a fifth of the card's height, and the symbols or court beside it; `corner(w, h)` is that geometry. The
colour-safe style (`paint.STYLE`) uses a palette told apart with colour-vision deficiencies
(after Okabe and Ito, darkened to read on paper) and draws the coin as a hollow ring, so no two
suit marks share a silhouette (baton, sword, cup, ring, whorl).
"""

from __future__ import annotations

import math

from ui.cards.paint import (
    DIGIT_HEIGHT,
    GOLD,
    INDEX_WIDTH,
    INK,
    PAPER,
    RGBA,
    STYLE,
    Corner,
    Painter,
    index_font,
    rgb,
)

SUITS = "PIKOG"
COURTS = ("Su", "Un", "Re", "Ka", "So", "Ro")
NUMBERS = tuple(str(n) for n in range(1, 10))
#: Canonical order (records.md): suits P I K O G, each Su Un Re Ka So Ro 9 … 1.
CODES: tuple[str, ...] = tuple(
    s + r for s in SUITS for r in COURTS + tuple(reversed(NUMBERS))
)
ASPECT = 0.62
SUIT_NAME = {"P": "Pao", "I": "Isu", "K": "Koppu", "O": "Ouru", "G": "Guru"}
COURT_NAME = {"Su": "Sun", "Un": "Un", "Re": "Rei", "Ka": "Kaba", "So": "Sota", "Ro": "Robai"}
SUIT_COLOUR: dict[str, RGBA] = {
    "P": rgb("#B5371F"),  # batons: vermilion
    "I": rgb("#1D4F9C"),  # swords: blue
    "K": rgb("#1F7A3A"),  # cups: green
    "O": rgb("#B07800"),  # coins: ochre gold
    "G": rgb("#6B2F8F"),  # whorls: purple
}
#: The colour-safe palette (`paint.STYLE.colour_safe`).
SAFE_COLOUR: dict[str, RGBA] = {
    "P": rgb("#C24E00"),  # vermilion
    "I": rgb("#0060A0"),  # blue
    "K": rgb("#007A5E"),  # bluish green
    "O": rgb("#8A6A00"),  # dark yellow
    "G": rgb("#A3457E"),  # reddish purple
}
SKIN = rgb("#F2C9A0")

# Symbol positions for 1..9 as (x, y) fractions of the pip area (0,0 = top-left).
LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.15), (0.5, 0.85)],
    3: [(0.5, 0.1), (0.5, 0.5), (0.5, 0.9)],
    4: [(x, y) for y in (0.15, 0.85) for x in (0.25, 0.75)],
    5: [(x, y) for y in (0.12, 0.88) for x in (0.25, 0.75)] + [(0.5, 0.5)],
    6: [(x, y) for y in (0.1, 0.5, 0.9) for x in (0.25, 0.75)],
    7: [(x, y) for y in (0.1, 0.5, 0.9) for x in (0.25, 0.75)] + [(0.5, 0.3)],
    8: [(x, y) for y in (0.08, 0.36, 0.64, 0.92) for x in (0.25, 0.75)],
    9: [(x, y) for y in (0.1, 0.5, 0.9) for x in (0.17, 0.5, 0.83)],
}


def tint(rgba: RGBA, amount: float) -> RGBA:
    """`rgba` mixed with white: 0 = white, 1 = the colour itself."""
    return tuple(1 - (1 - c) * amount for c in rgba[:3]) + (1.0,)  # type: ignore[return-value]


def colour(suit: str) -> RGBA:
    """The colour of `suit` in the current style."""
    return (SAFE_COLOUR if STYLE.colour_safe else SUIT_COLOUR)[suit]


def symbol(p: Painter, suit: str, cx: float, cy: float, s: float) -> None:
    """The suit's symbol of height `s` centred on (cx, cy)."""
    c = colour(suit)
    if suit == "P":  # a baton: a knobbed staff with two bands
        p.rrect(cx - 0.09 * s, cy - 0.45 * s, 0.18 * s, 0.9 * s, 0.08 * s, c)
        p.circle(cx, cy + 0.43 * s, 0.13 * s, c)
        p.circle(cx, cy - 0.43 * s, 0.13 * s, c)
        p.rect(cx - 0.13 * s, cy + 0.12 * s, 0.26 * s, 0.06 * s, GOLD)
        p.rect(cx - 0.13 * s, cy - 0.18 * s, 0.26 * s, 0.06 * s, GOLD)
    elif suit == "I":  # a sword pointing up: blade, guard, grip, pommel
        p.poly([(cx, cy + 0.5 * s), (cx - 0.08 * s, cy + 0.36 * s), (cx - 0.08 * s, cy - 0.18 * s),
                (cx + 0.08 * s, cy - 0.18 * s), (cx + 0.08 * s, cy + 0.36 * s)], c)
        p.line([cx, cy + 0.4 * s, cx, cy - 0.15 * s], 0.015 * s, rgb("#C9D6EA"))
        p.rrect(cx - 0.24 * s, cy - 0.25 * s, 0.48 * s, 0.08 * s, 0.03 * s, GOLD)
        p.rect(cx - 0.05 * s, cy - 0.43 * s, 0.1 * s, 0.2 * s, c)
        p.circle(cx, cy - 0.45 * s, 0.07 * s, GOLD)
    elif suit == "K":  # a cup: bowl, stem, foot
        p.poly([(cx, cy + 0.1 * s), (cx - 0.34 * s, cy + 0.42 * s), (cx - 0.3 * s, cy + 0.18 * s),
                (cx - 0.14 * s, cy + 0.02 * s), (cx + 0.14 * s, cy + 0.02 * s),
                (cx + 0.3 * s, cy + 0.18 * s), (cx + 0.34 * s, cy + 0.42 * s)], c)
        p.rect(cx - 0.34 * s, cy + 0.38 * s, 0.68 * s, 0.07 * s, GOLD)
        p.rect(cx - 0.05 * s, cy - 0.3 * s, 0.1 * s, 0.34 * s, c)
        p.ellipse(cx, cy - 0.36 * s, 0.24 * s, 0.09 * s, c)
    elif suit == "O" and STYLE.colour_safe:  # a hollow ring: no filled disc like the whorl
        p.ring(cx, cy, 0.36 * s, 0.09 * s, c)
        p.rect(cx - 0.1 * s, cy - 0.1 * s, 0.2 * s, 0.2 * s, c)
    elif suit == "O":  # a coin with a square hole
        p.circle(cx, cy, 0.42 * s, c)
        p.ring(cx, cy, 0.33 * s, 0.03 * s, GOLD)
        p.rect(cx - 0.1 * s, cy - 0.1 * s, 0.2 * s, 0.2 * s, PAPER)
    elif suit == "G":  # a whorl: a disc with a spiral
        p.circle(cx, cy, 0.42 * s, c)
        pts: list[float] = []
        for i in range(60):
            a = i * 0.22
            r = 0.36 * s * i / 59
            pts += [cx + r * math.cos(a), cy + r * math.sin(a)]
        p.line(pts, 0.04 * s, PAPER)
    else:  # pragma: no cover - codes are validated before drawing
        raise ValueError(f"unknown karuta suit {suit!r}")


def _font(w: float, h: float) -> tuple[float, bool, float]:
    """The index's font size, compact face or not, and left padding (`paint.index_font`)."""
    return index_font(w, h, 0.56, 0.26)


def corner(w: float, h: float) -> Corner:
    """The index of a `w`×`h` card: rank over suit symbol, top left."""
    font, _compact, pad = _font(w, h)
    glyph = DIGIT_HEIGHT * font
    suit = max(glyph, 0.12 * h)
    top = max(2.0, 0.04 * h)
    return Corner(glyph=glyph, suit=suit, width=pad + INDEX_WIDTH * font,
                  depth=top + 1.3 * glyph + suit + 2.0)


def _index(p: Painter, rank: str, suit: str, both: bool) -> None:
    """Rank over suit symbol top left, and (`both`) the same turned round bottom right."""
    c = colour(suit)
    font, _compact, pad = _font(p.w, p.h)
    glyph = DIGIT_HEIGHT * font
    size = max(glyph, 0.12 * p.h)
    col = INDEX_WIDTH * font
    x, top = pad + col / 2, max(2.0, 0.04 * p.h)
    for angle in (0, 180) if both else (0,):
        with p.rotated(angle, p.w / 2, p.h / 2):
            p.text(rank, x, p.h - top - glyph / 2, font, c, max_width=col)
            symbol(p, suit, x, p.h - top - 1.3 * glyph - size / 2, size)


def _numbers(p: Painter, n: int, suit: str, box: tuple[float, float, float, float]) -> None:
    """`n` symbols in box (left, bottom, right, top)."""
    bx0, by0, bx1, by1 = box
    x0, x1 = bx0 + 0.1 * (bx1 - bx0), bx1 - 0.1 * (bx1 - bx0)
    y0, y1 = by1 - 0.1 * (by1 - by0), by0 + 0.1 * (by1 - by0)  # top and bottom of the pip area
    bw, bh = bx1 - bx0, by1 - by0
    s = min(0.3 * bh, 0.5 * bw) if n > 1 else min(0.75 * bh, 1.0 * bw)
    if n >= 7:
        s = min(0.23 * bh, 0.33 * bw)
    for fx, fy in LAYOUT[n]:
        symbol(p, suit, x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy, s)


def _figure(p: Painter, court: str, suit: str, cx: float, y0: float, s: float) -> None:
    """A court figure standing on y = y0, `s` tall, dressed in the suit colour."""
    c = colour(suit)
    dark = tint(c, 1.0)
    head_y = y0 + 0.78 * s
    if court == "Ro":  # Robai: a dragon coiling upwards
        pts: list[float] = []
        for i in range(40):
            t = i / 39
            pts += [cx + 0.25 * s * math.sin(t * 3 * math.pi), y0 + 0.05 * s + 0.75 * s * t]
        p.line(pts, 0.07 * s, dark)
        p.ellipse(cx + 0.08 * s, head_y + 0.02 * s, 0.16 * s, 0.1 * s, dark)
        p.circle(cx + 0.12 * s, head_y + 0.05 * s, 0.025 * s, GOLD)
        p.line([cx + 0.2 * s, head_y + 0.06 * s, cx + 0.36 * s, head_y + 0.16 * s], 0.012 * s,
               dark)
        p.line([cx - 0.05 * s, head_y + 0.08 * s, cx - 0.14 * s, head_y + 0.2 * s], 0.012 * s,
               dark)
        return
    if court == "Ka":  # Kaba: a rider on a horse
        p.ellipse(cx, y0 + 0.3 * s, 0.3 * s, 0.13 * s, rgb("#8D6E63"))
        p.poly([(cx + 0.28 * s, y0 + 0.42 * s), (cx + 0.18 * s, y0 + 0.3 * s),
                (cx + 0.42 * s, y0 + 0.56 * s), (cx + 0.48 * s, y0 + 0.48 * s)], rgb("#8D6E63"))
        for dx in (-0.2, -0.1, 0.12, 0.22):
            p.rect(cx + dx * s, y0, 0.05 * s, 0.22 * s, rgb("#6D4C41"))
        body_y, head_y = y0 + 0.4 * s, y0 + 0.82 * s
        p.poly([(cx - 0.05 * s, body_y + 0.2 * s), (cx - 0.18 * s, body_y),
                (cx + 0.1 * s, body_y), (cx + 0.06 * s, body_y + 0.3 * s)], dark)
        p.circle(cx, head_y, 0.09 * s, SKIN)
        symbol(p, suit, cx - 0.3 * s, y0 + 0.72 * s, 0.28 * s)
        return
    # the standing figures: Sun, Un, Rei, Sota
    if court == "Un":  # a halo behind the luck god
        p.ring(cx, head_y, 0.19 * s, max(1.0, 0.025 * s), GOLD)
    p.poly([(cx, y0 + 0.33 * s), (cx - 0.25 * s, y0), (cx + 0.25 * s, y0),
            (cx + 0.13 * s, y0 + 0.66 * s), (cx - 0.13 * s, y0 + 0.66 * s), (cx - 0.25 * s, y0)],
           dark)
    p.line([cx, y0 + 0.3 * s, cx, y0 + 0.02 * s], max(1.0, 0.012 * s), tint(dark, 0.5))
    p.rect(cx - 0.2 * s, y0 + 0.3 * s, 0.4 * s, 0.05 * s, GOLD)
    p.circle(cx, head_y, 0.11 * s, SKIN)
    p.circle(cx - 0.04 * s, head_y + 0.01 * s, 0.012 * s, INK)
    p.circle(cx + 0.04 * s, head_y + 0.01 * s, 0.012 * s, INK)
    top = head_y + 0.09 * s
    if court == "Re":  # the king's crown
        p.poly([(cx, top), (cx - 0.13 * s, top), (cx - 0.15 * s, top + 0.16 * s),
                (cx - 0.05 * s, top + 0.07 * s), (cx, top + 0.18 * s),
                (cx + 0.05 * s, top + 0.07 * s), (cx + 0.15 * s, top + 0.16 * s),
                (cx + 0.13 * s, top)], GOLD)
    elif court == "Su":  # a tall black scholar's hat with side wings
        p.rect(cx - 0.09 * s, top - 0.02 * s, 0.18 * s, 0.16 * s, INK)
        p.rect(cx - 0.2 * s, top + 0.02 * s, 0.4 * s, 0.03 * s, INK)
    elif court == "So":  # a page's cap with a feather
        p.rrect(cx - 0.12 * s, top - 0.03 * s, 0.24 * s, 0.08 * s, 0.03 * s, dark)
        p.line([cx + 0.06 * s, top + 0.04 * s, cx + 0.2 * s, top + 0.2 * s], 0.015 * s, GOLD)
    else:  # Un: a mallet of luck held up
        p.line([cx + 0.2 * s, y0 + 0.45 * s, cx + 0.3 * s, y0 + 0.75 * s], 0.02 * s, INK)
        p.rrect(cx + 0.2 * s, y0 + 0.72 * s, 0.2 * s, 0.1 * s, 0.03 * s, GOLD)
    if court != "Un":
        symbol(p, suit, cx + 0.3 * s, y0 + 0.5 * s, 0.3 * s)


def _court(p: Painter, court: str, suit: str, x0: float) -> None:
    """The court's frame from x0 to the right edge: name band and figure."""
    c = colour(suit)
    y0 = 0.08 * p.h
    fw, fh = p.w - x0 - 0.06 * p.w, p.h - 2 * y0
    p.rect(x0, y0, fw, fh, tint(c, 0.12))
    p.frame(x0, y0, fw, fh, 1, max(1.0, 0.012 * p.w), c)
    band = 0.16 * fh
    p.rect(x0, y0, fw, band, c)
    p.text(COURT_NAME[court], x0 + fw / 2, y0 + band / 2, band * 0.62, PAPER,
           max_width=fw * 0.9)
    s = min(fh - band, fw * 1.3) * 0.9
    _figure(p, court, suit, x0 + fw / 2, y0 + band + 0.04 * fh, s)
    if suit == "P" and court == "Ro":  # Tenka (H-10): always a trump
        p.star(x0 + fw - 0.12 * fw, y0 + fh - 0.1 * fw, 0.09 * fw, GOLD)


def draw_face(p: Painter, code: str) -> None:
    suit, rank = code[0], code[1:]
    c = colour(suit)
    p.blank(tint(c, 0.07), edge=c)
    _font_size, compact, pad = _font(p.w, p.h)
    if rank in COURT_NAME:  # one index: the court's frame takes the rest of the card
        _index(p, rank, suit, both=False)
        x0 = corner(p.w, p.h).width + pad if compact else 0.3 * p.w
        if p.w * 0.94 - x0 >= 3:  # else a card a few pixels wide: the index only
            _court(p, rank, suit, x0)
        return
    _index(p, rank, suit, both=not compact)
    if compact:
        box = (corner(p.w, p.h).width + 0.5 * pad, 1.5 * pad, p.w - 1.5 * pad, p.h - 1.5 * pad)
    else:
        box = (0.2 * p.w, 0.12 * p.h, 0.8 * p.w, 0.88 * p.h)
    if box[2] - box[0] >= 3 and box[3] - box[1] >= 3:  # else the index only (a tiny card)
        _numbers(p, int(rank), suit, box)


def draw_back(p: Painter) -> None:
    p.blank(PAPER)
    m = 0.07 * p.w
    red = rgb("#8E1B1B")
    p.rrect(m, m, p.w - 2 * m, p.h - 2 * m, 0.05 * p.w, red)
    step = max(5.0, p.w / 6)
    y = m + step / 2
    while y < p.h - m:  # rows of small gold lozenges
        x = m + step / 2
        while x < p.w - m:
            p.poly([(x, y), (x, y + step * 0.3), (x + step * 0.22, y), (x, y - step * 0.3),
                    (x - step * 0.22, y), (x, y + step * 0.3)], tint(GOLD, 0.8))
            x += step
        y += step
    p.circle(p.w / 2, p.h / 2, 0.22 * p.w, red)
    p.ring(p.w / 2, p.h / 2, 0.22 * p.w, max(1.0, 0.02 * p.w), GOLD)
    symbol(p, "G", p.w / 2, p.h / 2, 0.3 * p.w)
