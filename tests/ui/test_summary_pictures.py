"""The summary's pictures on real tables (ui/table/summary_cards.py, charts.py): each game's
summary shows the cards of its result's groups under their translated labels, at a readable
size, built a few widgets a frame; the match chart's lines follow the match's history; the
"Details" toggle (reached with the buttons) shows the explanation lines and hides them again."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ai.base import RandomBot
from engine.chan.positions import layout
from engine.records import GameRecord, parse_record
from engine.session import Session
from tests.engine.test_chan_support import record
from tests.ui.tablesim import focus_on, start_deal
from tests.ui.uitools import pump, settle, wait_for
from ui.i18n import translator
from ui.table import summary

pytestmark = pytest.mark.ui

#: The least height (px at 800×480) a summary card is drawn at, per deck: its index (rank and
#: suit, the Chắn numeral) then stays well above the 14 px the issue asks of glyphs.
MIN_CARD = {"meri": 70, "tractor": 60, "chan": 88}


def play_out(state: Any, seed: int) -> list[Any]:
    bot = RandomBot(seed)
    actions = []
    while not state.is_over:
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        state.apply(action)
        actions.append(action)
    return actions


def open_summary(app: Any, name: str, before: int, seed: int = 3) -> Any:
    """The table of `name` showing the summary of a deal played after `before` deals of its
    match (random bots), with every part of the pictures built."""
    game = registry.get(name)
    match = game.new_match(seed, deals=before + 2) if name == "chan" else game.new_match(seed)
    for number in range(before):
        state = match.next_deal()
        play_out(state, seed + number)
        match.finish_deal(state)
    for attempt in range(40):  # a Chắn deal with a winner (a drawn one has no cards to show)
        state = match.next_deal()
        probe = state.clone()
        actions = play_out(probe, 50 + attempt)
        if name != "chan" or probe.result["winner"] is not None:
            break
    record = GameRecord.deal(game, seed=0, state=state)
    for action in actions:
        record.apply(action)
    app.session = Session(game, match, record, save=app.save)
    app.sessions.open_table(name)
    table = app.root.get_screen(name)
    wait_for(lambda: table.summary_open, 20, "the summary")
    body = table.ids.summary_body
    wait_for(body.ready, 20, "every part and card of the summary")
    settle()
    return table


def tiles(body: Any) -> list[Any]:
    from ui.table.summary_cards import GroupTile

    return [w for w in reversed(body.children) if isinstance(w, GroupTile)]


@pytest.mark.parametrize("name", ["meri", "tractor", "chan"])
def test_each_summary_shows_the_groups_cards_under_their_labels(make_app: Any, name: str) -> None:
    translator.set_language("en")
    app = make_app(size=(800, 480), pace=0)
    table = open_summary(app, name, before=2)
    deal = table.deal_result()
    body = table.ids.summary_body
    shown = tiles(body)
    assert [list(t.codes) for t in shown] == [list(g.cards) for g in deal.groups]
    assert [t.text for t in shown] == [summary.render([g.label], table.summary_value)[0]
                                       for g in deal.groups]
    for tile in shown:
        row = tile.row()
        assert [v.code for v in row.views] == list(tile.codes)
        for view in row.views:  # legible at arm's length, and inside the tile
            assert view.height >= MIN_CARD[name]
            assert tile.x <= view.x and view.right <= tile.right + 1
    if name == "tractor":  # the level ladder per team instead of score chips
        from ui.table.summary_cards import ClimbRow

        climbs = [w for w in body.children if isinstance(w, ClimbRow)]
        assert sorted((c.before, c.after) for c in climbs) == sorted(
            (c.before, c.after) for c in deal.climbs)
    else:
        from ui.table.summary_cards import SideChip

        chips = [w for w in body.walk(restrict=True) if isinstance(w, SideChip)]
        assert len(chips) == len(deal.sides)
        assert [c.score.replace("\u2212", "-").lstrip("+") for c in chips] == [
            str(s.score) for s in deal.sides]


@pytest.mark.parametrize("name", ["meri", "tractor", "chan"])
def test_the_match_chart_follows_the_history(make_app: Any, name: str) -> None:
    app = make_app(size=(720, 1280), pace=0)
    table = open_summary(app, name, before=3)
    history = table.match_result().history
    chart = table.ids.summary_body.chart
    assert chart is not None and len(history) >= 4
    assert len(chart.plotted) == len(history[0])  # a line per side
    for side, points in enumerate(chart.plotted):
        values = [standing[side] for standing in history]
        assert len(points) == len(values)
        xs = [x for x, _y in points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)  # one point per deal, in order
        for i in range(len(values)):
            for j in range(len(values)):  # higher standing, higher point; equal, level
                if values[i] < values[j]:
                    assert points[i][1] < points[j][1]
                elif values[i] == values[j]:
                    assert points[i][1] == pytest.approx(points[j][1])
        assert all(chart.x <= x <= chart.right and chart.y <= y <= chart.top for x, y in points)


def test_a_chart_scales_its_values_between_its_axes(window: Any) -> None:
    from ui.table.charts import MatchChart

    chart = MatchChart(size=(400, 200), pos=(10, 20), series=[[0, 5, 9], [0, -4, -3]],
                       names=["A", "B"], tones=[[1, 0, 0, 1], [0, 0, 1, 1]], deals_total=4)
    chart.draw()
    (a0, a1, a2), (b0, b1, b2) = chart.plotted
    assert a0 == b0  # both start level at 0
    assert a2[1] > a1[1] > a0[1] > b2[1] > b1[1]  # 9 > 5 > 0 > -3 > -4
    assert a2[0] < chart.right - 100  # deal 2 of 4: halfway, not at the right edge
    chart.series = [[0, 1, 13]]  # a ladder: past its top ("A") drawn just above it
    chart.rungs = list("23456789TJQKA")
    chart.draw()
    top_of_ladder = chart.plotted[0][2][1]
    assert chart.plotted[0][1][1] < top_of_ladder < chart.top


def test_details_toggle_by_buttons_shows_the_lines_in_every_language(make_app: Any) -> None:
    app = make_app(size=(800, 480), pace=0)
    table = open_summary(app, "tractor", before=1)
    panel = table.ids.summary_panel
    for lang in ("en", "vi", "es", "fr", "nl"):
        app.set_language(lang)
        settle()
        wait_for(table.ids.summary_body.ready, 20, "the pictures redrawn")
        lines = table.summary_lines()
        assert not panel.details and table.ids.summary_label.text == ""
        focus_on(app, table, table.ids.details_button)
        app.handle_input("OK")
        settle()
        assert panel.details
        shown = table.ids.summary_label.text
        assert shown == "\n".join(lines) and lines[-1] in shown
        assert table.ids.summary_label.height > 100 and table.ids.summary_body.height == 0
        assert table.ids.details_button.text == translator.gettext("Cards")
        focus_on(app, table, table.ids.next_button)  # Next deal stays reachable
        focus_on(app, table, table.ids.details_button)  # and back to the pictures
        app.handle_input("OK")
        settle()
        assert not panel.details and table.ids.summary_body.height > 100
        label = tiles(table.ids.summary_body)[0].text
        if lang != "en":  # the group labels and buttons are in the language
            assert table.ids.details_button.text != "Details" or lang == "nl"
            assert "attackers" not in label and "Kitty" not in label


def test_opening_a_summary_builds_a_few_widgets_a_frame(make_app: Any) -> None:
    app = make_app(size=(800, 480), pace=0)
    table = open_summary(app, "chan", before=0)
    body = table.ids.summary_body
    labels = [t.text for t in tiles(body)]
    body.show(table.deal_result(), table.match_result(), table.summary_value)
    assert [t.text for t in tiles(body)] == labels  # the same results: nothing rebuilt
    body.clear()
    body.show(table.deal_result(), table.match_result(), table.summary_value)
    counts = []
    while body.building or not body.ready():
        pump(1)
        counts.append(sum(1 for _ in body.walk(restrict=True)))
        assert len(counts) < 400
    grown = [b - a for a, b in zip([1, *counts], counts, strict=False)]
    assert max(grown) <= 16  # a part (a tile: ~6 widgets) or six card views, not the lot
    assert counts[-1] > 40  # and yet everything arrived


def test_a_drawn_chan_deal_says_so_and_settles_nothing(make_app: Any) -> None:
    from ui.table.summary_cards import SideChip

    translator.set_language("en")
    app = make_app(size=(800, 480), pace=0)
    rec = parse_record(record(layout(0, {0: "9C"}, bottom="9C 9C 9C"), "discard 9C"))
    state = rec.state.clone()
    actions = list(rec.actions)
    probe = rec.state
    for action in actions:
        probe.apply(action)
    while not probe.is_over:  # nobody takes anything: pass until the stock runs out (C-14)
        actions.append(probe.legal_actions()[-1])
        probe.apply(actions[-1])
    table = start_deal(app, "chan", state, actions)
    wait_for(lambda: table.summary_open, 20, "the summary")
    body = table.ids.summary_body
    wait_for(body.ready, 20, "the pictures")
    settle()
    title = list(reversed(body.children))[0]
    assert "the deal is drawn" in title.text
    chips = [w for w in body.walk(restrict=True) if isinstance(w, SideChip)]
    assert [c.score for c in chips] == ["0"] * 4 and not tiles(body)


def test_up_and_down_scroll_the_summary_and_keep_the_focus(make_app: Any) -> None:
    app = make_app(size=(800, 480), pace=0)
    table = open_summary(app, "tractor", before=2)
    scroll = table.ids.summary_scroll
    assert table.ids.summary_body.height > scroll.height  # more than one screen at 800×480
    focused = table.focused_widget
    assert focused is table.ids.next_button.__self__
    scroll.scroll_y = 1
    app.handle_input("DOWN")
    assert scroll.scroll_y < 1 and table.focused_widget is focused
    app.handle_input("UP")
    assert scroll.scroll_y == 1 and table.focused_widget is focused


def test_down_leaves_a_summary_that_fits_where_it_is(make_app: Any) -> None:
    """Where the whole summary fits (portrait), DOWN has nothing to scroll: the pictures stay
    at the top (they slid down and left the top of the panel empty)."""
    app = make_app(size=(720, 1280), pace=0)
    table = open_summary(app, "tractor", before=2)
    scroll = table.ids.summary_scroll
    body = table.ids.summary_body
    assert body.height <= scroll.height  # fits at 720×1280
    top = body.to_window(body.x, body.top)[1]
    app.handle_input("DOWN")
    pump(2)
    assert scroll.scroll_y == 1 and body.to_window(body.x, body.top)[1] == top


def test_a_practice_deal_says_so_above_the_pictures(make_app: Any) -> None:
    from tests.ui.tablesim import finish_with_bots, wait_turn
    from ui.i18n import tr

    app = make_app(pace=0)
    app.set_practice(True)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_turn(table)
    finish_with_bots(table)
    body = table.ids.summary_body
    wait_for(body.ready, 20, "the pictures")
    note = tr("Practice game: this deal is not counted in the statistics.")
    texts = [getattr(w, "text", "") for w in body.children]
    assert note in texts and not table.ids.summary_panel.details  # seen without Details
    assert table.summary_text.startswith(note)
