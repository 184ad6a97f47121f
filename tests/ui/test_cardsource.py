"""Card images for tables: cached faces are plain textures (no framebuffer kept per card), tiny
cards are not drawn, and the warmer draws a deck ahead of need one card per frame."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.uitools import pump

pytestmark = pytest.mark.ui


def test_a_cached_face_is_a_plain_texture_with_the_drawn_pixels(window: Any) -> None:
    from kivy.graphics import Fbo
    from kivy.graphics.texture import Texture

    from ui.cards import karuta
    from ui.cards.render import pixels, render

    kept, texture = render(lambda p: karuta.draw_face(p, "PRo"), 30, 46)
    assert type(texture) is Texture and not isinstance(kept, Fbo)  # no Fbo kept per card
    assert texture.size == (30, 46)
    assert bytes(texture.pixels) == pixels(lambda p: karuta.draw_face(p, "PRo"), 30, 46)


def test_tiny_cards_are_not_drawn(window: Any) -> None:
    from ui import cards
    from ui.table import cardsource

    before = cards.CACHE.renders
    assert cardsource.card_texture("tractor", "AS", cardsource.FACE, 4, 9) is None
    assert cardsource.card_texture("tractor", "AS", cardsource.FACE, 40, 6) is None
    assert cards.CACHE.renders == before
    assert cardsource.card_texture("tractor", "AS", cardsource.FACE, 7, 10) is not None


def test_warmer_draws_a_deck_one_card_per_frame_and_skips_drawn_cards(window: Any) -> None:
    from ui import cards
    from ui.table.cardsource import Warmer

    warmer = Warmer()
    cards.texture("chan", "1M", 11, 37)  # already drawn: the warmer skips it
    warmer.warm("chan", 11, 37)
    warmer.warm("chan", 11, 37)  # asking again while queued adds nothing
    pump(1)
    assert warmer.drawn == 1  # one card per frame (other tests' scheduled work may draw too)
    pump(40)
    assert warmer.drawn == len(cards.CODES["chan"]) - 1
    assert all(("face", "chan", code, 11, 37) in cards.CACHE for code in cards.CODES["chan"])
    warmer.warm("chan", 11, 37)  # all drawn: a new request draws nothing
    pump(40)
    assert warmer.drawn == len(cards.CODES["chan"]) - 1


def test_a_table_in_the_background_warms_nothing_until_entered(make_app: Any) -> None:
    from ui.table import cardsource

    app = make_app()
    meri = app.root.get_screen("meri")
    assert app.root.current == "home"
    queued = len(cardsource.WARMER.todo)
    meri.warm_cards("meri", [(30, 48)])
    assert len(cardsource.WARMER.todo) == queued  # kept for later, nothing drawn for home
    meri.dispatch("on_pre_enter")
    assert ("meri", 30, 48) in cardsource.WARMER.queued
