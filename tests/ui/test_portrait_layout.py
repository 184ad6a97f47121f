"""Portrait laid out for portrait (issue 35, point 6): at 720×1280 a table uses the height.

"At 720×1280 the middle third is empty felt while the hand is squeezed into two rows cut at
the edge." The geometry says it in three figures, each measured on the widgets as drawn:

- the hand's cards: in portrait, the largest hand a game deals is drawn with cards (and so
  indexes) at least `PORTRAIT_GROWTH` times as tall as the same hand at 800×480: the portrait
  screen is 2.7 times as tall and nearly as wide, so the hand takes more rows or more height
  instead of keeping a landscape strip;
- nothing cut: every card of the hand lies inside the window and the hand's box (a picked card
  raised too);
- the empty felt: the tallest band across the whole window in which nothing is drawn (no card,
  no seat's badge, no button, no line of text) is at most `MOST_EMPTY` of the window's height,
  at the moment the largest hand is shown (Chắn's deal: no card on the table yet, only the
  seats' empty places) and mid-play, with normal and large cards.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.test_hand_legibility import largest_table, measure, midplay_table
from tests.ui.uitools import pump, shown

pytestmark = pytest.mark.ui

PORTRAIT = (720, 1280)
LANDSCAPE = (800, 480)
#: The portrait hand's cards at least this much taller than the landscape hand's.
PORTRAIT_GROWTH = 1.5
#: The tallest empty band across a portrait table, as a share of the window's height (before
#: issue 35 point 6: Chắn's deal 21 %, 26 % with large cards, Tractor's bury 26 %, mid-play 17 %).
MOST_EMPTY = 1 / 7


def drawn_bands(table: Any) -> list[tuple[float, float]]:
    """The vertical extents (window px, bottom and top) of what the table draws: face-up or
    face-down cards, seat badges, buttons, and each label's line(s) of text (its texture,
    centred in its box as Kivy draws it)."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from ui.table.widgets import CardView, SeatBadge

    out = []
    for widget in table.walk(restrict=True):
        if widget is table or widget.width <= 2 or widget.height <= 2 or not shown(widget):
            continue
        if isinstance(widget, CardView) and not widget.code:
            continue
        if isinstance(widget, (CardView, SeatBadge, Button)):
            bottom, top = widget.y, widget.top
        elif isinstance(widget, Label) and widget.text.strip():
            ink = min(widget.texture_size[1], widget.height)
            bottom, top = widget.center_y - ink / 2, widget.center_y + ink / 2
        else:
            continue
        _x, bottom = widget.to_window(0, bottom)
        _x, top = widget.to_window(0, top)
        out.append((bottom, top))
    return out


def tallest_empty_band(table: Any) -> tuple[float, float, float]:
    """The tallest band across the window with nothing drawn in it: (height, bottom, top)."""
    from kivy.core.window import Window

    best = (0.0, 0.0, 0.0)
    reached = 0.0
    for bottom, top in sorted([*drawn_bands(table), (Window.height, Window.height)]):
        if bottom - reached > best[0]:
            best = (bottom - reached, reached, bottom)
        reached = max(reached, top)
    return best


def hand_at(make_app: Any, game_name: str, size: tuple[int, int], large: bool) -> dict[str, Any]:
    app = make_app(size=size)
    app.set_large_cards(large)
    table = largest_table(app, game_name)
    pump(6)
    got = measure(table.ids.hand)
    got["views"] = [(v.x, v.y, v.right, v.top) for v in table.ids.hand.views]
    got["box"] = (table.ids.hand.x, table.ids.hand.y, table.ids.hand.right, table.ids.hand.top)
    return got


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("game_name", ["chan", "tractor", "meri"])
def test_portrait_hand_uses_the_height(make_app: Any, game_name: str, large: bool) -> None:
    wide = hand_at(make_app, game_name, LANDSCAPE, large)
    tall = hand_at(make_app, game_name, PORTRAIT, large)
    where = f"{game_name} large={large}: landscape {wide['size']}, portrait {tall['size']}"
    assert tall["size"][1] >= PORTRAIT_GROWTH * wide["size"][1], where
    assert tall["glyph"] >= PORTRAIT_GROWTH * wide["glyph"], where
    x0, y0, x1, y1 = tall["box"]
    for left, bottom, right, top in tall["views"]:  # nothing cut: inside the hand and window
        assert x0 - 0.5 <= left and right <= x1 + 0.5 and y0 - 0.5 <= bottom, where
        assert top <= y1 + 0.5 and 0 <= left and right <= PORTRAIT[0], where
        assert 0 <= bottom and top <= PORTRAIT[1], where


@pytest.mark.parametrize("moment", ["largest", "midplay"])
@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("game_name", ["chan", "tractor", "meri"])
def test_portrait_felt_is_not_left_empty(make_app: Any, game_name: str, large: bool,
                                         moment: str) -> None:
    app = make_app(size=PORTRAIT)
    app.set_large_cards(large)
    table = (largest_table if moment == "largest" else midplay_table)(app, game_name)
    pump(6)
    height, bottom, top = tallest_empty_band(table)
    assert height <= MOST_EMPTY * PORTRAIT[1], (
        f"{game_name} large={large} {moment}: nothing drawn from y={bottom:.0f} to y={top:.0f} "
        f"({height / PORTRAIT[1]:.0%} of the window's height)")


def test_a_few_cards_keep_to_the_hands_tallest() -> None:
    """A portrait hand's box is sized for the dealer's cards; the last few cards of a deal stay
    no taller than the hand's `max_card` (not a 400 px card face drawn for two cards)."""
    from ui.table.hand import plan

    free = plan("tractor", 2, [0, 0, 0], 712, 465)
    capped = plan("tractor", 2, [0, 0, 0], 712, 465, tallest=192)
    assert free is not None and capped is not None
    assert free.h > 192 >= capped.h


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
def test_a_picked_chan_card_leaves_the_row_above_whole(make_app: Any, large: bool) -> None:
    """A Chắn card prints its suit at its foot: in a two-row portrait hand a picked card of
    the lower row rises clear of the cards above it (their index reads to the foot)."""
    from tests.ui.test_hand_legibility import rows_of

    app = make_app(size=PORTRAIT)
    app.set_large_cards(large)
    table = largest_table(app, "chan")
    hand = table.ids.hand
    upper, lower = rows_of(hand)[:2]
    for view in lower:
        hand.picked = [hand.views.index(view)]
        pump(2)
        for above in upper:
            if above.x < view.right and above.right > view.x:
                assert view.top <= above.y + 0.5, (large, view.code, above.code)
