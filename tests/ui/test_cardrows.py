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
