"""Guided first deals (issue 21 part 1): each game's lesson played to its end on the real table
by touch and by the button events, its deal legal under the engine, its texts in every
language, wrong moves refused with the rule in words, skip and resume."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from engine.records import replay
from tests.ui.tablesim import cut_in_languages, focus_on, tap_card, wait_turn
from tests.ui.uitools import pump, settle, tap, wait_for
from ui import i18n
from ui.table.reasons import REASONS
from ui.tutorial.controller import GAMES, lesson_of, progress_key

pytestmark = pytest.mark.ui

RULE_PREFIXES = {"meri": ("H-", "D-"), "tractor": ("T-", "D-"),
                 "chan": ("C-", "X-", "K-", "W-", "S-", "D-")}


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


# -- data ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_the_teaching_deal_is_legal_under_the_engine(game: str) -> None:
    """The record replays to its end with the engine (records.md contract): ok, deal over."""
    status, out = replay(lesson_of(game).record)
    assert status == 0 and out["ok"], out
    assert out["to_act"] is None and out["result"] is not None


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_of_the_player_is_a_step_and_matches_the_record(game: str) -> None:
    lesson = lesson_of(game)
    parsed = lesson.parsed()
    decisions = lesson.human_decisions()
    assert [s.at for s in lesson.steps] == sorted(s.at for s in lesson.steps)
    for step in lesson.steps:
        assert step.at in decisions, step
        assert step.expect[0] == parsed.texts[step.at]  # the record's own action
        assert set(step.rules) <= set(lesson.rules), (step.at, step.rules)
        assert all(r.startswith(RULE_PREFIXES[game]) for r in step.rules)
        cards = [w for w in step.expect[0].split() if w not in ("declare", "bury")]
        assert set(step.highlight) <= set(cards) | {"ORo"}, step  # outlines what it plays
    taught = {r for step in lesson.steps for r in step.rules}
    assert taught <= set(lesson.rules)
    # every rule the lesson lists is taught by a step or its closing words (H-29/H-30, S-5, T-27)
    assert len(set(lesson.rules) - taught) <= 3, set(lesson.rules) - taught
    if game != "tractor":  # Tractor's plain follows share one text ("Play the outlined …")
        assert len(lesson.steps) == len(decisions)


@pytest.mark.parametrize("game", GAMES)
def test_each_step_text_exists_in_every_language(game: str) -> None:
    """Translated in vi/es/fr/nl (not the English msgid), with the same format fields."""
    lesson = lesson_of(game)
    msgids = [s.text for s in lesson.steps] + [lesson.follow, lesson.closing]
    translator = i18n.Translator()
    try:
        for lang in ("vi", "es", "fr", "nl"):
            translator.set_language(lang)
            for msgid in msgids:
                text = translator.gettext(msgid)
                assert text != msgid, (lang, msgid)
                assert fields(text) == fields(msgid), (lang, msgid, text)
    finally:
        translator.set_language("en")


# -- playing the lessons -----------------------------------------------------------------------
def press(app: Any, table: Any, widget: Any, by_buttons: bool) -> None:
    if by_buttons:
        focus_on(app, table, widget)
        app.handle_input("OK")
    else:
        tap(widget)


def pick_cards(app: Any, table: Any, codes: list[str], by_buttons: bool, play: Any) -> None:
    """Pick `codes` in the hand (a card twice: two copies), then play them with `play`."""
    hand = table.ids.hand
    indexes: list[int] = []
    for code in codes:
        indexes.append(next(i for i, c in enumerate(hand.codes) if c == code and i not in indexes))
    assert set(indexes) <= set(hand.hinted), (codes, hand.hinted)  # the lesson outlines them
    for n, index in enumerate(indexes):
        if by_buttons:
            focus_on(app, table, hand.views[index])
            app.handle_input("OK" if n == len(indexes) - 1 and play is None else "SELECT")
        else:
            tap_card(hand, index)
    if play is not None:
        press(app, table, play, by_buttons)
    elif not by_buttons:
        tap_card(hand, indexes[-1])  # a picked card tapped again is played


def do(app: Any, table: Any, move: str, by_buttons: bool) -> None:
    """Make the lesson's `move` (canonical notation) with taps or button events only."""
    words = move.split()
    game = table.game_name
    if game == "meri":
        if move in ("declare", "pass"):
            press(app, table, table.ids.declare_button if move == "declare"
                  else table.ids.hide_button, by_buttons)
        else:
            pick_cards(app, table, words, by_buttons, None)
    elif game == "tractor":
        if words[0] == "declare" or move == "pass":
            action = table.session.game.parse_action(move)
            buttons = list(reversed(table.ids.choices.children))
            press(app, table, buttons[table.choice_actions.index(action)], by_buttons)
        else:
            cards = words[1:] if words[0] == "bury" else words
            pick_cards(app, table, cards, by_buttons, table.ids.play_button)
    else:
        if table.prompt == "offer":
            press(app, table, table.ids.accept_button if move in ("win", "chiu")
                  else table.ids.decline_button, by_buttons)
        elif move == "pass":
            press(app, table, table.ids.pass_button, by_buttons)
        else:
            pick_cards(app, table, words[1:], by_buttons, table.ids.act_button)


