"""French-suited cards with two jokers, as Tractor uses them (tractor.md T-5).

Codes: rank `2`..`10` `J` `Q` `K` `A` + suit `S H C D`, and the jokers `BJ` (black, small) and
`RJ` (red, big). The corner index (rank over suit) sits in the left strip so a fan of 25
overlapping cards stays readable; pips follow the usual layouts; courts are double-headed busts.

Small cards (shorter than `paint.COMPACT_BELOW`: a hand on a 7" screen) get a compact face
designed for strips: one index, its glyphs a fifth of the card's height, filling up to the left
half of the card, and the pips or court beside it; `corner(w, h)` is that geometry (the hand lays cards out so each index shows). The
colour-safe style (`paint.STYLE`) prints the four-colour French suits: diamonds blue, clubs
green, so no two suits share a colour.
"""

from __future__ import annotations

from ui.cards.paint import (
    DIGIT_HEIGHT,
    GOLD,
    INDEX_WIDTH,
    INK,
    PAPER,
    RED,
    RGBA,
    STYLE,
    Corner,
    Painter,
    index_font,
    rgb,
)

SUITS = "SHCD"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CODES: tuple[str, ...] = ("RJ", "BJ") + tuple(r + s for s in SUITS for r in reversed(RANKS))
ASPECT = 0.7  # width / height of a poker-sized card
SUIT_COLOUR: dict[str, RGBA] = {"S": INK, "C": INK, "H": RED, "D": RED}
#: The four-colour deck of the colour-safe style: each suit its own colour and lightness.
FOUR_COLOUR: dict[str, RGBA] = {"S": INK, "H": RED, "D": rgb("#1F5FBF"), "C": rgb("#0B7A3E")}
BLUE = rgb("#1F4E9A")
SKIN = rgb("#F2C9A0")

