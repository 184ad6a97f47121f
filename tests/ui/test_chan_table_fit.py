"""The Chắn table builds at 800×480 and 720×1280 with no label cut off in any of the five
languages: a capture prompt, a win offer, and the summary (issue 7 acceptance)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from tests.ui.tablesim import cut_in_languages, start_deal, wait_turn
from tests.ui.test_chan_table import find_offer

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_chan_table_fits_in_every_language(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(size=size, pace=0)
    table = start_deal(app, "chan", registry.get("chan").new_deal(4))
    assert table.width == size[0] and table.height == size[1]
    wait_turn(table)
    problems = cut_in_languages(app, f"{size} {table.prompt}")
    deal, actions = find_offer("win_offer")
    table = start_deal(app, "chan", deal, actions)
    wait_turn(table)
    assert table.prompt == "offer"
    problems += cut_in_languages(app, f"{size} offer")
    table.answer_offer(True)
    wait_turn(table)
    assert table.summary_open
    problems += cut_in_languages(app, f"{size} summary")
    assert not problems, "\n".join(problems)
