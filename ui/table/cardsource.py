"""The one place the table gets card images from: `ui.cards` (the project's own card art)."""

from __future__ import annotations

from kivy.graphics.texture import Texture

from ui import cards

FACE, BACK, FACEDOWN = "face", "back", "facedown"


def aspect(deck: str) -> float:
    """Width / height of the deck's cards."""
    return cards.ASPECT[deck]


def card_texture(deck: str, code: str, face: str, width: float, height: float) -> Texture | None:
    """The texture of a card shown `face` (face up, back, or face-down trump); None if too small."""
    w, h = int(width), int(height)
    if w < 4 or h < 4:
        return None
    if face == BACK or not code and face == FACE:
        return cards.back(deck, w, h)
    if face == FACEDOWN:
        return cards.facedown(deck, w, h)
    return cards.texture(deck, code, w, h)
