"""Fonts shipped with Parlor (a package so that the wheel and bundles carry its files).

`ParlorSans-{Regular,Bold}.ttf` are Kivy's Roboto with the four French suit symbols added
(`scripts/make_ui_font.py`): cards are named "K♥", "10♠" in every button and line of text, and
Kivy's text provider has no font fallback. `register_text_font` makes them Kivy's default font.
"""

from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).parent
REGULAR = str(FONT_DIR / "ParlorSans-Regular.ttf")
BOLD = str(FONT_DIR / "ParlorSans-Bold.ttf")


def register_text_font() -> None:
    """Every label's default font (Kivy's `DEFAULT_FONT`, "Roboto") becomes Parlor Sans: the
    same glyphs and metrics, plus ♠ ♥ ♣ ♦. Italic stays Kivy's Roboto Italic (no card there)."""
    from kivy.core.text import DEFAULT_FONT, LabelBase

    LabelBase.register(DEFAULT_FONT, fn_regular=REGULAR, fn_bold=BOLD,
                       fn_italic="data/fonts/Roboto-Italic.ttf",
                       fn_bolditalic="data/fonts/Roboto-BoldItalic.ttf")
