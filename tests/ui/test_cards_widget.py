"""CardWidget: shows the right cached texture for its state, lifts, dims, outlines, takes taps."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def window():
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    return EventLoop.window


@pytest.fixture
def card(window):
    from ui.cards.widget import CardWidget

    widget = CardWidget(deck="meri", code="KSu", size=(62, 100), size_hint=(None, None),
                        pos=(10, 10))
    window.add_widget(widget)
    yield widget
    window.remove_widget(widget)


def test_face_back_and_facedown_trump_textures(card) -> None:
    from ui import cards

    assert card._card.texture is cards.texture("meri", "KSu", 62, 100)
    card.face_up = False
    assert card._card.texture is cards.back("meri", 62, 100)
    card.trump_mark = True  # H-26-style face-down trump: the back with its badge
    assert card._card.texture is cards.facedown("meri", 62, 100)
    card.face_up = True
    card.code = "PRo"
    assert card._card.texture is cards.texture("meri", "PRo", 62, 100)


def test_resizing_follows_with_a_texture_of_the_new_size(card) -> None:
    card.size = (93, 150)
    assert card._card.texture.size == (93, 150)
    assert tuple(card._card.size) == (93, 150)


def test_selected_lifts_illegal_dims_focus_and_highlight_outline(card) -> None:
    from kivy.base import EventLoop

    from ui.cards.widget import FOCUS_RGBA, HIGHLIGHT_RGBA

    assert tuple(card._card.pos) == (10, 10)
    card.selected = True
    assert tuple(card._card.pos) == (10, 10 + 15)
    assert tuple(card._dim.size) == (0, 0)
    card.legal = False
    assert tuple(card._dim.size) == (62, 100)
    assert card._outline_color.a == 0
    card.highlighted = True
    assert tuple(card._outline_color.rgba) == HIGHLIGHT_RGBA
    EventLoop.idle()  # the Line computes its points when drawn
    ys = card._outline.points[1::2]
    assert ys and min(ys) == pytest.approx(25, abs=1)  # the outline follows the lift
    card.focused = True
    assert tuple(card._outline_color.rgba) == FOCUS_RGBA
    card.focused = card.highlighted = False
    assert card._outline_color.a == 0


def test_tap_fires_on_press_only_inside_the_card(card) -> None:
    from kivy.tests.common import UnitTestTouch

    presses: list[str] = []
    card.bind(on_press=lambda w: presses.append(w.code))
    outside = UnitTestTouch(200, 200)
    outside.touch_down()
    outside.touch_up()
    assert presses == []
    inside = UnitTestTouch(40, 50)
    inside.touch_down()
    inside.touch_up()
    assert presses == ["KSu"]


def test_unknown_code_in_widget_is_a_value_error(card) -> None:
    with pytest.raises(ValueError, match="'Z9'"):
        card.code = "Z9"


def test_changing_deck_clears_a_code_of_the_old_deck(card) -> None:
    from ui import cards

    card.deck = "chan"
    assert card.code == ""
    assert tuple(card._card.size) == (0, 0)  # nothing drawn without a code
    card.code = "CC"
    assert card._card.texture is cards.texture("chan", "CC", 62, 100)
    card.deck = "tractor"
    card.code = "AS"
    assert card._card.texture is cards.texture("tractor", "AS", 62, 100)