def play_lesson(app: Any, table: Any, by_buttons: bool, stop_after: int | None = None) -> int:
    """Play the lesson's moves at each of the player's decisions; returns the steps made."""
    tutorial = table.tutorial
    made = 0
    while True:
        wait_turn(table)
        pump(3)  # the lesson's panel docks one layout level deeper: the prompt's widgets settle
        if table.summary_open or (stop_after is not None and made == stop_after):
            return made
        before = len(table.session.record.actions)
        move = tutorial.expected()
        assert tutorial.panel.text and tutorial.panel.counter.startswith("Step ")
        do(app, table, move, by_buttons)
        pump(1)
        assert len(table.session.record.actions) > before, (move, table.message)
        assert table.session.record.actions[before] == move
        made += 1


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("by_buttons", [False, True], ids=["touch", "buttons"])
def test_each_lesson_plays_to_its_end(make_app: Any, game: str, by_buttons: bool) -> None:
    """From the home screen's Learn button to the summary, the AI seats playing the record."""
    app = make_app(pace=0)
    home = app.root.get_screen("home")
    press(app, home, home.ids[f"learn_{game}"], by_buttons)
    pump(2)
    table = app.root.get_screen(game)
    assert app.root.current == game and table.tutorial is not None
    lesson = lesson_of(game)
    made = play_lesson(app, table, by_buttons)
    assert made == len(lesson.human_decisions())
    parsed = lesson.parsed()
    assert table.session.record.actions == parsed.texts  # exactly the teaching deal
    assert table.session.state.is_over and table.summary_open
    assert i18n.tr(lesson.closing) in table.summary_text
    assert app.services.store.stats().get(game, {}).get("deals", 0) == 0  # not counted
    assert app.services.store.load_autosave() is None  # the game in progress is untouched
    assert app.services.store.get_setting(progress_key(game)) == 0  # done: starts afresh
    press(app, table, table.ids.next_button, by_buttons)
    pump(2)
    assert app.root.current == "home"


def test_wrong_moves_are_refused_with_the_rule_and_do_not_advance(make_app: Any) -> None:
    """Meri's lesson: an illegal card is refused with its rule in words (H-14: a trump
    discard); a legal card that is not the lesson's is refused too; the step stays."""
    app = make_app(pace=0)
    app.start_tutorial("meri")
    table = app.root.get_screen("meri")
    wait_turn(table)
    tap(table.ids.declare_button)
    wait_for(lambda: table.prompt == "discard", what="the discard")
    hand = table.ids.hand
    done = len(table.session.record.actions)
    assert [hand.codes[i] for i in hand.hinted] == ["IRo"]
    tap(table.ids.hint_button)  # the hint is the lesson's move, not the AI's own idea
    assert table.message == "Hint: Isu Robai" and table.picked_codes() == ["IRo"]
    table.clear_picks()
    tap(hand.card_view("OKa"))  # a trump: H-14
    assert table.alert and REASONS["H-14"] in table.message
    assert table.tutorial.last_rule == "H-14"
    tap(hand.card_view("K8"))  # legal, but not the lesson's discard
    tap(hand.card_view("K8"))
    assert table.alert and "not this lesson's" in table.message
    assert table.tutorial.last_rule is None
    assert len(table.session.record.actions) == done and table.session.state.phase == "discard"
    assert table.tutorial.panel.counter == "Step 2 of 10"
    tap(hand.card_view("IRo"))
    tap(hand.card_view("IRo"))
    wait_for(lambda: len(table.session.record.actions) > done, what="the discard")
    wait_turn(table)
    assert table.tutorial.panel.counter == "Step 3 of 10"
    assert table.undo.request()  # a lesson is a practice game: the move is taken back at once
    wait_turn(table)
    assert len(table.session.record.actions) == done
    assert table.tutorial.panel.counter == "Step 2 of 10"


