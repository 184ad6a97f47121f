"""The coach on real tables (issue 21 part 2, ui/table/coaching.py): with the Coach setting on, a
finished deal's summary offers Coach; its panel shows the moments the coach found (in a child
process: `python -m engine coach`), each with where it was, the two actions in words and the cards
as they were; "Nothing costly this deal" when none. The moments are kept with the deal in a real
SQLite file and the replay viewer jumps to them. By touch and by the buttons; no label cut at
800×480 and 720×1280 in the five languages.

The deals are the fixed records of `tests/engine/records/coach/` (a known costly move each).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from device.store import SqliteStore
from engine import registry
from engine.ai.bots import make_bot
from engine.records import GameRecord
from engine.session import Session
from tests.ui.tablesim import cut_in_languages, focus_on
from tests.ui.uitools import pump, settle, tap, wait_for
from ui.card_names import has_code
from ui.table.coaching import MomentTile

pytestmark = pytest.mark.ui

RECORDS = Path(__file__).parents[1] / "engine" / "records" / "coach"


#: The moments the coach's child process answered, by (record, seat). The coach is
#: deterministic (tests/engine/test_ai_coach.py: the same record, the same moments), so each
#: deal is coached once in a real child process and the file's later tables reuse its answer:
#: a Tractor deal takes the child ~25 s.
_ANSWERS: dict[tuple[str, int], list[dict[str, Any]]] = {}


@pytest.fixture(autouse=True)
def coach_each_deal_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.table import coaching

    real = coaching.run_coach

    def remembered(record: str, seat: int) -> list[dict[str, Any]]:
        key = (record, seat)
        if key not in _ANSWERS:
            _ANSWERS[key] = real(record, seat)
        return copy.deepcopy(_ANSWERS[key])

    monkeypatch.setattr(coaching, "run_coach", remembered)


def fixture(game_name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{game_name}.json").read_text(encoding="utf-8"))


def open_finished(app: Any, record: dict[str, Any]) -> Any:
    """The table of the record's game on its finished deal: the summary opens (and the deal is
    counted and kept, as after playing it)."""
    rec = GameRecord.from_json({k: record[k] for k in ("game", "seed", "layout", "actions")})
    game = registry.get(record["game"])
    app.session = Session(game, game.new_match(5), rec, save=app.save)
    app.sessions.open_table(game.name)
    table = app.root.get_screen(game.name)
    wait_for(lambda: table.summary_open, 20, "the summary")
    settle()
    return table


def coached(table: Any) -> None:
    wait_for(lambda: not table.coach.busy, 180, "the coach")
    settle()


def tiles(table: Any) -> list[Any]:
    panel = table.coach.panel
    return [w for w in reversed(panel.ids.moments.children) if isinstance(w, MomentTile)]


def test_coach_by_touch_keeps_the_moments_and_the_replay_jumps_to_them(
        make_app: Any, tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    try:
        app = make_app(store=store)
        app.set_coach(True)
        record = fixture("tractor")
        table = open_finished(app, record)
        button = table.ids.coach_button
        assert table.coach.offered and not button.disabled and button.opacity == 1
        tap(button)
        assert table.coach.is_open
        coached(table)
        moments = table.coach.moments
        expect = record["expect"]
        moment = next(m for m in moments if m["index"] == expect["index"])
        assert moment["played"] == "10S"
        shown = tiles(table)
        assert len(shown) == len(moments) <= 3
        tile = shown[moments.index(moment)]
        # the cards by name, the difference in a beginner's words (issue 35)
        assert tile.text.startswith("Playing a single ") and "a single 10♠ would have won" in tile.text
        assert not has_code(tile.text) and "more points" in tile.text
        assert tile.hand_codes == moment["hand"] and tile.hand_codes[tile.mark] == moment["best"]
        assert len(tile.table_codes) == 3  # the trick's three plays before seat 0's
        # kept with the deal, in the database file
        deal = store.recent_deals(1)[0]
        assert store.load_deal(deal["id"])["notes"] == moments
        tap(table.coach.panel.ids.coach_back)
        assert not table.coach.is_open and table.focused_widget is button.__self__
        # the replay viewer shows them at their steps, and jumps to them
        app.open_deal(deal["id"])
        pump(3)
        viewer = app.root.get_screen("replay")
        assert viewer.note_steps == sorted(m["step"] for m in moments)
        tap(viewer.ids.note_button)
        assert viewer.step == viewer.note_steps[0]
        assert viewer.note_text.startswith("Coach: ") and not has_code(viewer.note_text)
        viewer.go_to(expect["index"])
        assert "10♠" in viewer.note_text
        viewer.forward()
        assert viewer.note_text == "" or viewer.step in viewer.note_steps
    finally:
        store.close()


def test_coach_by_buttons(make_app: Any) -> None:
    app = make_app()
    app.set_coach(True)
    table = open_finished(app, fixture("chan"))
    focus_on(app, table, table.ids.coach_button)
    app.handle_input("OK")
    pump(2)
    assert table.coach.is_open
    coached(table)
    texts = [t.text for t in tiles(table)]
    assert any("Capture with" in t and "Pass" in t for t in texts)
    app.handle_input("DOWN")  # scrolls the moments; the focus stays in the panel
    assert table.focused_widget is table.coach.panel.ids.coach_back.__self__
    app.handle_input("BACK")
    pump(2)
    assert not table.coach.is_open and table.summary_open


def test_nothing_costly_and_coach_off(make_app: Any) -> None:
    """A deal played as the heuristic plays it has nothing costly; with Coach off, no button."""
    game = registry.get("chan")
    rec = GameRecord.deal(game, 1)
    bots = [make_bot("chan", "heuristic", 100 + s) for s in range(4)]
    while not rec.state.is_over:
        s = rec.state.to_act
        rec.apply(bots[s].choose(rec.state.observation(s), rec.state.legal_actions()))
    app = make_app()
    table = open_finished(app, rec.to_dict())
    assert not table.coach.offered and table.ids.coach_button.disabled
    app.set_coach(True)
    table.next_deal()  # (Chắn: one deal per match: a new match)
    app.go("home")
    table = open_finished(app, rec.to_dict())
    tap(table.ids.coach_button)
    coached(table)
    panel = table.coach.panel
    assert table.coach.moments == [] and panel.status == "Nothing costly this deal."
    assert tiles(table) == []


def test_the_coach_setting_by_touch_is_kept(make_app: Any) -> None:
    """Settings: Coach On / Off ([game] coach is only its starting value)."""
    from ui.ports import MemoryStore

    store = MemoryStore()
    app = make_app(store=store)
    assert app.coach is False
    app.go("settings")
    settle()
    screen = app.root.get_screen("settings")
    screen.ids.scroller.scroll_y = 0  # the row below the sound rows
    settle()
    tap(screen.ids.coach_on)
    assert app.coach is True and store.get_setting("coach") is True
    assert screen.ids.coach_on.selected and not screen.ids.coach_off.selected
    tap(screen.ids.coach_off)
    assert app.coach is False and store.get_setting("coach") is False


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_no_label_cut_in_the_coach_panel(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(size=size)
    app.set_coach(True)
    table = open_finished(app, fixture("tractor"))  # Meri's record is quiet (under 1 point)
    assert cut_in_languages(app, "summary with Coach") == []
    tap(table.ids.coach_button)
    coached(table)
    assert tiles(table)
    assert cut_in_languages(app, "coach panel") == []
    app.open_deal(app.services.store.recent_deals(1)[0]["id"])  # the viewer at a note
    pump(3)
    viewer = app.root.get_screen("replay")
    viewer.next_note()
    settle()
    assert viewer.note_text and viewer.ids.note_button.opacity == 1
    assert cut_in_languages(app, "replay viewer at a coach's note") == []


def test_pass_and_play_coaches_every_player_on_this_screen(make_app: Any, tmp_path: Path) -> None:
    """Chắn, Ann (seat 0) and Bao (seat 1) on this screen: the coach looks at the deal for both;
    the panel has a button per player, each showing that player's own moments (Ann's: the known
    pass on a pairable card; Bao's: seat 1's, or "Nothing costly"); by touch and by buttons;
    all of them kept with the deal, each with its player's name, which the replay viewer says."""
    from ui.table.seating import Seating, SeatPlan

    store = SqliteStore(tmp_path / "parlor.db")
    try:
        app = make_app(store=store)
        app.set_coach(True)
        app.seating = Seating([SeatPlan("screen", "Ann", "easy"), SeatPlan("screen", "Bao", "easy"),
                               SeatPlan("ai", "", "easy"), SeatPlan("ai", "", "easy")])
        record = fixture("chan")
        table = open_finished(app, record)
        assert table.coach.seats == [0, 1]
        tap(table.ids.coach_button)
        panel = table.coach.panel
        coached(table)
        row = list(reversed(panel.ids.coach_seat_row.children))
        assert [b.text for b in row] == ["Ann", "Bao"] and row[0].selected
        assert panel.ids.coach_seat_row.height > 0 and not cut_in_languages(app, "coach")
        ann = list(table.coach.moments)
        assert any(m["played"] == "pass" and m["index"] == record["expect"]["index"] for m in ann)
        assert {m["seat"] for m in ann} == {0} and {m["name"] for m in ann} == {"Ann"}
        tap(row[1])
        coached(table)
        assert row[1].selected and not row[0].selected and table.coach.seat == 1
        bao = list(table.coach.moments)
        assert all(m["seat"] == 1 and m["name"] == "Bao" for m in bao)
        assert len(tiles(table)) == len(bao)
        if not bao:
            assert panel.status == "Nothing costly this deal."
        focus_on(app, table, row[0])  # by buttons: back to Ann's
        app.handle_input("OK")
        pump(2)
        assert table.coach.seat == 0 and table.coach.moments == ann
        deal = store.recent_deals(1)[0]
        assert store.load_deal(deal["id"])["notes"] == ann + bao
        app.open_deal(deal["id"])
        pump(3)
        viewer = app.root.get_screen("replay")
        viewer.go_to(record["expect"]["index"])
        assert viewer.note_text.startswith("Coach (Ann): ") and "Pass" in viewer.note_text
    finally:
        store.close()


