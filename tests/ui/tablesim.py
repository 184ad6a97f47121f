"""Helpers for the Tractor / Chắn / hint UI tests: start a chosen deal, tap a card of an
overlapping hand where it shows, and walk the focus to a widget with the arrow events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import registry
from engine.records import GameRecord
from engine.session import Session
from tests.ui.uitools import pump, wait_for


def start_deal(app: Any, game_name: str, state: Any, actions: Sequence[Any] = (),
               match_seed: int = 5) -> Any:
    """Open the table of `game_name` on the deal `state` after `actions` (as the app does for a
    new or resumed game)."""
    game = registry.get(game_name)
    record = GameRecord.deal(game, seed=0, state=state)
    for action in actions:
        record.apply(action)
    app.session = Session(game, game.new_match(match_seed), record, save=app.save)
    app.sessions.open_table(game_name)
    pump(3)
    return app.root.get_screen(game_name)


def tap_at(x: float, y: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    pump(1)


def visible_point(hand: Any, index: int) -> tuple[float, float]:
    """A point (in the hand's coordinates) on the part of card `index` no later card covers:
    its strip in an overlapped row, its index band when a second row lies over its lower part.
    The uncovered point of a grid over the card nearest its centre."""
    view = hand.views[index]
    later = hand.views[index + 1:]
    best: tuple[float, float] | None = None
    for i in range(1, 8):
        for j in range(1, 12):
            x, y = view.x + view.width * i / 8, view.y + view.height * j / 12
            if any(v.collide_point(x, y) for v in later):
                continue
            key = (abs(i - 4) / 8 * view.width) ** 2 + (abs(j - 6) / 12 * view.height) ** 2
            if best is None or key < best[0]:
                best = (key, x, y)
    assert best is not None, f"card {index} is hidden under later cards"
    return best[1], best[2]


def tap_card(hand: Any, index: int) -> None:
    """Tap card `index` of a hand where it shows (later cards overlap part of it)."""
    view = hand.views[index]
    tap_at(*view.parent.to_window(*visible_point(hand, index)))


def human_turn(table: Any) -> bool:
    """The table waits for the human (a prompt is up, nothing on hold)."""
    state = table.session.state
    return (state.to_act == 0 and not state.is_over and table.prompt != ""
            and not table.holding)


def wait_turn(table: Any, seconds: float = 60.0) -> None:
    wait_for(lambda: table.summary_open or human_turn(table), seconds,
             what="the human's turn or the summary")
    pump(4)  # let the prompt's widgets take their places (nested layouts need a few frames)


def center(widget: Any) -> tuple[float, float]:
    x, y = widget.to_window(*widget.center)
    return x, y


def focus_on(app: Any, screen: Any, target: Any, limit: int = 80) -> None:
    """Move the focus to `target` with LEFT/RIGHT/UP/DOWN events only."""
    ref = getattr(type(target), "__ref__", None)
    if ref is not None:  # kv ids are weak proxies: compare with the widget itself
        target = target.__ref__()
    tried: set[tuple[int, str]] = set()
    for _ in range(limit):
        current = screen.focused_widget
        if current is target:
            return
        if current is None:
            app.handle_input("RIGHT")
            continue
        (cx, cy), (tx, ty) = center(current), center(target)
        dx, dy = tx - cx, ty - cy
        order = (["RIGHT" if dx > 0 else "LEFT", "UP" if dy > 0 else "DOWN"]
                 if abs(dx) >= abs(dy) else
                 ["UP" if dy > 0 else "DOWN", "RIGHT" if dx > 0 else "LEFT"])
        for direction in order:
            if (id(current), direction) in tried:
                continue
            tried.add((id(current), direction))
            app.handle_input(direction)
            pump(1)
            break
        else:
            raise AssertionError(f"focus stuck on {current!r} on the way to {target!r}")
    raise AssertionError(f"could not focus {target!r}")


def cut_in_languages(app: Any, where: str) -> list[str]:
    """Cut-off labels of the current screen in each of the five languages (`where` names it)."""
    from tests.ui.uitools import cut_labels
    from ui.i18n import LANGUAGES

    problems = []
    for lang in LANGUAGES:
        app.set_language(lang)
        pump(3)
        problems += [f"{lang} {where}: {p}" for p in cut_labels(app.root.current_screen)]
    app.set_language("en")
    pump(2)
    return problems


def finish_with_bots(table: Any, seed: int = 3) -> None:
    """Play the rest of the deal straight on the session, then let the table show the summary."""
    import random

    table.driver.invalidate()
    session = table.session
    rng = random.Random(seed)
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    table.holding = False
    table.step()
    wait_for(lambda: table.summary_open, what="the summary")
    pump(4)  # the summary panel's layout and label fitting


def tractor_dealer_deal() -> Any:
    """A first Tractor deal where you bid first and hold a 2: declaring makes you the dealer
    (T-11), so the deal shows the kitty pick-up and the bury."""
    import random

    from engine.tractor.cards import KIND_RANK
    from engine.tractor.deal import deal

    for seed in range(200):
        state = deal(random.Random(seed), None)
        if state.bid_start == 0 and any(KIND_RANK[k] == 0 and c
                                        for k, c in enumerate(state.hands[0])):
            return state
    raise AssertionError("no suitable deal")


def assert_resumes_same_position(make_app: Any, game_name: str, hand_attr: str) -> None:
    """The autosave after every action resumes `game_name`'s table at the same decision: same
    actions, the same hand (the table's `hand_attr` list) and the same prompt."""
    from ui.ports import MemoryStore

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.new_game(game_name)
    table = app.root.get_screen(game_name)
    wait_turn(table)
    actions = list(table.session.record.actions)
    hand = list(getattr(table, hand_attr))
    app2 = make_app(store=store, pace=0)
    app2.continue_game()
    table2 = app2.root.get_screen(game_name)
    assert app2.root.current == game_name
    wait_turn(table2)
    assert table2.session.record.actions == actions and getattr(table2, hand_attr) == hand
    assert table2.prompt == table.prompt
