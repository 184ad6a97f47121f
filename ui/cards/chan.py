"""Tổ Tôm cards, the long narrow deck of Chắn: all 30 faces of the 120-card deck (chan.md C-3…C-5).

Codes: rank `1`..`9` + suit `M` (Vạn 萬, myriads), `S` (Sách 索, strings), `C` (Văn 文, cash),
and the honours `CC` (Chi chi), `OC` (Ông cụ / Ông lão) and `TT` (Thang thang). As on the
printed cards, the head carries the rank in a Chinese numeral and the foot the suit character;
between them a picture: persons for Vạn, strings of cash for Sách, coins for Văn.

The honours print the name of the top card of the suit they belong to in the Chinese
money-suited pack Tổ Tôm derives from: Chi chi is the "half cash" (半 over 文), Thang thang
the "zero string" (空 over 索), Ông cụ the "old man" (老 over 萬).

Colours: C-5 makes `8M 9M 8S 9S CC` red (the seed agrees). The rules leave Ông cụ, Thang
thang and the 1s open because Chắn does not use them; we print Ông cụ and Thang thang red,
like Chi chi (the three honours are one group), and the 1s black like the other numbers.

The head numeral and the foot suit character are the card's index (`corner`): as wide as the
narrow card allows and at most a fifth of its height, so a hand of twenty on a 7" screen still
reads them. The colour-safe style (`paint.STYLE`) marks the red cards by a shape too: their
head numeral is printed in paper on a red block (Chắn's red and black cards matter for the
bonuses).
"""

from __future__ import annotations

from ui.cards.paint import CJK_HEIGHT, GOLD, INK, RED, RGBA, STYLE, Corner, Painter, rgb

SUITS = "MSC"
#: Canonical order (records.md for the 25 faces Chắn uses): CC, then M S C each 9 … 2, with
#: the faces outside Chắn (the 1s, Ông cụ, Thang thang) after them.
CODES: tuple[str, ...] = (
    ("CC",)
    + tuple(f"{r}{s}" for s in SUITS for r in range(9, 1, -1))
    + ("1M", "1S", "1C", "OC", "TT")
)
RED_FACES = frozenset({"8M", "9M", "8S", "9S", "CC", "OC", "TT"})
ASPECT = 0.3
NUMERAL = dict(zip("123456789", "一二三四五六七八九", strict=True))
SUIT_CHAR = {"M": "萬", "S": "索", "C": "文"}
HONOURS = {"CC": ("半", "C"), "TT": ("空", "S"), "OC": ("老", "M")}
HONOUR_LABEL = {"CC": "CC", "TT": "TT", "OC": "ÔC"}
#: Every CJK character drawn here: scripts/make_font_subset.py must ship exactly these.
CJK_TEXT = "".join(NUMERAL.values()) + "".join(SUIT_CHAR.values()) + "".join(
    head for head, _ in HONOURS.values()
)
PAPER = rgb("#F7F1DE")
SKIN = rgb("#F2C9A0")
ROBE = rgb("#3E5C76")


def _person(p: Painter, cx: float, y0: float, s: float, robe: RGBA, beard: bool = False) -> None:
    """A small robed figure `s` tall standing on y0 (the Vạn cards show persons)."""
    p.poly([(cx, y0 + 0.35 * s), (cx - 0.34 * s, y0), (cx + 0.34 * s, y0),
            (cx + 0.16 * s, y0 + 0.7 * s), (cx - 0.16 * s, y0 + 0.7 * s), (cx - 0.34 * s, y0)],
           robe)
    p.line([cx, y0 + 0.66 * s, cx, y0 + 0.05 * s], max(1.0, 0.03 * s), GOLD)
    p.circle(cx, y0 + 0.8 * s, 0.16 * s, SKIN)
    p.rect(cx - 0.17 * s, y0 + 0.9 * s, 0.34 * s, 0.08 * s, INK)
    if beard:
        p.poly([(cx, y0 + 0.55 * s), (cx - 0.12 * s, y0 + 0.74 * s), (cx + 0.12 * s, y0 + 0.74 * s)],
               rgb("#EEEEEE"))


