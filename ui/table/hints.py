"""Hints: the move the normal AI would make in the human's place, worked out off the UI thread.

`Hinter` builds the first bot of `HINT_LEVELS` the game knows (`make_bot(game.name, kind, seed)`:
the normal AI, else the heuristic, else random) and asks it about the human's observation and
legal actions on its own worker thread, handing the answer back through the Kivy `Clock`. The
bot sees only the observation, exactly like an AI seat. A hint belongs to one position: any
action applied meanwhile makes it stale and it is dropped (`invalidate`).

`HintMixin` gives a table screen the verb `hint()` (the kv `HintButton` calls it), the property
`hint_busy` (the button shows that it is thinking) and the hook `show_hint(action)`; by default
the hint is shown as the prompt line. Every table has it: Meri and Tractor through
`ui.table.review.TrickTableScreen`, Chắn directly (listed before `TableScreen`, with a
`HintButton` from hints.kv in its kv).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from kivy.logger import Logger
from kivy.properties import BooleanProperty

from engine.game import Action, Game, State
from ui.i18n import tr, trf
from ui.table.worker import Worker

HINT_LEVELS = ("normal", "heuristic", "random")  # the first kind the game knows is used


def make_hint_bot(game: Game, seed: int) -> Any:
    """The normal AI of `game` (or the best lower kind it has); `engine.ai.bots` is imported
    here, on the first hint, not when the table opens."""
    from engine.ai.bots import make_bot

    for kind in HINT_LEVELS:
        try:
            return make_bot(game.name, kind, seed)
        except KeyError:
            continue
    raise KeyError(f"no bot for {game.name}")


class Hinter(Worker):
    """Runs one hint at a time on a worker thread; results reach `on_done` on the UI thread."""

    def __init__(self, game: Game, seed: int) -> None:
        self.bot = make_hint_bot(game, seed)
        self.busy = False
        super().__init__("parlor-hint")

    def invalidate(self) -> None:
        """Forget a hint in flight (the position changed)."""
        super().invalidate()
        self.busy = False

    def ask(self, state: State, seat: int, on_done: Callable[[Action | None], None]) -> bool:
        """Start working out the hint for `seat` (who must be `to_act`); False if not possible."""
        if state.is_over or state.to_act != seat or self.busy:
            return False
        observation = state.observation(seat)
        legal = state.legal_actions()
        self.busy = True
        self.submit(self.bot.choose, observation, legal,
                    then=lambda f: self._finish(f, on_done))
        return True

    def _finish(self, future: Future, on_done: Callable) -> None:
        self.busy = False
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            Logger.error(f"Parlor: the hint failed: {error!r}")
            on_done(None)
            return
        on_done(future.result())


class HintMixin:
    """A table screen's hint button: `hint()` asks, `show_hint(action)` shows the answer."""

    hint_busy = BooleanProperty(False)

    def _hinter(self) -> Hinter | None:
        session = getattr(self, "session", None)
        if session is None:
            return None
        hinter: Hinter | None = getattr(self, "_hint_worker", None)
        if hinter is None or getattr(self, "_hint_session", None) is not session:
            if hinter is not None:
                hinter.shutdown()
            hinter = Hinter(session.game, self.app.rng.randrange(2**31))
            self._hint_worker = hinter
            self._hint_session = session
        return hinter

    def can_hint(self) -> bool:
        """True when the human decides now (the button is enabled)."""
        session = getattr(self, "session", None)
        if session is None or getattr(self, "holding", False) or getattr(self, "autoplay", False):
            return False
        if getattr(self, "replay", None) is not None:  # a record being shown: nobody decides
            return False
        state = session.state
        viewer = getattr(self, "viewer", 0)  # the seat the table is drawn for (`ui.table.cover`)
        if not self.hand_shown() or not self.plays_here(viewer):  # covered, or not played here
            return False
        return not state.is_over and state.to_act == viewer

    def hint(self) -> None:
        """Ask the normal AI what it would do here; the answer arrives via `show_hint`."""
        if not self.can_hint():
            self.message = tr("A hint is available when it is your turn.")
            self.alert = False
            return
        tutorial = getattr(self, "tutorial", None)
        if tutorial is not None:  # in a lesson the hint is the lesson's move, at once
            self.show_hint(tutorial.next_action())
            return
        hinter = self._hinter()
        session = self.session
        position = (session.record, len(session.record.actions))  # what the hint is about

        def ready(action: Action | None) -> None:
            self.hint_busy = False
            now = (self.session.record, len(self.session.record.actions)) if self.session else None
            if action is None or now != position or not self.can_hint():
                return  # the position changed meanwhile: the hint no longer applies
            self.show_hint(action)

        if hinter is not None and hinter.ask(session.state, self.viewer, ready):
            self.hint_busy = True
            self.message = tr("Thinking about a hint…")
            self.alert = False

    def show_hint(self, action: Action) -> None:
        """Show the suggestion (tables override this to highlight the cards)."""
        text = self.session.game.format_action(action)
        self.message = trf("Hint: {action}", action=text)
        self.alert = False

    def applied(self, seat: int, action: Action) -> None:
        worker = getattr(self, "_hint_worker", None)
        if worker is not None:
            worker.invalidate()
        self.hint_busy = False
        super().applied(seat, action)  # type: ignore[misc]

    def shutdown(self) -> None:
        worker = getattr(self, "_hint_worker", None)
        if worker is not None:
            worker.shutdown()
            self._hint_worker = None
        super().shutdown()  # type: ignore[misc]