def test_chan_refusal_names_the_rule(make_app: Any) -> None:
    """Chắn's first step: a card of a pair may not be discarded (X-1), said in words."""
    app = make_app(pace=0)
    app.start_tutorial("chan")
    table = app.root.get_screen("chan")
    wait_turn(table)
    assert table.prompt == "discard"
    table.play(table.session.game.parse_action("discard 6M"))  # 6M is held twice
    assert table.alert and REASONS["X-1"] in table.message
    assert table.tutorial.last_rule == "X-1" and not table.session.record.actions


def test_leaving_resumes_and_skip_starts_afresh(make_app: Any) -> None:
    """Progress is saved after every action: leaving (MENU) and coming back, or a new app on
    the same store, resumes at the same step; Skip clears it and goes home."""
    from ui.ports import MemoryStore

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.start_tutorial("tractor")
    table = app.root.get_screen("tractor")
    play_lesson(app, table, by_buttons=False, stop_after=3)
    done = len(table.session.record.actions)
    counter = table.tutorial.panel.counter
    assert store.get_setting(progress_key("tractor")) == done > 0
    app.handle_input("MENU")
    pump(2)
    assert app.root.current == "home"
    app2 = make_app(store=store, pace=0)  # a restart, as after a power cut
    app2.start_tutorial("tractor")
    table2 = app2.root.get_screen("tractor")
    wait_turn(table2)
    assert len(table2.session.record.actions) == done
    assert table2.tutorial.panel.counter == counter == "Step 4 of 19"
    assert re.search(r"\S", table2.tutorial.panel.text)
    settle()  # a new app: its docked panel takes its place over a few frames
    tap(table2.tutorial.panel.skip_button)
    pump(2)
    assert app2.root.current == "home" and store.get_setting(progress_key("tractor")) == 0
    app2.start_tutorial("tractor")
    wait_turn(table2)
    assert len(table2.session.record.actions) == 0  # from the start after a skip


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_every_step_text_fits_its_panel_in_every_language(make_app: Any, size: Any) -> None:
    """Each text, in each language, fits the panel without being cut (it may shrink, to no
    less than 11 sp: readable at arm's length on a 7" screen)."""
    from kivy.metrics import sp

    app = make_app(size=size, pace=0)
    problems = []
    for game in GAMES:
        app.start_tutorial(game)
        table = app.root.get_screen(game)
        wait_turn(table)
        panel = table.tutorial.panel
        label = panel.text_label
        lesson = lesson_of(game)
        for lang in i18n.LANGUAGES:
            app.set_language(lang)
            pump(2)
            for msgid in [s.text for s in lesson.steps] + [lesson.follow]:
                label.text = i18n.trf(msgid, card="Ouru Robai", move="10S 7S 4S 6D")
                label.fit()
                if label.shorten or label.font_size < sp(11) - 0.5:
                    problems.append(f"{game} {lang} {label.font_size:.0f}px: {msgid[:40]}")
        app.set_language("en")
        table.tutorial.skip()
        pump(2)
    assert problems == []