def test_coach_panel_is_as_tall_as_its_moments_in_portrait(make_app: Any) -> None:
    """720×1280: one or two moments leave no empty space below them: the Back row follows the
    last moment, the panel centred; the busy line alone makes a small panel. With many moments
    it would stop at 95 % of the screen and scroll."""
    from kivy.metrics import dp

    app = make_app(size=(720, 1280))
    app.set_coach(True)
    table = open_finished(app, fixture("chan"))
    tap(table.ids.coach_button)
    panel = table.coach.panel
    settle()
    if table.coach.busy:
        assert panel.height < dp(200)
    coached(table)
    shown = tiles(table)
    assert 1 <= len(shown) <= 2
    back = panel.ids.coach_back
    gap = shown[-1].to_window(*shown[-1].pos)[1] - back.to_window(*back.pos)[1] - back.height
    assert 0 <= gap <= dp(20), gap
    assert panel.height <= table.height * 0.95 + 1
    assert abs(panel.center_y - table.center_y) <= 1


@pytest.mark.parametrize("game_name", ["tractor", "meri", "chan"])
def test_the_cards_on_the_table_say_whose_they_are(make_app: Any, game_name: str) -> None:
    """Issue 35, point 5: in the coach's "On the table", each seat's play has the seat's name
    (as the table names it, plain text: never markup) under its cards, in the order played."""
    from ui.table.coaching import PlayBox
    from ui.table.seats import seat_name

    app = make_app()
    app.set_coach(True)
    table = open_finished(app, fixture(game_name))
    tap(table.ids.coach_button)
    coached(table)
    with_plays = 0
    for moment, tile in zip(table.coach.moments, tiles(table), strict=True):
        plays = [p for p in moment.get("table", []) if p.get("cards")]
        boxes = [w for w in reversed(tile.ids.table_plays.children) if isinstance(w, PlayBox)]
        assert [(b.name, b.codes) for b in boxes] == [(seat_name(p["seat"]), p["cards"])
                                                     for p in plays]
        for box in boxes:
            row, label = (next(w for w in box.children if type(w).__name__ == name)
                          for name in ("CardRow", "Label"))
            assert label.text == box.name and not label.markup and label.opacity > 0
            assert label.top <= row.y + 0.5 and label.font_size >= 14  # under its cards
            assert row.x >= box.x - 0.5 and row.right <= box.right + 0.5
        with_plays += bool(boxes)
    if game_name == "tractor":  # its fixture's moment: three plays before yours
        assert with_plays > 0


