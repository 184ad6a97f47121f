"""Render every card of the three decks into one PNG sheet to look at.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/card_sheet.py \
        [--height 150] [--out build/card_sheet.png]

With `--bench` it draws nothing to disk and prints figures instead: the cold cost of drawing
every face of each deck at table size, the cost of a cached lookup, and texture memory.

Rows per deck (every face in canonical order, then back and face-down trump), and two table
previews at the real 800×480 scale: a Meri hand of 10 cards and a Tractor hand of 25
overlapping cards, each 800 px wide, to check that corner indexes stay legible.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import shotkit  # noqa: F401  (first: a quiet Kivy; the repository importable)

PER_ROW = 15
GAP = 8
LABEL = 14


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="render all card art into one PNG")
    parser.add_argument("--height", type=int, default=150, help="card height in px")
    parser.add_argument("--out", type=Path, default=Path("build/card_sheet.png"))
    parser.add_argument("--bench", action="store_true", help="print timing figures instead")
    args = parser.parse_args(argv)
    if not 20 <= args.height <= 600:
        print("error: --height must be between 20 and 600", file=sys.stderr)
        return 2

    from kivy.base import EventLoop
    from kivy.core.image import Image as CoreImage
    from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, InstructionGroup, Rectangle

    from ui import cards
    from ui.cards.paint import Painter

    EventLoop.ensure_window()
    if args.bench:
        return bench(cards)
    h = args.height
    blocks: list[tuple[str, list[tuple[str, object, int, int]]]] = []
    for deck in cards.DECKS:
        w = cards.size_for(deck, h)[0]
        items = [(code, cards.texture(deck, code, w, h), w, h) for code in cards.CODES[deck]]
        items.append(("back", cards.back(deck, w, h), w, h))
        items.append(("facedown", cards.facedown(deck, w, h), w, h))
        blocks.append((deck, items))

    # previews at 800x480 scale
    meri_h = 130
    meri_w = cards.size_for("meri", meri_h)[0]
    meri_hand = ["PSu", "PRo", "P9", "I1", "IKa", "K1", "KRe", "O5", "GUn", "G8"]
    tr_h = 112
    tr_w = cards.size_for("tractor", tr_h)[0]
    tr_hand = ["RJ", "BJ", "AS", "KS", "10S", "10S", "7S", "2S", "AH", "QH", "JH", "9H", "5H",
               "3H", "KC", "8C", "8C", "6C", "4C", "AD", "QD", "10D", "7D", "5D", "2D"]
    chan_h = 150
    chan_w = cards.size_for("chan", chan_h)[0]
    chan_hand = ["CC", "9M", "9M", "8S", "7C", "7M", "6S", "5C", "4M", "3S", "3C", "2M", "2S",
                 "2C", "1M", "OC", "TT", "9S", "8M", "5S"]

    sheet_w = max(PER_ROW * (max(it[2] for _, its in blocks for it in its) + GAP) + GAP, 820)
    rows = sum((len(items) + PER_ROW - 1) // PER_ROW for _, items in blocks)
    sheet_h = rows * (h + LABEL + GAP) + GAP + 3 * (max(meri_h, tr_h, chan_h) + 3 * GAP)
    fbo = Fbo(size=(sheet_w, sheet_h))
    with fbo:
        ClearColor(0.25, 0.45, 0.3, 1)
        ClearBuffers()
    y = sheet_h - GAP
    labels = InstructionGroup()
    painter = Painter(labels, sheet_w, sheet_h)
    for deck, items in blocks:
        for i, (code, tex, w, hh) in enumerate(items):
            if i % PER_ROW == 0:
                y -= hh + LABEL + GAP
            x = GAP + (i % PER_ROW) * (max(70, *(it[2] for it in items)) + GAP)
            fbo.add(Color(1, 1, 1, 1))
            fbo.add(Rectangle(texture=tex, pos=(x, y + LABEL), size=(w, hh)))
            painter.text(f"{deck} {code}" if code == "back" else code,
                         x + w / 2, y + LABEL / 2, 12, (1, 1, 1, 1), bold=False)
    for deck, hand, w, hh in (("meri", meri_hand, meri_w, meri_h),
                              ("tractor", tr_hand, tr_w, tr_h),
                              ("chan", chan_hand, chan_w, chan_h)):
        y -= hh + 3 * GAP
        fbo.add(Color(0.1, 0.3, 0.15, 1))
        fbo.add(Rectangle(pos=(0, y - GAP), size=(800, hh + 2 * GAP)))
        step = (800 - w) / (len(hand) - 1) if len(hand) * w > 800 else w
        for i, code in enumerate(hand):
            fbo.add(Color(1, 1, 1, 1))
            fbo.add(Rectangle(texture=cards.texture(deck, code, w, hh), pos=(i * step, y),
                              size=(w, hh)))
        painter.text(f"{deck}: {len(hand)} cards of {w}x{hh} in 800 px", 800 + 150, y + hh / 2,
                     14, (1, 1, 1, 1))
    fbo.add(labels)
    fbo.draw()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    CoreImage(fbo.texture).save(str(args.out), flipped=True)
    print(f"wrote {args.out} ({sheet_w}x{sheet_h}, {cards.CACHE.renders} card textures drawn)")
    return 0


def bench(cards) -> int:
    """Prints draw and lookup costs at the 800x480 table sizes (noisy on a shared machine)."""
    import time

    heights = {"meri": 130, "tractor": 112, "chan": 150}
    total_bytes = 0
    for deck, height in heights.items():
        w, h = cards.size_for(deck, height)
        codes = cards.CODES[deck]
        start = time.perf_counter()
        for code in codes:
            cards.texture(deck, code, w, h)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        rounds = 20
        for _ in range(rounds):
            for code in codes:
                cards.texture(deck, code, w, h)
        warm = (time.perf_counter() - start) / (rounds * len(codes))
        total_bytes += len(codes) * w * h * 4
        print(f"{deck:8s} {len(codes):3d} faces at {w}x{h}: draw {1000 * cold / len(codes):6.2f} "
              f"ms/card cold, lookup {1e6 * warm:5.2f} us/card cached")
    print(f"texture memory for all {sum(len(c) for c in cards.CODES.values())} faces at these "
          f"sizes: {total_bytes / 2**20:.1f} MiB (RGBA); cache capacity {cards.CACHE.capacity}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
