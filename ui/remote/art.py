"""The kiosk's card pictures for the phone page: one PNG sheet per deck, served as plain files.

`scripts/phone_cards.py` draws every face of a game with the kiosk's own card art (`ui.cards`,
Kivy) into `static/cards/<game>.png`: cell `i` (left to right, `COLS` to a row) is the game's
card `i` in canonical engine order (`views.deck`), then the back, then (for Meri) a face-down
trump. This module reads the sheets' sizes from their PNG headers, so nothing here imports
Kivy and the cell size is never written twice. The sheets are the generic faces every player
knows: they reveal nothing, so they need no token (docs/protocol.md, "Card pictures").
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

from ui.games import names

GAMES = tuple(names())  # one sheet for each game
COLS = 15  # cells to a row of a sheet
HEIGHT = 240  # pixels of a card in the sheet: sharp at ~100 CSS px on a 2.4x phone screen
FOLDER = Path(__file__).with_name("static") / "cards"
#: Kept a week by a phone: the URL carries the sheet's digest, so a new sheet is a new URL.
CACHE_CONTROL = "public, max-age=604800, immutable"


def sheet_path(game: str) -> Path:
    return FOLDER / f"{game}.png"


def url_path(game: str) -> str:
    """The URL path the server answers with the sheet of `game` (no query: nothing else is
    matched, see `ui.remote.server.FILES`)."""
    return f"/cards/{game}.png"


@lru_cache(maxsize=len(GAMES))
def sheet(game: str) -> dict[str, Any]:
    """What the page needs to cut one card out of the sheet of `game`: its URL (with the
    digest, for the cache), columns and rows, and a cell's width and height in pixels."""
    data = sheet_path(game).read_bytes()
    width, height = png_size(data)
    rows = round(height / HEIGHT)
    digest = hashlib.sha256(data).hexdigest()[:12]
    return {"url": f"{url_path(game)}?v={digest}", "cols": COLS, "rows": rows,
            "width": width // COLS, "height": height // rows}


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; `ValueError` if `data` is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)
