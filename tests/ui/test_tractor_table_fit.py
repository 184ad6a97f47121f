"""The Tractor table builds at 800×480 and 720×1280 with no label cut off in any of the five
languages: bidding, the bury, play with a selection, and the summary (issue 7 acceptance)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.tablesim import (
    cut_in_languages,
    finish_with_bots,
    start_deal,
    tractor_dealer_deal,
    wait_turn,
)

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_tractor_table_fits_in_every_language(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(size=size, pace=0)
    table = start_deal(app, "tractor", tractor_dealer_deal())
    assert table.width == size[0] and table.height == size[1]
    wait_turn(table)
    assert table.prompt == "declare"
    problems = cut_in_languages(app, f"{size} bidding")
    table.choose(table.choice_actions[-1])
    while table.prompt != "bury":
        wait_turn(table)
        if table.prompt == "declare":
            table.choose(table.choice_actions[0])
    for i in range(5):
        table.toggle(i)
    problems += cut_in_languages(app, f"{size} bury")
    table.toggle(5), table.toggle(6), table.toggle(7)
    table.submit()
    wait_turn(table)
    assert table.prompt == "play"
    table.toggle(0)
    problems += cut_in_languages(app, f"{size} play")
    finish_with_bots(table)
    problems += cut_in_languages(app, f"{size} summary")
    assert not problems, "\n".join(problems)
