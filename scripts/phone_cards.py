"""Draw the phone page's card sheets with the kiosk's card art (`ui.cards`).

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/phone_cards.py [--out DIR]

One PNG per game, `ui/remote/static/cards/<game>.png` by default: cell `i` is the game's card
`i` in canonical engine order (what `ui.remote.views.deck` lists), then the back, then Meri's
face-down trump; `ui.remote.art.COLS` cells to a row, each `ui.remote.art.HEIGHT` pixels tall
and as wide as the deck's aspect gives. Run it again when the card art changes (the sheets
are committed, like the sounds): the phone server reads them and sends their digest.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import shotkit  # noqa: F401  (first: a quiet Kivy; the repository importable)


def engine_codes(game: str) -> list[str]:
    """The game's card codes in the order the phone's `deck` lists them."""
    from ui.remote.views import deck

    return [card["code"] for card in deck(game)]


def main(argv: list[str] | None = None) -> int:
    from ui.remote import art

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=art.FOLDER)
    args = parser.parse_args(argv)

    from kivy.base import EventLoop
    from kivy.core.image import Image as CoreImage
    from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, Rectangle

    from ui import cards

    EventLoop.ensure_window()
    args.out.mkdir(parents=True, exist_ok=True)
    for game in art.GAMES:
        w, h = cards.size_for(game, art.HEIGHT)
        textures = [cards.texture(game, code, w, h) for code in engine_codes(game)]
        textures.append(cards.back(game, w, h))
        if game == "meri":
            textures.append(cards.facedown(game, w, h))
        rows = (len(textures) + art.COLS - 1) // art.COLS
        fbo = Fbo(size=(art.COLS * w, rows * h), with_stencilbuffer=False)
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
        for i, texture in enumerate(textures):
            row, col = divmod(i, art.COLS)
            fbo.add(Color(1, 1, 1, 1))
            fbo.add(Rectangle(texture=texture, pos=(col * w, (rows - 1 - row) * h), size=(w, h)))
        fbo.draw()
        path = args.out / f"{game}.png"
        CoreImage(fbo.texture).save(str(path), flipped=True)
        print(f"wrote {path} ({art.COLS * w}x{rows * h}, {len(textures)} cells of {w}x{h})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
