"""Why? beside the last AI move (issue 21 part 2), with real widgets and real search bots.

On each table, at 800×480 and 720×1280: the button appears beside the last AI move; tapping it
opens the panel listing the candidates the bot weighed — only legal ones of that decision,
checked against the engine's state before the move rebuilt from the deal's record — with their
values and the worlds sampled, the played one marked; nothing is cut in any of the five
languages; Close shuts it and the game goes on. By the buttons: the arrows reach it, OK opens,
BACK and OK on Close shut it. The same seed gives the same panel; an easy AI says it plays by
simple rules; a lesson has no Why?. The bots' process sends the same explanation as a bot here.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ai.bots import make_bot
from engine.ai.why import RULES, SEARCH, explain
from engine.records import GameRecord
from tests.ui.tablesim import cut_in_languages, focus_on
from tests.ui.uitools import pump, tap, wait_for
from ui.table.why import panel_lines

GAMES = ["meri", "tractor", "chan"]


@pytest.fixture(autouse=True)
def _cpu_safety_net(monkeypatch: Any) -> None:
    """Every table's bots with their search's safety net on CPU time, so that what these
    tests wait for (a search's Why?) does not depend on the machine's load."""
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "cpu")


def _human_deciding(table: Any) -> bool:
    return table.summary_open or (table.human_deciding() and table.prompt != "")


def reach_why(table: Any, kind: str = SEARCH, seed: int = 1) -> tuple[int, Any, Any]:
    """Play your moves (the heuristic bot's) until, at your turn, the last AI move has a Why of
    `kind` to show; its (seat, action, Why)."""
    game_name = table.session.game.name
    me = make_bot(game_name, "heuristic", seed)
    while True:
        wait_for(lambda: _human_deciding(table), 120, what="your turn")
        pump(2)
        note = table.why.note()
        if note is not None and note[2].kind == kind:
            return note
        assert not table.summary_open, f"no {kind} Why? before the end of the deal"
        state = table.session.state
        assert table.play(me.choose(state.observation(0), state.legal_actions()))


def state_before_move(table: Any, seat: int, action: Any) -> Any:
    """The engine's state before `seat` played `action` (its last move), from the record."""
    session = table.session
    game = session.game
    data = session.record.to_dict()
    text = game.format_action(action)
    for count in range(len(data["actions"]) - 1, -1, -1):
        if data["actions"][count] != text:
            continue
        before = GameRecord.from_json({**data, "actions": data["actions"][:count]}).state
        if before.to_act == seat:
            return before
    raise AssertionError(f"{text} by seat {seat} is not in the record")


def new_table(make_app: Any, game_name: str, size: tuple[int, int] = (800, 480),
              level: str = "normal", seed: int = 7, practice: bool = True) -> tuple[Any, Any]:
    """A table of `game_name`, a practice game unless `practice` is False (Why? in a counted
    game asks first: `test_why_in_a_counted_game_asks_to_practise_first`)."""
    app = make_app(size=size, seed=seed, ai_level=level)
    app.practice = practice
    app.new_game(game_name)
    return app, app.root.get_screen(game_name)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
@pytest.mark.parametrize("game_name", GAMES)
def test_why_by_touch_lists_legal_candidates_and_fits(make_app: Any, game_name: str,
                                                       size: tuple[int, int]) -> None:
    app, table = new_table(make_app, game_name, size)
    seat, action, why = reach_why(table)
    assert seat != 0
    legal = state_before_move(table, seat, action).legal_actions()
    assert why.chosen == action and all(row[0] in legal for row in why.rows)  # only legal ones
    button = table.why.button()
    assert button is not None and button.opacity > 0
    anchor = table.seat_widget(seat)  # beside the mover's seat, on the screen
    assert abs(button.center_y - anchor.center_y) < anchor.height + button.height * 2
    assert 0 <= button.x and button.right <= table.width and 0 <= button.y
    assert button.top <= table.height
    tap(button)
    pump(3)
    assert table.why.is_open and table.paused()
    panel = table.why.open_panel()
    title, lines, note = panel_lines(game_name, seat, why, table.action_words)
    shown = [w.text for w in reversed(panel.ids.why_lines.children)]
    assert panel.ids.why_title.text == title and shown == lines and panel.ids.why_note.text == note
    assert table.action_words(action) in title
    assert sum("[b]" in line for line in shown) == 1  # the one it played, marked
    assert f" {why.worlds} " in note
    for row in why.rows:
        assert any(line.startswith((table.action_words(row[0]), "[b]" + table.action_words(row[0])))
                   for line in shown)
    assert cut_in_languages(app, f"{game_name} Why? panel") == []
    played = len(table.session.record.actions)
    tap(panel.ids.why_close)
    pump(3)
    assert not table.why.is_open and panel.parent is None
    state = table.session.state
    assert table.play(make_bot(game_name, "heuristic", 2).choose(state.observation(0),
                                                                  state.legal_actions()))
    wait_for(lambda: _human_deciding(table), 120, what="the game going on")
    assert len(table.session.record.actions) > played


def test_why_by_buttons_opens_and_closes(make_app: Any) -> None:
    app, table = new_table(make_app, "chan")
    reach_why(table)
    button = table.why.button()
    focus_on(app, table, button)
    app.handle_input("OK")
    pump(3)
    assert table.why.is_open
    panel = table.why.open_panel()
    assert table.focused_widget is panel.ids.why_close.__self__
    for direction in ("LEFT", "UP", "RIGHT", "DOWN"):  # the focus stays in the panel
        app.handle_input(direction)
        pump(1)
        assert table.focused_widget is panel.ids.why_close.__self__
    app.handle_input("BACK")  # BACK closes it (and does not leave the table)
    pump(3)
    assert not table.why.is_open and app.root.current == "chan"
    assert table.focused_widget is button
    app.handle_input("SELECT")
    pump(3)
    assert table.why.is_open
    app.handle_input("OK")  # OK on Close
    pump(3)
    assert not table.why.is_open
    wait_for(lambda: _human_deciding(table), 60, what="your turn again")


def test_same_seed_same_panel(make_app: Any, monkeypatch: Any) -> None:
    """Two tables from the same seed and deal show the same Why? (the safety net on CPU time, so
    not even a loaded machine can cut one search short and not the other: `_cpu_safety_net`)."""
    texts = []
    for _ in range(2):
        app, table = new_table(make_app, "meri", seed=11)
        seat, _action, why = reach_why(table)
        assert table.why.open()
        pump(2)
        panel = table.why.open_panel()
        texts.append((panel.ids.why_title.text,
                      [w.text for w in panel.ids.why_lines.children], panel.ids.why_note.text))
        table.why.close()
    assert texts[0] == texts[1]


def test_an_easy_ai_plays_by_simple_rules(make_app: Any) -> None:
    app, table = new_table(make_app, "tractor", level="easy")
    seat, action, why = reach_why(table, RULES)
    tap(table.why.button())
    pump(3)
    panel = table.why.open_panel()
    shown = [w.text for w in panel.ids.why_lines.children]
    assert shown == ["This AI plays by simple rules: it does not weigh its moves."]
    assert panel.ids.why_note.text == ""


def test_a_lesson_has_no_why(make_app: Any) -> None:
    app = make_app(ai_level="normal")
    app.start_tutorial("meri")
    table = app.root.get_screen("meri")
    wait_for(lambda: table.human_deciding() and table.prompt != "", 60, what="the lesson's turn")
    assert len(table.session.record.actions) > 0
    assert table.why.note() is None and table.why.button() is None
    assert not table.why.open()


def test_the_bot_process_sends_what_it_weighed(monkeypatch: Any) -> None:
    """The table's bots in their child process answer with the action and its Why, the same as
    the same bot here (both safety nets on CPU time: `_cpu_safety_net`)."""
    from ui.table.botproc import BotProcess

    game = registry.get("chan")
    state = game.new_deal(8)
    specs = {seat: ("normal", 40 + seat) for seat in range(4)}
    local = {seat: make_bot("chan", kind, seed) for seat, (kind, seed) in specs.items()}
    process = BotProcess("chan", specs)
    try:
        searched = 0
        for _ in range(8):
            if state.is_over:
                break
            seat = state.to_act
            obs, legal = state.observation(seat), state.legal_actions()
            action, why = process.decide(seat, obs, legal)
            mine = local[seat].choose(obs, legal)
            assert (action, why) == (mine, explain(local[seat], mine))
            searched += why.kind == SEARCH
            state.apply(action)
        assert searched >= 1
    finally:
        process.close()


def test_no_why_while_it_would_show_a_hidden_card(make_app: Any) -> None:
    """Meri: a trump played face down (H-24) stays a back until its trick is complete, so its
    Why? waits; Tractor: a burial (the kitty, T-15) never has one."""
    import random

    from engine.ai.why import Why
    from engine.meri import FACE_DOWN
    from engine.tractor import BURY
    from tests.ui.tablesim import start_deal

    game = registry.get("meri")
    state, rng, moves = game.new_deal(0), random.Random(0), []
    while FACE_DOWN not in (state.observation(0).trick if state.to_act == 0 else ()):
        moves.append((state.to_act, state.random_action(rng)))
        state.apply(moves[-1][1])
    app = make_app()
    table = start_deal(app, "meri", game.new_deal(0), [a for _, a in moves])
    down = state.observation(0).trick.index(FACE_DOWN)
    action = next(a for s, a in reversed(moves) if s == down)
    table.driver.last_why = (down, action, Why(RULES, action))
    table.why.update()
    assert table.why.note() is None and table.why.button() is None
    shown = next(s for s, _ in reversed(moves) if s not in (0, down))  # a card face up
    table.driver.last_why = (shown, action, Why(RULES, action))
    assert table.why.note() is not None
    tractor = make_app().root.get_screen("tractor")
    assert not tractor.why_allowed(2, (BURY, 1, 2, 3, 4, 5, 6, 7, 8))
    assert tractor.why_allowed(2, (5,))


def test_why_in_a_counted_game_asks_to_practise_first(make_app: Any) -> None:
    """Why? names cards an AI still holds: in a counted game it first asks (the Undo question,
    worded for Why?); Keep playing (or BACK) leaves the game counted and shows nothing, the answer
    yes makes it a practice game and opens the panel."""
    app, table = new_table(make_app, "chan", practice=False)
    reach_why(table)
    assert not table.session.practice
    tap(table.why.button())
    pump(3)
    assert not table.why.is_open and table.undo.asking and table.undo.purpose == "why"
    question = table.undo.open_panel()
    texts = [w.text for w in question.walk() if hasattr(w, "text")]
    assert "See what the AI weighed?" in texts and "Practice and see why" in texts
    assert cut_in_languages(app, "Why? practice question") == []
    app.handle_input("BACK")
    pump(3)
    assert not table.undo.asking and not table.why.is_open and not table.session.practice
    tap(table.why.button())
    pump(3)
    tap(question.ids.undo_yes)
    pump(3)
    assert table.session.practice and table.undo.practice and table.why.is_open
    tap(table.why.open_panel().ids.why_close)
    pump(3)
    assert not table.why.is_open