def test_language_switch_and_skip_by_buttons(make_app: Any) -> None:
    """The lesson's text follows a language switch at once; Skip is reached with the arrows."""
    app = make_app(pace=0)
    app.start_tutorial("chan")
    table = app.root.get_screen("chan")
    wait_turn(table)
    panel = table.tutorial.panel
    english = panel.text
    app.set_language("fr")
    pump(2)
    assert panel.text == i18n.tr(lesson_of("chan").steps[0].text) != english
    assert panel.counter == "Étape 1 sur 8"
    app.set_language("en")
    pump(2)
    focus_on(app, table, panel.skip_button)
    app.handle_input("OK")
    pump(2)
    assert app.root.current == "home"
    assert app.services.store.get_setting(progress_key("chan")) == 0


def test_rules_page_opens_the_lesson_of_its_game(make_app: Any) -> None:
    app = make_app(pace=0)
    app.open_rules("tractor")
    settle()
    rules = app.root.get_screen("rules")
    tap(rules.ids.learn_button)
    pump(2)
    table = app.root.get_screen("tractor")
    assert app.root.current == "tractor" and table.tutorial is not None
    wait_turn(table)
    assert table.tutorial.panel.counter == "Step 1 of 19"


def window_box(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def overlap(a: Any, b: Any) -> bool:
    ax, ay, ax2, ay2 = window_box(a)
    bx, by, bx2, by2 = window_box(b)
    return min(ax2, bx2) - max(ax, bx) > 0.5 and min(ay2, by2) - max(ay, by) > 0.5


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_the_panel_covers_nothing_a_step_talks_about(make_app: Any, size: Any) -> None:
    """At every step of every lesson the panel overlaps no seat (badge or Chắn zone), no card
    the step outlines, no card on the table (trick, open card), nor the prompt and its buttons;
    and it stays inside the screen."""
    app = make_app(size=size, pace=0)
    problems: list[str] = []
    for game in GAMES:
        app.services.store.set_setting(progress_key(game), 0)
        app.start_tutorial(game)
        table = app.root.get_screen(game)
        panel = table.tutorial.panel
        players = table.session.game.players
        while True:
            wait_turn(table)
            settle()
            if table.summary_open:
                break
            hand = table.ids.hand
            guarded = {f"seat {s}": table.seat_widget(s) for s in range(players)}
            guarded |= {f"outlined {hand.codes[i]}": hand.views[i] for i in hand.hinted}
            guarded |= {f"trick {v.code}": v for v in getattr(table, "trick_views", list)()
                        if v.opacity > 0}
            guarded["prompt"] = table.ids.message
            if "open_card" in table.ids and table.open_code:
                guarded["open card"] = table.ids.open_card
            assert panel.parent is not None and panel.width > 0 and panel.height > 0
            left, bottom, right, top = window_box(panel)
            if left < -0.5 or bottom < -0.5 or right > size[0] + 0.5 or top > size[1] + 0.5:
                problems.append(f"{game} step {panel.counter}: off the screen")
            problems += [f"{game} {panel.counter}: covers {name}"
                         for name, widget in guarded.items() if overlap(panel, widget)]
            table.play(table.tutorial.next_action())
    assert problems == []


def test_skipping_gives_the_table_its_layout_back(make_app: Any) -> None:
    """The docked panel leaves with the lesson: the table's middle row is where it was, with
    its own size hints, and a normal game on that table has no lesson panel."""
    app = make_app(pace=0)
    table = app.root.get_screen("chan")
    row = table.ids.table.parent
    column, hints = row.parent, tuple(row.size_hint)
    app.start_tutorial("chan")
    wait_turn(table)
    panel = table.tutorial.panel
    assert row.parent is not column and panel.parent is row.parent
    panel.skip_button.dispatch("on_release")
    pump(2)
    assert row.parent is column and tuple(row.size_hint) == hints and panel.parent is None
    app.new_game("chan")
    wait_turn(table)
    assert table.tutorial is None
    assert not any(isinstance(w, type(panel)) for w in table.walk())


@pytest.mark.parametrize("by_buttons", [False, True], ids=["touch", "buttons"])
def test_home_learn_says_resume_lesson_when_a_lesson_is_part_way(make_app: Any,
                                                                 by_buttons: bool) -> None:
    """A lesson left part-way (MENU) turns its game's Learn into Resume lesson, at once and
    after a restart on the same store; pressing it resumes at the saved step; the other games
    still say Learn; skipping the lesson turns it back into Learn."""
    from ui.ports import MemoryStore

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    home = app.root.get_screen("home")
    assert [home.ids[f"learn_{g}"].text for g in GAMES] == ["Learn"] * 3
    press(app, home, home.ids.learn_tractor, by_buttons)
    pump(2)
    table = app.root.get_screen("tractor")
    play_lesson(app, table, by_buttons, stop_after=2)
    done = len(table.session.record.actions)
    app.handle_input("MENU")
    settle()
    assert app.root.current == "home"
    assert home.ids.learn_tractor.text == "Resume lesson"
    assert home.ids.learn_meri.text == home.ids.learn_chan.text == "Learn"
    app2 = make_app(store=store, pace=0, language="fr")  # a restart, in French
    home2 = app2.root.get_screen("home")
    settle()
    assert home2.ids.learn_tractor.text == "Reprendre la leçon"
    assert home2.ids.learn_chan.text == "Apprendre"
    press(app2, home2, home2.ids.learn_tractor, by_buttons)
    pump(2)
    table2 = app2.root.get_screen("tractor")
    wait_turn(table2)
    assert app2.root.current == "tractor" and len(table2.session.record.actions) == done
    assert table2.tutorial.panel.counter == "Étape 3 sur 19"
    table2.tutorial.skip()
    settle()
    assert app2.root.current == "home" and home2.ids.learn_tractor.text == "Apprendre"


def test_a_finished_lesson_never_saves_a_resumable_step(make_app: Any) -> None:
    """Every progress saved while the Chắn lesson is played to its end is a step inside the
    deal: after its last action the start again (never the record's length, which a power cut
    before the summary would leave behind and Home would call a lesson to resume)."""
    from ui.ports import MemoryStore

    store = MemoryStore()
    saved: list[Any] = []
    keep = store.set_setting

    def spy(key: str, value: Any) -> Any:
        if key == progress_key("chan"):
            saved.append(value)
        return keep(key, value)

    store.set_setting = spy  # type: ignore[method-assign]
    app = make_app(store=store, pace=0)
    app.start_tutorial("chan")
    table = app.root.get_screen("chan")
    play_lesson(app, table, by_buttons=False)
    script = len(table.tutorial.script)
    assert len(saved) >= script and saved[-1] == 0
    assert all(0 <= value < script for value in saved)
    assert saved.count(0) == saved[-2:].count(0)  # 0 only once the deal is over


def test_rules_page_learn_by_playing_says_resume_lesson_when_a_lesson_is_part_way(
        make_app: Any) -> None:
    """The rules page's "Learn by playing" says Resume lesson for a game whose lesson was left
    part-way (as Home's Learn does), only on that game's page; pressing it resumes the lesson
    at the saved step; skipping it turns the button back."""
    from ui.ports import MemoryStore

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.open_rules("chan")
    settle()
    rules = app.root.get_screen("rules")
    assert rules.ids.learn_button.text == "Learn by playing"
    tap(rules.ids.learn_button)
    pump(2)
    table = app.root.get_screen("chan")
    play_lesson(app, table, False, stop_after=2)
    done = len(table.session.record.actions)
    app.handle_input("MENU")
    settle()
    app.open_rules("chan")
    settle()
    assert rules.ids.learn_button.text == "Resume lesson"
    for game, words in (("meri", "Learn by playing"), ("chan", "Resume lesson")):
        rules.game = game
        pump(1)
        assert rules.ids.learn_button.text == words, game
    app.set_language("vi")
    pump(1)
    assert rules.ids.learn_button.text == i18n.tr("Resume lesson") != "Resume lesson"
    app.set_language("en")
    assert cut_in_languages(app, "rules page, Resume lesson") == []
    focus_on(app, rules, rules.ids.learn_button)
    app.handle_input("OK")
    pump(2)
    wait_turn(table)
    assert app.root.current == "chan" and len(table.session.record.actions) == done
    table.tutorial.skip()
    settle()
    app.open_rules("chan")
    settle()
    assert rules.ids.learn_button.text == "Learn by playing"
