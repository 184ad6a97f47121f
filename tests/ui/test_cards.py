"""Card art: every face of the three decks renders, cards differ, colours follow the rules.

Rule ids: meri H-5…H-7 (75 Unsun karuta codes), tractor T-5 (54 codes), chan C-3…C-5 (30 faces,
red faces `8M 9M 8S 9S CC`).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

SIZES = {"meri": (31, 50), "tractor": (35, 50), "chan": (18, 60)}


@pytest.fixture(scope="module")
def cards():
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    from ui import cards as module

    return module


def _pixels(texture) -> bytes:
    return bytes(texture.pixels)


def _red_pixels(texture) -> int:
    px = _pixels(texture)
    return sum(
        1 for i in range(0, len(px), 4) if px[i] > 150 and px[i + 1] < 90 and px[i + 2] < 100
    )


def test_deck_codes_follow_the_rules_H7_T5_C4(cards) -> None:
    assert len(cards.CODES["meri"]) == 75
    assert all(re.fullmatch(r"[PIKOG]([1-9]|Su|Un|Re|Ka|So|Ro)", c) for c in cards.CODES["meri"])
    assert len(cards.CODES["tractor"]) == 54
    assert {"BJ", "RJ", "10H", "2S", "AD"} <= set(cards.CODES["tractor"])
    assert len(cards.CODES["chan"]) == 30  # C-3: all 30 faces of the 120-card deck
    assert {f"{r}{s}" for r in range(1, 10) for s in "MSC"} | {"CC", "OC", "TT"} == set(
        cards.CODES["chan"]
    )
    for deck, codes in cards.CODES.items():
        assert len(set(codes)) == len(codes), deck


@pytest.mark.parametrize("deck", ["meri", "tractor", "chan"])
def test_every_face_renders_at_the_asked_size_and_faces_differ(cards, deck: str) -> None:
    w, h = SIZES[deck]
    seen: dict[bytes, str] = {}
    for code in cards.CODES[deck]:
        texture = cards.texture(deck, code, w, h)
        assert texture.size == (w, h), code
        px = _pixels(texture)
        assert len(px) == w * h * 4
        assert px not in seen, f"{code} draws the same pixels as {seen.get(px)}"
        seen[px] = code
    back = _pixels(cards.back(deck, w, h))
    down = _pixels(cards.facedown(deck, w, h))
    assert back not in seen and down not in seen and back != down


def test_red_tom_faces_contain_red_and_black_ones_do_not_C5(cards) -> None:
    w, h = 24, 80
    for code in ("8M", "9M", "8S", "9S", "CC"):
        assert _red_pixels(cards.texture("chan", code, w, h)) > 20, code
    for code in ("2M", "7C", "3S", "9C", "5M"):
        assert _red_pixels(cards.texture("chan", code, w, h)) == 0, code


def test_hearts_and_red_joker_are_red_spades_are_not_T5(cards) -> None:
    assert _red_pixels(cards.texture("tractor", "7H", 35, 50)) > 20
    assert _red_pixels(cards.texture("tractor", "RJ", 35, 50)) > 20
    assert _red_pixels(cards.texture("tractor", "7S", 35, 50)) == 0


def test_cache_returns_the_same_texture_object(cards) -> None:
    first = cards.texture("meri", "PRo", 40, 64)
    renders = cards.CACHE.renders
    assert cards.texture("meri", "PRo", 40, 64) is first
    assert cards.back("meri", 40, 64) is cards.back("meri", 40, 64)
    assert cards.facedown("meri", 40, 64) is cards.facedown("meri", 40, 64)
    assert cards.CACHE.renders == renders + 2  # back and facedown drawn once each
    assert cards.texture("meri", "PRo", 41, 64) is not first


def test_preload_draws_once_then_finds_everything_cached(cards) -> None:
    assert cards.preload("chan", 13, 43) == 31  # 30 faces and the back
    assert cards.preload("chan", 13, 43) == 0
    assert cards.preload("tractor", 13, 19, ["AS", "BJ"]) == 3
    with pytest.raises(ValueError, match="'ZZ'"):
        cards.preload("tractor", 13, 19, ["ZZ"])


def test_cache_evicts_the_least_recently_used(cards) -> None:
    from ui.cards.render import TextureCache

    cache = TextureCache(capacity=2)
    draws: list[str] = []

    def drawer(name: str):
        return lambda p: (draws.append(name), p.blank())

    a = cache.get(("face", "x", "a", 8, 8), drawer("a"))
    cache.get(("face", "x", "b", 8, 8), drawer("b"))
    assert cache.get(("face", "x", "a", 8, 8), drawer("a")) is a  # a is now the most recent
    cache.get(("face", "x", "c", 8, 8), drawer("c"))  # evicts b
    assert len(cache) == 2
    cache.get(("face", "x", "b", 8, 8), drawer("b"))
    assert draws == ["a", "b", "c", "b"]
    with pytest.raises(ValueError, match="capacity"):
        TextureCache(capacity=0)


def test_a_reused_scratch_fbo_draws_exactly_what_a_fresh_one_does(cards) -> None:
    """Cards of every size are drawn into the corner of one kept scratch Fbo: the pixels are
    those of an Fbo of the card's own size, and nothing of the previous card may remain."""
    from kivy.graphics import ClearBuffers, ClearColor, Fbo, InstructionGroup

    from ui.cards import chan, french, render
    from ui.cards.paint import Painter

    def fresh(draw, w: int, h: int) -> bytes:
        fbo = Fbo(size=(w, h), with_stencilbuffer=False)
        group = InstructionGroup()
        draw(Painter(group, w, h))
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
        fbo.add(group)
        fbo.draw()
        return fbo.pixels

    faces = [(lambda p: french.draw_face(p, "KH")), french.draw_back,
             (lambda p: french.draw_face(p, "RJ")), (lambda p: p.blank())]
    for draw in faces:  # each drawn over the one before in the same scratch Fbo
        assert render.pixels(draw, 35, 50) == fresh(draw, 35, 50)
    render.drop_scratch()
    sizes = [(18, 60), (19, 60), (20, 60), (21, 60), (62, 88), (67, 96), (78, 112), (29, 96)]
    for size in sizes:
        assert render.pixels(chan.draw_back, *size) == fresh(chan.draw_back, *size)
        assert render.pixels(faces[0], *size) == fresh(faces[0], *size)
    (scratch,) = render._scratch  # one Fbo for all of them
    assert tuple(scratch.size) == (render.SCRATCH_MIN, render.SCRATCH_MIN)
    big = (render.SCRATCH_MIN + 3, 2 * render.SCRATCH_MIN + 1)  # larger: remade, powers of two
    assert render.pixels(faces[2], *big) == fresh(faces[2], *big)
    assert tuple(render._scratch[0].size) == (2 * render.SCRATCH_MIN, 4 * render.SCRATCH_MIN)
    assert render.pixels(faces[0], 35, 50) == fresh(faces[0], 35, 50)  # small again: kept


