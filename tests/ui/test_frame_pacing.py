"""How the table spreads a bot's play over frames (issue 17): a FitLabel lays its text out once
per change, and a frame that shows an action leaves its text to the next frame; a bot's play
draws the table once; an answer that comes in a frame that drew a card waits one frame."""

from __future__ import annotations

import functools
import time
from typing import Any

import pytest

from tests.ui.tablesim import wait_for

pytestmark = pytest.mark.ui


def counted_layouts(monkeypatch: Any) -> list[str]:
    """Every `Label.texture_update` from now on (the text it laid out), in a list."""
    from kivy.uix.label import Label

    calls: list[str] = []
    update = Label.texture_update

    @functools.wraps(update)
    def counted(self: Any, *args: Any) -> Any:
        calls.append(self.text)
        return update(self, *args)

    monkeypatch.setattr(Label, "texture_update", counted)
    return calls


def frame() -> None:
    """One frame as the app runs it (clock tick, then the before-drawing events), no GL."""
    from kivy.clock import Clock

    Clock.tick()
    Clock.tick_draw()


def test_a_fit_label_lays_new_text_out_once_and_after_a_busy_frame(window: Any,
                                                                   monkeypatch: Any) -> None:
    from kivy.clock import Clock

    from ui.widgets import FitLabel, hold_text

    label = FitLabel(size=(220, 40), base_font=16)
    frame()
    calls = counted_layouts(monkeypatch)
    label.text = "West to play"
    frame()
    assert calls == ["West to play"]  # once, at the size it fits at (not first at the old one)
    assert label.texture_size[0] > 0

    calls.clear()
    Clock.tick()
    hold_text()  # a table shows an action in this frame...
    label.text = "East discarded 8M"
    Clock.tick_draw()
    assert calls == []  # ... so its text waits for the next frame
    frame()
    assert calls == ["East discarded 8M"]


def test_a_bots_play_draws_the_table_once(make_app: Any, monkeypatch: Any) -> None:
    app = make_app()
    table = app.root.get_screen("chan")
    app.new_game("chan")
    wait_for(lambda: table.driver is not None and table.session.state.to_act is not None, 10)
    table.driver.invalidate()  # no bot answer of its own meanwhile
    shows: list[int] = []
    show = table.show
    monkeypatch.setattr(table, "show", lambda state, obs: (shows.append(1), show(state, obs)))
    state = table.session.state
    table.driver.apply(state.legal_actions()[0])  # as a bot's answer is applied...
    table.bot_step()  # ... then the next step, in the same frame
    assert len(shows) == 1
    if not table.holding and not table.paused():
        table.step()  # any other step draws the table again
        assert len(shows) == 2


def pacing(drawn: bool) -> Any:
    """The real frame budget (`cardsource.FrameBudget`), told whether this frame drew a card,
    and noting which frame it kept (`reserved`)."""
    from ui.table.cardsource import FrameBudget

    class Pacing(FrameBudget):
        def __init__(self) -> None:
            super().__init__(0.004)
            self.reserved: list[int] = []

        def drawn(self) -> bool:
            return drawn

        def reserve_next(self) -> None:
            from kivy.clock import Clock

            super().reserve_next()
            self.reserved.append(Clock.frames + 1)

    return Pacing()


@pytest.mark.parametrize("drawn", [False, True])
def test_an_answer_in_a_frame_that_drew_a_card_waits_one_frame(window: Any,
                                                              drawn: bool) -> None:
    from kivy.clock import Clock

    from ui.table.worker import Worker

    worker = Worker("test-pacing")
    worker.pacing = pacing(drawn)
    got: list[int] = []
    try:
        worker.submit(lambda: 42, then=lambda future: got.append(Clock.frames))
        deadline = time.monotonic() + 5
        while not got and time.monotonic() < deadline:
            frame()
            if worker.pacing.reserved:  # put off: delivered in the very next frame
                kept = worker.pacing.reserved[0]
                frame()
                assert got == [kept]
        assert got
        assert worker.pacing.reserved == ([got[0]] if drawn else [])
    finally:
        worker.shutdown()
