"""`CardRow`: a long row (a summary's winning hand) makes its card views over a few frames,
each at its final place from the start."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.uitools import pump, wait_for

pytestmark = pytest.mark.ui


def test_a_long_row_makes_its_views_a_few_per_frame_at_their_final_places(window: Any) -> None:
    from ui import cards
    from ui.table.cardrows import NEW_PER_FRAME, CardRow

    codes = list(cards.CODES["chan"][:20])
    row = CardRow(deck="chan", size=(700, 110), pos=(0, 0))
    row.codes = codes
    pump(1)
    assert 0 < len(row.views) <= NEW_PER_FRAME
    first = [tuple(v.pos) for v in row.views]
    wait_for(lambda: len(row.views) == len(codes), 5, "every card of the row")
    assert [v.code for v in row.views] == codes
    assert [tuple(v.pos) for v in row.views[:len(first)]] == first  # nothing moved
    xs = [v.x for v in row.views]
    assert xs == sorted(xs) and xs[-1] + row.views[-1].width <= row.right + 1
    row.codes = codes[:3]  # a shorter row at once
    pump(1)
    assert [v.code for v in row.views] == codes[:3]


def test_a_row_emptied_and_filled_again_shows_its_new_cards_on_the_views_it_had(
        window: Any, monkeypatch) -> None:
    """A trick row empties and fills every trick: it keeps the views it took off and shows the
    next cards on them (no widget dropped for a garbage collection to find, none built), each
    with its new card, deck and outline.
    Views are counted by whose row they end up in: other rows of screens earlier tests left
    behind may make views of their own meanwhile."""
    from ui import cards
    from ui.table import cardrows
    from ui.table.cardrows import CardRow

    row = CardRow(deck="tractor", size=(300, 90), pos=(0, 0))
    row.codes = ["AS", "KS", "QS"]
    row.mark = 1
    wait_for(lambda: len(row.views) == 3 and not any(v.pending for v in row.views), 5, "drawn")
    before = list(row.views)
    row.codes = []
    pump(1)
    assert row.views == [] and not row.children
    made: list[Any] = []
    real = cardrows.CardView

    def counted(**kw: Any) -> Any:
        made.append(real(**kw))
        return made[-1]

    monkeypatch.setattr(cardrows, "CardView", counted)

    def made_here() -> list[Any]:
        return [v for v in made if v in row.views or v.parent is row]

    row.codes = ["2H", "3H"]
    row.mark = -1

    def shown() -> bool:
        return len(row.views) == 2 and all(
            v.texture is not None and v.texture is cards.CACHE.cached(
                ("face", "tractor", v.code, int(v.width), int(v.height))) for v in row.views)

    wait_for(shown, 5, "the new cards drawn")
    assert made_here() == [] and row.views == before[:2]
    assert [v.code for v in row.views] == ["2H", "3H"] and not any(v.winner for v in row.views)
    row.deck = "chan"
    row.codes = list(cards.CODES["chan"][:4])
    wait_for(lambda: len(row.views) == 4 and not any(v.pending for v in row.views), 5, "drawn")
    assert len(made_here()) == 1 and row.views[:3] == before  # one view more than it ever had
    assert all(v.deck == "chan" for v in row.views)


def test_rows_make_their_views_within_a_frames_budget(window: Any, monkeypatch) -> None:
    """However many rows fill at once, the views they make in one frame stay within the
    frame's view budget (the first view of a frame is always made)."""
    from ui import cards
    from ui.table import cardrows, cardsource
    from ui.table.cardrows import CardRow

    monkeypatch.setattr(cardrows, "VIEWS", cardsource.FrameBudget(0.0))  # one view a frame
    rows = [CardRow(deck="chan", size=(400, 80), pos=(0, 100 * i)) for i in range(3)]
    for row in rows:
        row.codes = list(cards.CODES["chan"][:4])
    pump(1)
    assert sum(len(row.views) for row in rows) == 1
    wait_for(lambda: all(len(row.views) == 4 for row in rows), 5, "every row filled")


def test_views_made_before_the_row_has_room_draw_no_card_at_a_default_size(window: Any) -> None:
    """A row given cards while it is still collapsed (no layout yet) makes its views but draws
    no card until it has room (it drew each at Kivy's default 100x100 size)."""
    from ui import cards
    from ui.table.cardrows import CardRow

    cards.CACHE.clear()
    row = CardRow(deck="chan", size=(0, 0), pos=(0, 0))
    row.codes = ["", "CC"]  # a back and a face
    pump(3)
    assert len(row.views) == 2
    assert not any(key[3:] == (100, 100) for key in cards.CACHE._items)
    assert not any(key[3:] == (100, 100) for key in cards.CACHE._jobs)
    row.size = (200, 70)
    wait_for(lambda: all(v.texture is not None for v in row.views), 5, "drawn once placed")
    assert all(v.height > 10 for v in row.views)