def _coins(p: Painter, n: int, box: tuple[float, float, float, float], ink: RGBA) -> None:
    """`n` cash coins (round, square hole) in one or two columns inside box (x, y, w, h)."""
    x, y, w, h = box
    cols = 1 if n <= 3 else 2
    rows = (n + cols - 1) // cols
    r = min(w / (2 * cols) * 0.9, h / (2 * rows) * 0.9)
    for i in range(n):
        col, row = (i % cols, i // cols) if cols == 2 else (0, i)
        cx = x + w * ((col + 0.5) / cols if not (cols == 2 and n % 2 and i == n - 1) else 0.5)
        cy = y + h - h * (row + 0.5) / rows
        p.circle(cx, cy, r, ink)
        p.circle(cx, cy, r * 0.72, PAPER)
        p.rect(cx - r * 0.25, cy - r * 0.25, r * 0.5, r * 0.5, ink)


def _strings(p: Painter, n: int, box: tuple[float, float, float, float], ink: RGBA) -> None:
    """`n` strings of cash: vertical cords with knots, grouped side by side."""
    x, y, w, h = box
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    cell_w, cell_h = w / cols, h / rows
    width = max(1.0, cell_w * 0.08)
    for i in range(n):
        col, row = i % cols, i // cols
        cx = x + cell_w * (col + 0.5)
        top = y + h - cell_h * row - cell_h * 0.08
        bottom = top - cell_h * 0.84
        p.line([cx, top, cx, bottom], width, ink)
        k = 4
        for j in range(k):
            ky = top - (top - bottom) * (j + 0.5) / k
            p.ellipse(cx, ky, cell_w * 0.24, cell_h * 0.06, ink)


def _picture(p: Painter, code: str, box: tuple[float, float, float, float], ink: RGBA) -> None:
    x, y, w, h = box
    if code == "OC":
        _person(p, x + w / 2, y + h * 0.1, min(h * 0.9, w * 1.4), rgb("#7B1F1F"), beard=True)
    elif code == "CC":
        p.circle(x + w / 2, y + h * 0.5, min(w, h) * 0.42, ink)
        p.circle(x + w / 2, y + h * 0.5, min(w, h) * 0.3, PAPER)
        p.rect(x + w / 2 - min(w, h) * 0.42, y + h * 0.5 - min(w, h) * 0.42, min(w, h) * 0.84,
               min(w, h) * 0.42, PAPER)  # half a coin: the "half cash"
        p.star(x + w / 2, y + h * 0.2, min(w, h) * 0.2, GOLD)
    elif code == "TT":
        p.line([x + w / 2, y + h * 0.95, x + w / 2, y + h * 0.05], max(1.0, w * 0.05), ink)
        p.ellipse(x + w / 2, y + h * 0.5, w * 0.3, h * 0.25, ink)
        p.ellipse(x + w / 2, y + h * 0.5, w * 0.22, h * 0.2, PAPER)  # an empty loop
    else:
        rank, suit = int(code[0]), code[1]
        if suit == "C":
            _coins(p, rank, box, ink)
        elif suit == "S":
            _strings(p, rank, box, ink)
        else:
            count = 1 if rank < 4 else 2
            s = min(h / count, w * 1.4)
            top = y + (h + count * s) / 2  # the figures centred in the picture box
            for i in range(count):
                robe = ROBE if i == 0 else rgb("#5D4037")
                _person(p, x + w / 2, top - s * (i + 1), s * 0.95, robe)


def _char(w: float, h: float) -> float:
    """The font size of the head numeral and the foot suit character."""
    return min(0.8 * w, 0.2 * h)


def corner(w: float, h: float) -> Corner:
    """The index of a `w`×`h` card: the numeral at the head, the suit at the foot (so a row
    lying over the lower part of the card would hide it: `depth` is the whole card)."""
    glyph = CJK_HEIGHT * _char(w, h)
    return Corner(glyph=glyph, suit=glyph, width=(w + glyph) / 2, depth=h)


def index_boxes(w: float, h: float) -> list[tuple[float, float, float, float]]:
    """Where `draw_face` prints the index: the head (numeral, and the rank under it) and the
    foot (suit character), full width (`ui.cards.index_boxes`)."""
    m, char = 0.1 * w, _char(w, h)
    head, foot = min(h, m + 1.8 * char), min(h, m + 1.15 * char)
    return [(0.0, h - head, w, head), (0.0, 0.0, w, foot)]


def draw_face(p: Painter, code: str) -> None:
    red = code in RED_FACES
    ink = RED if red else INK
    p.blank(PAPER, edge=ink)
    m = 0.1 * p.w
    p.frame(m, m, p.w - 2 * m, p.h - 2 * m, 1, max(1.0, p.w * 0.025), ink)
    if code in HONOURS:
        head, suit = HONOURS[code]
        label = HONOUR_LABEL[code]
    else:
        head, suit = NUMERAL[code[0]], code[1]
        label = code[0]
    char = _char(p.w, p.h)
    head_ink = ink
    if red and STYLE.colour_safe:  # red told by a shape as well: the numeral on a red block
        p.rect(m, p.h - m - 1.15 * char, p.w - 2 * m, 1.1 * char, RED)
        head_ink = PAPER
    p.cjk(head, p.w / 2, p.h - m - 0.6 * char, char, head_ink)
    p.text(label, p.w / 2, p.h - m - 1.45 * char, 0.5 * char, ink, max_width=0.8 * p.w)
    p.cjk(SUIT_CHAR[suit], p.w / 2, m + 0.6 * char, char, ink)
    top = p.h - m - 1.8 * char
    bottom = m + 1.3 * char
    if top - bottom > 4:
        _picture(p, code, (m * 1.6, bottom, p.w - 3.2 * m, top - bottom), ink)


def draw_back(p: Painter) -> None:
    p.blank(PAPER)
    m = 0.1 * p.w
    green = rgb("#2E5E3A")
    p.rrect(m, m, p.w - 2 * m, p.h - 2 * m, 0.1 * p.w, green)
    step = max(4.0, (p.w - 2 * m) / 3)
    x = m + step / 2
    while x < p.w - m:
        p.line([x, m * 1.5, x, p.h - m * 1.5], max(1.0, p.w * 0.02), rgb("#9A8A35"))
        x += step
    y = m + step
    while y < p.h - m:
        p.circle(p.w / 2, y, step * 0.3, GOLD)
        y += step * 2
