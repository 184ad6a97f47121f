"""Slide-to-pick on crowded hands (ui/table/slidepick.py): the card under the finger is
previewed (outlined, with an enlarged copy above the finger), follows the finger, and lifting
the finger taps it once; lifting it far above the hand cancels."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.tablesim import visible_point
from tests.ui.uitools import pump

pytestmark = pytest.mark.ui

# 25 Tractor cards (a dealer's hand before the bury), two suits with a gap between them.
TRACTOR_25 = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS",
              "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]
MERI_20 = ["PSu", "PRo", "P9", "P5", "P1", "ISu", "IRo", "I8", "I2", "KSu", "KRo", "K9", "K6",
           "K3", "OSu", "ORe", "PUn", "IUn", "KUn", "P2"]


def strip_point(hand: Any, index: int) -> tuple[float, float]:
    """A window point on the visible part of card `index` (later cards cover the rest)."""
    return hand.to_window(*visible_point(hand, index))


def zooms(window: Any) -> list[Any]:
    from ui.table.slidepick import CardZoom

    return [w for w in window.children if isinstance(w, CardZoom)]


@pytest.fixture
def pick_hand(window: Any) -> Iterator[tuple[Any, list[tuple[str, int]]]]:
    """A 25-card Tractor hand (multi-select) laid out as on the 800×480 landscape table (27% high)."""
    from ui.table.hand import Hand

    hand = Hand(deck="tractor", size_hint=(None, None), size=(800, 130), pos=(0, 0),
                breaks=[13], multi=True)
    events: list[tuple[str, int]] = []
    hand.bind(on_pick=lambda _h, event, index: events.append((event, index)))
    window.add_widget(hand)
    hand.codes = TRACTOR_25
    pump(3)
    yield hand, events
    window.remove_widget(hand)
    pump(1)


@pytest.fixture
def meri_hand(window: Any) -> Iterator[tuple[Any, list[tuple[str, int]]]]:
    """The same hand widget in its single-pick mode, with Meri cards."""
    from ui.table.hand import Hand

    hand = Hand(deck="meri", size_hint=(None, None), size=(800, 134), pos=(0, 0))
    events: list[tuple[str, int]] = []
    hand.bind(on_pick=lambda _h, event, index: events.append((event, index)))
    window.add_widget(hand)
    hand.codes = MERI_20  # a crowded strip
    pump(3)
    yield hand, events
    window.remove_widget(hand)
    pump(1)


def test_the_crowded_hand_shows_strips_narrower_than_a_finger(pick_hand: Any) -> None:
    hand, _events = pick_hand
    step = hand.views[1].x - hand.views[0].x
    # The reason for slide-to-pick: a fingertip (~9 mm) is about 45 px on a 7" 800×480 panel;
    # the strips show each card's whole index (issue 20) and no more (~30 px at 800 wide).
    assert step < 40 and step < hand.views[0].width * 0.6


def test_slide_from_card_3_to_card_10_taps_card_10_once(window: Any, pick_hand: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    hand, events = pick_hand
    touch = UnitTestTouch(*strip_point(hand, 3))
    touch.touch_down()
    assert hand.preview_index == 3
    assert "preview" in hand.views[3].__dict__["_outlines"]
    [zoom] = zooms(window)
    assert zoom.code == hand.views[3].code and zoom.height > hand.views[3].height
    assert zoom.y > touch.y  # floats above the finger
    visited = [3]
    for index in range(4, 11):
        touch.touch_move(*strip_point(hand, index))
        visited.append(hand.preview_index)
        assert zooms(window) == [zoom] and zoom.code == hand.views[index].code
        assert zoom.x <= touch.x <= zoom.right
    assert visited == list(range(3, 11))
    assert "preview" not in hand.views[3].__dict__.get("_outlines", {})
    assert events == []  # nothing sent while sliding
    touch.touch_up()
    pump(1)
    assert events == [("tap", 10)]
    assert hand.preview_index == -1 and zooms(window) == []
    assert not any("preview" in v.__dict__.get("_outlines", {}) for v in hand.views)


def test_sliding_above_the_cards_keeps_picking_by_the_finger_x(pick_hand: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    hand, events = pick_hand
    x, y = strip_point(hand, 5)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    above = hand.to_window(0, hand.views[0].top + hand.views[0].height * 0.5)[1]
    touch.touch_move(strip_point(hand, 7)[0], above)
    assert hand.preview_index == 7
    touch.touch_up()
    pump(1)
    assert events == [("tap", 7)]


def test_dragging_away_vertically_cancels_without_an_event(window: Any, pick_hand: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    hand, events = pick_hand
    x, y = strip_point(hand, 12)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    assert hand.preview_index == 12 and len(zooms(window)) == 1
    far = hand.to_window(0, hand.views[0].top + hand.views[0].height * 1.5)[1]
    touch.touch_move(x, far)
    assert hand.preview_index == -1 and zooms(window) == []  # the preview shows the cancel
    touch.touch_up()
    pump(1)
    assert events == []
    assert hand.preview_index == -1 and zooms(window) == []
    assert not any("preview" in v.__dict__.get("_outlines", {}) for v in hand.views)


def test_quick_tap_sends_the_same_tap_as_before(pick_hand: Any) -> None:
    from tests.ui.tablesim import tap_card

    hand, events = pick_hand
    for index in (0, 8, 13, 24):
        tap_card(hand, index)
    assert events == [("tap", 0), ("tap", 8), ("tap", 13), ("tap", 24)]


def test_raised_and_dimmed_cards_are_tapped_as_before(pick_hand: Any) -> None:
    """A picked (raised) card is hit on its raised part; a dimmed card still sends its tap so
    the table can say why it is refused."""
    from tests.ui.tablesim import tap_at

    hand, events = pick_hand
    hand.picked = [6]
    hand.legal = [0, 1]
    hand.dim_illegal = True
    pump(2)
    raised = hand.views[6]
    assert raised.y > hand.views[7].y and not hand.views[6].legal
    # above card 7's top, over card 7's strip: the raised card 6 shows there
    tap_at(*hand.to_window(hand.views[7].x + 2, raised.top - 2))
    assert events == [("tap", 6)]


def test_two_row_hand_picks_in_the_row_under_the_finger(window: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    from ui.table.hand import Hand

    hand = Hand(deck="tractor", size_hint=(None, None), size=(720, 300), pos=(0, 0),
                rows=2, breaks=[13], multi=True)
    events: list[int] = []
    hand.bind(on_pick=lambda _h, _e, index: events.append(index))
    window.add_widget(hand)
    try:
        hand.codes = TRACTOR_25
        pump(3)
        assert hand.views[20].y < hand.views[2].y  # the second row lies below the first
        touch = UnitTestTouch(*strip_point(hand, 2))
        touch.touch_down()
        assert hand.preview_index == 2
        touch.touch_move(*strip_point(hand, 20))
        assert hand.preview_index == 20
        touch.touch_up()
        pump(1)
        assert events == [20]
    finally:
        window.remove_widget(hand)


def test_changing_the_cards_removes_the_preview_and_sends_nothing(
        window: Any, pick_hand: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    hand, events = pick_hand
    touch = UnitTestTouch(*strip_point(hand, 4))
    touch.touch_down()
    assert len(zooms(window)) == 1
    hand.codes = TRACTOR_25[:20]
    pump(2)
    assert hand.preview_index == -1 and zooms(window) == []
    touch.touch_up()
    pump(1)
    assert events == []


def test_a_hand_not_taking_input_previews_nothing(window: Any, pick_hand: Any) -> None:
    from tests.ui.tablesim import tap_card

    hand, events = pick_hand
    hand.interactive = False
    pump(2)
    tap_card(hand, 5)
    assert events == [] and zooms(window) == []


def test_keyboard_select_and_ok_are_unchanged(pick_hand: Any) -> None:
    hand, events = pick_hand
    hand.views[9].focus_select()
    hand.views[2].focus_ok()
    assert events == [("select", 9), ("activate", 2)]


def test_meri_hand_strip_slides_taps_and_cancels(window: Any, meri_hand: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    from tests.ui.tablesim import tap_card

    hand, events = meri_hand
    assert hand.views[1].x - hand.views[0].x < hand.views[0].width  # overlapped
    touch = UnitTestTouch(*strip_point(hand, 1))
    touch.touch_down()
    assert hand.preview_index == 1
    [zoom] = zooms(window)
    touch.touch_move(*strip_point(hand, 17))
    assert hand.preview_index == 17 and zoom.code == hand.codes[17]
    touch.touch_up()
    pump(1)
    assert events == [("tap", 17)] and zooms(window) == []
    touch = UnitTestTouch(*strip_point(hand, 4))
    touch.touch_down()
    touch.touch_move(touch.x, hand.to_window(0, hand.views[0].top + hand.views[0].height * 2)[1])
    touch.touch_up()
    pump(1)
    assert events == [("tap", 17)] and zooms(window) == []
    tap_card(hand, 15)
    assert events[-1] == ("tap", 15) and len(events) == 2


def test_a_touch_beside_the_cards_is_left_to_the_widgets_below(pick_hand: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    hand, events = pick_hand
    hand.codes = TRACTOR_25[:5]  # a short hand, centred: the hand's box is empty at its left
    pump(2)
    assert hand.views[0].x > 20
    touch = UnitTestTouch(*hand.to_window(hand.x + 5, hand.y + 20))
    touch.touch_down()
    assert touch.grab_list == [] and hand.preview_index == -1
    touch.touch_move(*strip_point(hand, 2))
    touch.touch_up()
    pump(1)
    assert events == []


def test_tractor_table_bury_slide_picks_the_card_under_the_finger(make_app: Any) -> None:
    """The whole app at 800×480: the dealer's 33 cards at the bury (T-11), one slide from
    card 3 to card 10 picks card 10 only; the enlarged copy is on the window, then gone."""
    from kivy.tests.common import UnitTestTouch

    from tests.ui.tablesim import start_deal, tractor_dealer_deal, wait_turn

    app = make_app(size=(800, 480), pace=0)
    table = start_deal(app, "tractor", tractor_dealer_deal())
    wait_turn(table)
    table.choose(table.choice_actions[-1])
    while table.prompt != "bury":
        wait_turn(table)
        if table.prompt == "declare":
            table.choose(table.choice_actions[0])
    hand = table.ids.hand
    assert len(hand.views) == 33 and list(hand.picked) == []  # 25 + the 8-card kitty
    touch = UnitTestTouch(*strip_point(hand, 3))
    touch.touch_down()
    assert hand.preview_index == 3 and hand.preview_zoom is not None
    for index in range(4, 11):
        touch.touch_move(*strip_point(hand, index))
    assert hand.preview_index == 10 and hand.preview_zoom.code == hand.codes[10]
    touch.touch_up()
    pump(3)
    assert list(hand.picked) == [10] and hand.preview_zoom is None