@pytest.mark.parametrize(
    ("deck", "code"), [("meri", "P10"), ("meri", "psu"), ("tractor", "1S"), ("chan", "10M"),
                       ("chan", "XX"), ("tractor", "")]
)
def test_unknown_code_is_a_value_error_naming_it(cards, deck: str, code: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(code))):
        cards.texture(deck, code, 30, 50)


def test_unknown_deck_and_bad_size_are_value_errors(cards) -> None:
    with pytest.raises(ValueError, match="'poker'"):
        cards.texture("poker", "AS", 30, 50)
    with pytest.raises(ValueError, match="'poker'"):
        cards.back("poker", 30, 50)
    with pytest.raises(ValueError, match="0x50"):
        cards.texture("tractor", "AS", 0, 50)
    with pytest.raises(ValueError, match="out of range"):
        cards.facedown("chan", 30, 100_000)


def test_aspect_and_size_for(cards) -> None:
    assert set(cards.ASPECT) == {"meri", "tractor", "chan"}
    assert cards.ASPECT["chan"] < cards.ASPECT["meri"] < cards.ASPECT["tractor"]  # long Tổ Tôm
    w, h = cards.size_for("tractor", 100)
    assert (w, h) == (round(100 * cards.ASPECT["tractor"]), 100)


def test_font_subset_ships_exactly_the_characters_the_faces_print() -> None:
    from ui.cards import chan, paint

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("make_font_subset",
                                                  root / "scripts" / "make_font_subset.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert sorted(script.GLYPHS) == sorted(chan.CJK_TEXT)
    assert Path(paint.CJK_FONT).is_file()
    assert (Path(paint.CJK_FONT).parent / "OFL.txt").is_file()


def test_cjk_characters_render_with_the_shipped_font(cards) -> None:
    """Each character drawn by the Tổ Tôm faces yields ink; a missing glyph would draw tofu,
    which is the same box for every character, so all characters must also differ."""
    from kivy.core.text import Label as CoreLabel

    from ui.cards import chan, paint

    seen = set()
    for char in chan.CJK_TEXT:
        label = CoreLabel(text=char, font_size=24, font_name=paint.CJK_FONT)
        label.refresh()
        px = bytes(label.texture.pixels)
        assert any(px[3::4]), char
        seen.add(px)
    assert len(seen) == len(chan.CJK_TEXT)
