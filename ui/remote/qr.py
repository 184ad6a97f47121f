"""The join URL as a QR code (`segno`, pure Python), for the seating screen to draw.

`qr_matrix(url)` gives the modules as rows of booleans (True = dark), without the quiet zone:
a Kivy widget draws them as rectangles at any size; `qr_png(url)` gives a PNG for a page or a
screenshot.
"""

from __future__ import annotations

import io

import segno


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of `url` (error correction M), row by row, True = a dark module."""
    code = segno.make(url, error="m", micro=False)
    return [[bool(module) for module in row] for row in code.matrix]


def qr_png(url: str, scale: int = 8, border: int = 4) -> bytes:
    """The QR code of `url` as a PNG (`scale` pixels a module, `border` modules of quiet zone)."""
    buffer = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buffer, kind="png", scale=scale, border=border)
    return buffer.getvalue()
