"""One open font face per whole font size: a hook on Kivy's SDL2 text provider.

Kivy's SDL2 provider keeps the fonts it opened (SDL_ttf faces, ~0.1 MiB each with their glyph
caches) keyed by the font size *as written*, yet opens each at the whole size (SDL_ttf takes an
int). Parlor's labels shrink to fit in steps of ×0.9 (24.3, 21.87, 19.683 …) and the cards
scale their text with the card, so one Tractor deal asked for 66 such keys over 31 whole sizes:
twice the faces, and past the provider's limit of 64 it closed and reopened faces all deal
long (the CPU of opening one counted in a frame's text layout, and the memory churned).
`install` keys the faces by the whole size the provider opens anyway, so every label renders
exactly as before and labels a fraction of a point apart share one face.
"""

from __future__ import annotations

from typing import Any

#: The options the provider keys its faces by (Kivy 2.3's `LabelSDL2._get_font_id`).
KEYS = ("font_size", "font_name_r", "bold", "italic", "underline", "strikethrough")


def font_id(label: Any) -> str:
    """The key of `label`'s font face: its options, the size as the whole size it opens at."""
    options = label.options
    return "|".join(str(int(options[key])) if key == "font_size" else str(options[key])
                    for key in KEYS)


def install() -> bool:
    """Key the SDL2 provider's faces by `font_id`; False (nothing done) if Kivy's text provider
    is not SDL2's (other providers open fonts their own way)."""
    from kivy.core.text import Label as CoreLabel

    try:
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:
        return False
    if not issubclass(CoreLabel, LabelSDL2):
        return False
    LabelSDL2._get_font_id = font_id
    return True
