"""Hints (issue 7 item 3): the normal AI's move for the human, worked out off the UI thread, shown
on the Tractor and Chắn tables (the cards picked, ready to play), usable for Meri through the same
`Hinter`, and dropped when the position changed before it arrived."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from engine import registry
from engine.ai.bots import make_bot
from engine.chan.legal import DISCARD_BASE, PASS
from tests.ui.tablesim import start_deal, wait_turn
from tests.ui.uitools import pump, tap, wait_for

pytestmark = pytest.mark.ui


class ThreadSpy:
    """Wraps a bot and notes the thread each decision ran on."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.threads: list[str] = []

    def choose(self, observation: Any, legal: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        return self.bot.choose(observation, legal)


def spy_on(table: Any) -> ThreadSpy:
    hinter = table.hints.hinter()
    spy = ThreadSpy(hinter.bot)
    hinter.bot = spy
    return spy


def test_tractor_hint_picks_a_legal_play_then_plays_it(make_app: Any) -> None:
    app = make_app(pace=0)
    table = start_deal(app, "tractor", registry.get("tractor").new_deal(8))
    spy = spy_on(table)
    while True:  # through the bidding (and a bury if it falls to you) to your first play
        wait_turn(table)
        if table.prompt == "play":
            break
        tap(table.ids.hint_button)
        wait_for(lambda: not table.hint_busy, what="the hint")
        assert table.message.startswith("Hint: ")
        if table.prompt == "declare":
            table.choose(table.choice_actions[0])
        else:
            table.submit()
    tap(table.ids.hint_button)
    assert table.hint_busy and table.ids.hint_button.text == "Thinking…"
    wait_for(lambda: not table.hint_busy and table.picked, what="the hint")
    assert table.feedback_ok, table.feedback  # the hinted cards are a legal play
    assert spy.threads and all(name.startswith("parlor-hint") for name in spy.threads)
    assert threading.current_thread().name not in spy.threads
    before = len(table.session.record.actions)
    hinted = table.session.game.format_action(tuple(sorted(table.cards[i] for i in table.picked)))
    tap(table.ids.play_button)
    assert table.session.record.actions[before] == hinted


def test_chan_hint_names_a_legal_action(make_app: Any) -> None:
    app = make_app(pace=0)
    table = start_deal(app, "chan", registry.get("chan").new_deal(4))
    wait_turn(table)
    legal = table.session.state.legal_actions()
    tap(table.ids.hint_button)
    wait_for(lambda: not table.hint_busy, what="the hint")
    assert table.message.startswith("Hint: ")
    if table.picked:
        face = table.cards[table.picked[0]]
        assert face in legal or DISCARD_BASE + face in legal
    else:
        assert PASS in legal


def test_stale_hint_is_dropped(make_app: Any) -> None:
    """A hint asked for one position never shows after an action changed it."""
    app = make_app(pace=0)
    table = start_deal(app, "chan", registry.get("chan").new_deal(4))
    wait_turn(table)
    table.hints.ask()
    assert table.hint_busy
    action = table.session.state.legal_actions()[-1]
    assert table.play(action)
    assert not table.hint_busy
    for _ in range(30):
        pump(1)
        assert not table.message.startswith("Hint: ")


def test_meri_hint_button_picks_the_normal_ai_move(make_app: Any) -> None:
    """The Meri table's Hint button asks the normal AI off the UI thread and picks its answer."""
    app = make_app(pace=0)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_for(lambda: app.session.state.to_act == 0 and table.prompt != "", what="your turn")
    spy = spy_on(table)
    tap(table.ids.hint_button)
    wait_for(lambda: table.message.startswith("Hint: "), what="the Meri hint")
    assert spy.threads and all(name.startswith("parlor-hint") for name in spy.threads)
    state = app.session.state
    legal = state.legal_actions()
    if table.prompt in ("discard", "play"):
        [code] = table.picked_codes()
        chosen = app.session.game.parse_action(code)
        assert chosen in legal
        played = len(app.session.record.actions)
        tap(table.ids.play_button)
        pump(5)
        assert len(app.session.record.actions) > played
    else:
        assert table.prompt == "declare"


@pytest.mark.parametrize("game_name", ["tractor", "chan"])
def test_replay_plays_a_record_on_the_table_without_prompts(make_app: Any,
                                                          game_name: str) -> None:
    """`parlor replay FILE` on the Tractor and Chắn tables: no prompt, no hint, nothing saved."""
    import json

    from ui.ports import MemoryStore

    game = registry.get(game_name)
    state = game.new_deal(6)
    bot, actions = make_bot(game.name, "heuristic", 2), []
    while not state.is_over:
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        actions.append(game.format_action(action))
        state.apply(action)
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    assert app.open_replay(json.dumps({"game": game_name, "seed": 6, "actions": actions}))
    table = app.root.get_screen(game_name)
    seen_prompt = []

    def done() -> bool:
        seen_prompt.append(table.prompt)
        return table.summary_open

    wait_for(done, seconds=60, what="the replayed deal's summary")
    assert set(seen_prompt) == {""} and not table.hints.can_hint()
    assert table.session.record.actions == actions
    assert store.stats() == {} and store.load_autosave() is None
