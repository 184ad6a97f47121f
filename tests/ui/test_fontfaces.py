"""`ui.fontfaces`: Kivy's SDL2 text provider keys its open font faces by the whole size it
opens them at, so labels a fraction of a point apart share one face and render as before."""

from __future__ import annotations

from typing import Any

from ui import fontfaces


def _pixels(size: float, text: str = "Tractor 10♥ Chắn") -> tuple[tuple[int, int], bytes]:
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=size, bold=True)
    label.refresh()
    texture = label.texture
    return tuple(texture.size), bytes(texture.pixels)


def test_fractional_sizes_share_the_face_of_their_whole_size_and_render_the_same(
        window: Any) -> None:
    from kivy.core.text.text_sdl2 import LabelSDL2

    plain = LabelSDL2._get_font_id
    before = {size: _pixels(size) for size in (21.0, 21.87, 24.3, 22.0)}
    try:
        assert fontfaces.install()
        from kivy.core.text import Label as CoreLabel

        ids = {size: CoreLabel(text="x", font_size=size)._get_font_id()
               for size in (21.0, 21.87, 24.3, 24.0, 22.0)}
        assert ids[21.0] == ids[21.87] and ids[24.3] == ids[24.0]
        assert len({ids[21.0], ids[22.0], ids[24.0]}) == 3
        assert ids[21.0].startswith("21|") and "ParlorSans" in ids[21.0]  # ui.fonts: Roboto + suits
        after = {size: _pixels(size) for size in before}
        assert after == before  # every label renders exactly as it did
        assert before[21.87] == before[21.0] != before[22.0]
    finally:
        LabelSDL2._get_font_id = plain