# Pip positions for 2..10 as (column, row): columns -1/0/1 = left/middle/right, rows from
# 0 (top) to 1 (bottom) of the pip area.
PIPS: dict[int, list[tuple[int, float]]] = {
    2: [(0, 0), (0, 1)],
    3: [(0, 0), (0, 0.5), (0, 1)],
    4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    5: [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    6: [(c, r) for r in (0, 0.5, 1) for c in (-1, 1)],
    7: [(c, r) for r in (0, 0.5, 1) for c in (-1, 1)] + [(0, 0.25)],
    8: [(c, r) for r in (0, 0.5, 1) for c in (-1, 1)] + [(0, 0.25), (0, 0.75)],
    9: [(c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in (-1, 1)] + [(0, 0.5)],
    10: [(c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in (-1, 1)] + [(0, 1 / 6), (0, 5 / 6)],
}


def suit_shape(p: Painter, suit: str, cx: float, cy: float, s: float, rgba: RGBA) -> None:
    """Draws the suit symbol `suit` of height `s` centred on (cx, cy)."""
    if suit == "H":
        p.circle(cx - 0.24 * s, cy + 0.2 * s, 0.26 * s, rgba)
        p.circle(cx + 0.24 * s, cy + 0.2 * s, 0.26 * s, rgba)
        p.poly([(cx, cy - 0.5 * s), (cx - 0.49 * s, cy + 0.12 * s), (cx, cy + 0.2 * s),
                (cx + 0.49 * s, cy + 0.12 * s)], rgba)
    elif suit == "S":
        p.circle(cx - 0.23 * s, cy - 0.08 * s, 0.24 * s, rgba)
        p.circle(cx + 0.23 * s, cy - 0.08 * s, 0.24 * s, rgba)
        p.poly([(cx, cy + 0.5 * s), (cx - 0.46 * s, cy - 0.02 * s), (cx, cy - 0.1 * s),
                (cx + 0.46 * s, cy - 0.02 * s)], rgba)
        p.poly([(cx, cy - 0.12 * s), (cx - 0.17 * s, cy - 0.5 * s), (cx + 0.17 * s, cy - 0.5 * s)],
               rgba)
    elif suit == "D":
        p.poly([(cx, cy), (cx, cy + 0.5 * s), (cx + 0.36 * s, cy), (cx, cy - 0.5 * s),
                (cx - 0.36 * s, cy), (cx, cy + 0.5 * s)], rgba)
    elif suit == "C":
        r = 0.2 * s
        p.circle(cx, cy + 0.26 * s, r, rgba)
        p.circle(cx - 0.24 * s, cy - 0.07 * s, r, rgba)
        p.circle(cx + 0.24 * s, cy - 0.07 * s, r, rgba)
        p.circle(cx, cy + 0.02 * s, 0.12 * s, rgba)
        p.poly([(cx, cy + 0.05 * s), (cx - 0.16 * s, cy - 0.5 * s), (cx + 0.16 * s, cy - 0.5 * s)],
               rgba)
    else:  # pragma: no cover - codes are validated before drawing
        raise ValueError(f"unknown French suit {suit!r}")


def colour(suit: str) -> RGBA:
    """The ink of `suit` in the current style."""
    return (FOUR_COLOUR if STYLE.colour_safe else SUIT_COLOUR)[suit]


def _font(w: float, h: float) -> tuple[float, bool, float]:
    """The index's font size, compact face or not, and left padding (`paint.index_font`)."""
    return index_font(w, h, 0.5, 0.25)


def corner(w: float, h: float) -> Corner:
    """The index of a `w`×`h` card: rank over suit, top left (see the module docstring)."""
    font, _compact, pad = _font(w, h)
    glyph = DIGIT_HEIGHT * font
    top = max(2.0, 0.04 * h)
    return Corner(glyph=glyph, suit=glyph, width=pad + INDEX_WIDTH * font,
                  depth=top + 2.3 * glyph + 2.0)


def _index(p: Painter, rank: str, suit: str, both: bool) -> None:
    """Rank over suit in the top-left corner, and (`both`) the same turned round bottom-right."""
    ink = colour(suit)
    font, _compact, pad = _font(p.w, p.h)
    glyph = DIGIT_HEIGHT * font
    col = INDEX_WIDTH * font
    x, top = pad + col / 2, max(2.0, 0.04 * p.h)
    for angle in (0, 180) if both else (0,):
        with p.rotated(angle, p.w / 2, p.h / 2):
            p.text(rank, x, p.h - top - glyph / 2, font, ink, max_width=col)
            suit_shape(p, suit, x, p.h - top - 1.8 * glyph, glyph, ink)


def _pips(p: Painter, rank: int, suit: str, box: tuple[float, float, float, float]) -> None:
    """The pips of `rank` in box (left, bottom, right, top), in the usual layout."""
    ink = colour(suit)
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    left, right = x0 + 0.2 * bw, x1 - 0.2 * bw
    top, bottom = y1 - 0.12 * bh, y0 + 0.12 * bh
    rows = 4 if rank >= 9 else 3
    size = min(bh / (rows + 0.6), 0.34 * bw)
    for col, row in PIPS[rank]:
        x = {-1: left, 0: (x0 + x1) / 2, 1: right}[col]
        y = top + (bottom - top) * row
        angle = 180 if row > 0.5 else 0
        with p.rotated(angle, x, y):
            suit_shape(p, suit, x, y, size, ink)


def _bust(p: Painter, rank: str, suit: str, cx: float, y0: float, s: float) -> None:
    """The upper half of a double-headed court figure standing on the line y = y0."""
    ink = colour(suit)
    robe = rgb("#2B5BA8") if suit in "SC" else rgb("#2E7D32")
    hair = {"K": rgb("#9E9E9E"), "Q": rgb("#8D5524"), "J": rgb("#5D4037")}[rank]
    p.rrect(cx - 0.4 * s, y0, 0.8 * s, 0.32 * s, 0.14 * s, robe)
    p.poly([(cx, y0 + 0.02 * s), (cx - 0.18 * s, y0 + 0.32 * s), (cx + 0.18 * s, y0 + 0.32 * s)],
           ink)
    p.rect(cx - 0.05 * s, y0 + 0.28 * s, 0.1 * s, 0.1 * s, SKIN)
    if rank == "Q":  # long hair behind the face
        p.rrect(cx - 0.19 * s, y0 + 0.3 * s, 0.38 * s, 0.34 * s, 0.12 * s, hair)
    else:
        p.ellipse(cx, y0 + 0.56 * s, 0.15 * s, 0.12 * s, hair)
    p.ellipse(cx, y0 + 0.5 * s, 0.13 * s, 0.15 * s, SKIN)
    if rank == "K":  # a beard
        p.poly([(cx, y0 + 0.33 * s), (cx - 0.13 * s, y0 + 0.47 * s), (cx + 0.13 * s, y0 + 0.47 * s)],
               hair)
    p.circle(cx - 0.05 * s, y0 + 0.53 * s, 0.02 * s, INK)
    p.circle(cx + 0.05 * s, y0 + 0.53 * s, 0.02 * s, INK)
    p.line([cx - 0.04 * s, y0 + 0.43 * s, cx + 0.04 * s, y0 + 0.43 * s], 0.012 * s, RED)
    hat_y = y0 + 0.62 * s
    if rank == "K":
        p.poly([(cx, hat_y), (cx - 0.16 * s, hat_y), (cx - 0.19 * s, hat_y + 0.22 * s),
                (cx - 0.09 * s, hat_y + 0.1 * s), (cx, hat_y + 0.25 * s),
                (cx + 0.09 * s, hat_y + 0.1 * s), (cx + 0.19 * s, hat_y + 0.22 * s),
                (cx + 0.16 * s, hat_y)], GOLD)
        p.line([cx + 0.3 * s, y0 + 0.04 * s, cx + 0.3 * s, y0 + 0.46 * s], 0.025 * s,
               rgb("#B0BEC5"))  # a sword
        p.rect(cx + 0.24 * s, y0 + 0.12 * s, 0.12 * s, 0.03 * s, GOLD)
    elif rank == "Q":
        p.rect(cx - 0.15 * s, hat_y, 0.3 * s, 0.06 * s, GOLD)
        for dx in (-0.11, 0.0, 0.11):
            p.circle(cx + dx * s, hat_y + 0.1 * s, 0.04 * s, GOLD)
        p.line([cx - 0.3 * s, y0 + 0.04 * s, cx - 0.3 * s, y0 + 0.3 * s], 0.015 * s,
               rgb("#2E7D32"))  # a flower
        p.circle(cx - 0.3 * s, y0 + 0.34 * s, 0.06 * s, RED)
        p.circle(cx - 0.3 * s, y0 + 0.34 * s, 0.025 * s, GOLD)
    else:  # J: a cap with a feather, and a halberd
        p.rrect(cx - 0.16 * s, hat_y - 0.03 * s, 0.32 * s, 0.12 * s, 0.05 * s, ink)
        p.line([cx + 0.08 * s, hat_y + 0.06 * s, cx + 0.24 * s, hat_y + 0.24 * s], 0.03 * s, GOLD)
        p.line([cx + 0.3 * s, y0 + 0.04 * s, cx + 0.3 * s, y0 + 0.46 * s], 0.02 * s,
               rgb("#795548"))
        p.poly([(cx + 0.3 * s, y0 + 0.52 * s), (cx + 0.25 * s, y0 + 0.42 * s),
                (cx + 0.35 * s, y0 + 0.42 * s)], rgb("#90A4AE"))
    p.text(rank, cx - 0.3 * s, y0 + 0.68 * s, 0.28 * s, ink)
    suit_shape(p, suit, cx + 0.3 * s, y0 + 0.68 * s, 0.16 * s, ink)


def _court(p: Painter, rank: str, suit: str, box: tuple[float, float, float, float],
           double: bool) -> None:
    """The court's frame in box (left, bottom, right, top): a double-headed figure (`double`)
    or, on a compact card, one bust standing on the frame's foot."""
    ink = colour(suit)
    x0, y0, x1, y1 = box
    fw, fh = x1 - x0, y1 - y0
    p.rect(x0, y0, fw, fh, rgb("#FFF3D6"))
    p.frame(x0, y0, fw, fh, 1, max(1.0, 0.012 * p.w), ink)
    if double:
        s = min(fw * 1.6, fh)
        for angle in (0, 180):
            with p.rotated(angle, p.w / 2, p.h / 2):
                _bust(p, rank, suit, p.w / 2, p.h / 2, s * 0.78)
        p.line([x0, p.h / 2, x0 + fw, p.h / 2], max(1.0, 0.008 * p.w), ink)
    else:
        s = min(fw * 1.25, fh * 0.95)
        _bust(p, rank, suit, (x0 + x1) / 2, y0 + 0.04 * fh, s)


def _joker_index(p: Painter, code: str) -> None:
    """A compact joker's index: a star where the rank stands, filled for the big (red) joker and
    hollow for the small (black) one, so the two differ by shape as well as colour; "JK" below
    it where the suit stands."""
    ink = RED if code == "RJ" else INK
    font, _compact, pad = _font(p.w, p.h)
    glyph = DIGIT_HEIGHT * font
    col = INDEX_WIDTH * font
    x, top = pad + col / 2, max(2.0, 0.04 * p.h)
    cy = p.h - top - glyph / 2
    p.star(x, cy, 0.62 * glyph, ink)
    if code == "BJ":
        p.star(x, cy, 0.34 * glyph, PAPER)
    p.text("JK", x, p.h - top - 1.8 * glyph, 0.6 * font, ink, max_width=col)


def _joker(p: Painter, code: str, compact: bool) -> None:
    ink = RED if code == "RJ" else INK
    hat = (RED, GOLD, rgb("#2B5BA8")) if code == "RJ" else (INK, rgb("#777777"), INK)
    if compact:
        _joker_index(p, code)
        x0 = corner(p.w, p.h).width
        if p.w - x0 < 3:
            return  # a card a few pixels wide: the index only
        cx, cy = (x0 + p.w) / 2, p.h * 0.42
        s = min(p.w - x0, p.h * 0.45) * 0.95
    else:
        x = 0.125 * p.w
        for angle in (0, 180):
            with p.rotated(angle, p.w / 2, p.h / 2):
                for i, letter in enumerate("JOKER"):
                    p.text(letter, x, p.h - (0.08 + 0.085 * i) * p.h, 0.1 * p.h, ink,
                           max_width=0.2 * p.w)
                p.star(x, p.h - 0.55 * p.h, 0.06 * p.h, ink)
        cx, cy, s = p.w / 2, p.h * 0.47, min(p.w * 0.6, p.h * 0.45)
    p.circle(cx, cy, 0.2 * s, SKIN)
    p.circle(cx - 0.07 * s, cy + 0.04 * s, 0.025 * s, INK)
    p.circle(cx + 0.07 * s, cy + 0.04 * s, 0.025 * s, INK)
    p.line([cx - 0.09 * s, cy - 0.07 * s, cx, cy - 0.11 * s, cx + 0.09 * s, cy - 0.07 * s],
           0.02 * s, INK)
    base = cy + 0.15 * s
    tips = [(-0.45, 0.28), (0.0, 0.5), (0.45, 0.28)]
    for (dx, dy), shade in zip(tips, hat, strict=True):
        p.poly([(cx + dx * s, base + dy * s), (cx - 0.22 * s, base), (cx + 0.22 * s, base)],
               shade)
        p.circle(cx + dx * s, base + dy * s, 0.05 * s, GOLD)
    p.poly([(cx, cy - 0.18 * s), (cx - 0.3 * s, cy - 0.4 * s), (cx + 0.3 * s, cy - 0.4 * s)],
           hat[0])
    if not compact:
        p.text("JOKER", cx, p.h * 0.14, 0.09 * p.h, ink, max_width=0.55 * p.w)


def draw_face(p: Painter, code: str) -> None:
    p.blank(PAPER)
    _font_size, compact, pad = _font(p.w, p.h)
    if code in ("RJ", "BJ"):
        _joker(p, code, compact)
        return
    rank, suit = code[:-1], code[-1]
    _index(p, rank, suit, both=not compact)
    if compact:  # the body beside the one index, down to the foot
        box = (corner(p.w, p.h).width + 0.5 * pad, 1.5 * pad, p.w - 1.5 * pad, p.h - 1.5 * pad)
    else:
        box = (0.24 * p.w, 0.1 * p.h, 0.76 * p.w, 0.9 * p.h)
    if box[2] - box[0] < 3 or box[3] - box[1] < 3:
        return  # a card a few pixels wide (a row squeezed while laid out): the index only
    if rank in ("J", "Q", "K"):
        _court(p, rank, suit, box, double=not compact)
    elif rank == "A":
        x0, y0, x1, y1 = box
        suit_shape(p, suit, (x0 + x1) / 2, (y0 + y1) / 2, min(0.4 * p.h, 0.8 * (x1 - x0)),
                   colour(suit))
    else:
        if not compact:
            box = (0.16 * p.w, 0.13 * p.h, 0.84 * p.w, 0.87 * p.h)
        _pips(p, int(rank), suit, box)


def draw_back(p: Painter) -> None:
    p.blank(PAPER)
    m = 0.07 * p.w
    r = min(p.w, p.h) * 0.05
    p.rrect(m, m, p.w - 2 * m, p.h - 2 * m, r, BLUE)
    step = max(6.0, p.w / 7)
    light = rgb("#6E8EC4")
    width = max(1.0, p.w * 0.01)
    k = -p.h
    while k < p.w + p.h:  # a diagonal lattice clipped by drawing only inside the panel
        pts_a = _clip_diagonal(k, 1, m, p.w - m, m, p.h - m)
        pts_b = _clip_diagonal(k, -1, m, p.w - m, m, p.h - m)
        for pts in (pts_a, pts_b):
            if pts:
                p.line(pts, width, light)
        k += step
    p.circle(p.w / 2, p.h / 2, 0.2 * p.w, BLUE)
    p.ring(p.w / 2, p.h / 2, 0.2 * p.w, width * 1.5, GOLD)
    suit_shape(p, "S", p.w / 2, p.h / 2, 0.22 * p.w, rgb("#FFFFFF"))


def _clip_diagonal(k: float, slope: int, x0: float, x1: float, y0: float, y1: float
                   ) -> list[float]:
    """The segment of the line y = slope*(x - k) + y0 (slope ±1) inside the box, or []."""
    if slope == 1:
        xa, xb = max(x0, k), min(x1, k + (y1 - y0))
    else:
        xa, xb = max(x0, k - (y1 - y0)), min(x1, k)
    if xa >= xb:
        return []
    ya = y0 + slope * (xa - k) if slope == 1 else y0 + (k - xa)
    yb = y0 + slope * (xb - k) if slope == 1 else y0 + (k - xb)
    return [xa, ya, xb, yb]