def test_a_play_is_named_as_the_seating_names_its_seat() -> None:
    """The names under the plays are the seating's, as typed (brackets and all), "You" for the
    one seat this screen plays, "AI n" for a seat without a name; a play of no card is left out."""
    from ui.table.coaching import table_plays
    from ui.table.seats import use_names

    moment = {"table": [{"seat": 3, "cards": ["", "K5"]}, {"seat": 5, "cards": []},
                        {"seat": 6, "cards": ["P9"]}, {"seat": 0, "cards": ["I1"]}]}
    try:
        use_names(["", "", "", "[b]Lan[/b]", "", "", "", ""], you=0)
        assert table_plays(moment) == [("[b]Lan[/b]", ["", "K5"]), ("AI 6", ["P9"]),
                                       ("You", ["I1"])]
    finally:
        use_names([], 0)


@pytest.mark.parametrize("game_name", ["tractor", "chan"])
def test_portrait_moments_use_the_height_for_larger_cards(make_app: Any, game_name: str) -> None:
    """Issue 33 part 5: at 720×1280 a moment's cards are not the landscape strip stretched
    across a mostly empty screen: the hand goes in more lines of cards at least 1.6 times the
    landscape height, every card's index clear of the next card and inside the panel, and the
    panel then fills at least half the screen."""
    from kivy.metrics import dp

    from ui import cards
    from ui.games import get
    from ui.table.coaching import HandLines

    app = make_app(size=(720, 1280))
    app.set_coach(True)
    table = open_finished(app, fixture(game_name))
    tap(table.ids.coach_button)
    coached(table)
    panel = table.coach.panel
    base = dp(get(game_name).summary_hand_dp)
    tile = tiles(table)[0]
    hand = tile.ids.hand
    assert isinstance(hand, HandLines)
    rows = [r for r in reversed(hand.ids.hand_rows.children)]
    assert len(rows) >= 2 and [c for r in rows for c in r.codes] == tile.hand_codes
    marked = [v for r in rows for v in r.views if v.winner]
    assert len(marked) == 1 and marked[0].code == tile.hand_codes[tile.mark]
    for row in rows:
        views = sorted(row.views[:len(row.codes)], key=lambda v: v.x)
        assert views and all(v.height >= 1.6 * base - 1 for v in views), (views[0].height, base)
        corner = cards.corner(game_name, views[0].width, views[0].height).width
        assert all(b.x - a.x >= corner for a, b in zip(views, views[1:], strict=False))
        left = views[0].to_window(views[0].x, 0)[0]  # the moments scroll: their own frame
        right = views[-1].to_window(views[-1].right, 0)[0]
        assert left >= panel.x and right <= panel.right + 0.5
    assert panel.height >= 0.5 * table.height
