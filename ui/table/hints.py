"""Hints: the move the normal AI would make in the human's place, worked out off the UI thread.

`Hinter` builds the first bot of `HINT_LEVELS` the game knows (`make_bot(game.name, kind, seed)`:
the normal AI, else the heuristic, else random) and asks it about the human's observation and
legal actions on its own worker thread, handing the answer back through the Kivy `Clock`. The
bot sees only the observation, exactly like an AI seat. A hint belongs to one position: any
action applied meanwhile makes it stale and it is dropped (`invalidate`).

`Hints` is the table's side, a service every `TableScreen` holds (`screen.hints`): the kv's
`HintButton` calls `root.hints.ask()` and shows the screen's `hint_busy`; the answer goes to the
screen's `show_hint(action)` (each game highlights the cards), and the screen tells it when an
action is applied (`invalidate`) and when the table stops (`shutdown`). What it reads of the
screen is `HintHost`.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from kivy.logger import Logger

from engine.game import Action, Game, State
from ui.i18n import tr
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


class HintHost(Protocol):
    """What `Hints` needs of the table screen it serves."""

    app: Any
    session: Any  # engine.session.Session | None
    holding: bool
    autoplay: bool
    replay: Any  # a record being shown, or None
    tutorial: Any  # a lesson (`ui.tutorial`), or None
    viewer: int  # the seat the table is drawn for (`ui.table.cover`)
    message: str
    alert: bool
    hint_busy: bool  # a Kivy property: the kv's HintButton shows it

    def hand_shown(self) -> bool: ...

    def plays_here(self, seat: int | None) -> bool: ...

    def show_hint(self, action: Action) -> None: ...


class Hints:
    """A table screen's hint button: `ask()` (the kv's `root.hints.ask()`) asks the normal AI,
    the answer reaches the screen's `show_hint(action)`; `invalidate()` after every applied
    action, `shutdown()` when the table stops."""

    def __init__(self, host: HintHost) -> None:
        self.host = host
        self._worker: Hinter | None = None
        self._session: Any = None  # the session `_worker` was built for

    def hinter(self) -> Hinter | None:
        """The worker for the table's session (a new one for a new session)."""
        session = self.host.session
        if session is None:
            return None
        if self._worker is None or self._session is not session:
            if self._worker is not None:
                self._worker.shutdown()
            self._worker = Hinter(session.game, self.host.app.rng.randrange(2**31))
            self._session = session
        return self._worker

    def can_hint(self) -> bool:
        """True when the human decides now (the button is enabled)."""
        host = self.host
        session = host.session
        if session is None or host.holding or host.autoplay:
            return False
        if host.replay is not None:  # a record being shown: nobody decides
            return False
        state = session.state
        if not host.hand_shown() or not host.plays_here(host.viewer):  # covered, or elsewhere
            return False
        return not state.is_over and state.to_act == host.viewer

    def ask(self) -> None:
        """Ask the normal AI what it would do here; the answer arrives via `show_hint`."""
        host = self.host
        if not self.can_hint():
            host.message = tr("A hint is available when it is your turn.")
            host.alert = False
            return
        if host.tutorial is not None:  # in a lesson the hint is the lesson's move, at once
            host.show_hint(host.tutorial.next_action())
            return
        hinter = self.hinter()
        session = host.session
        position = (session.record, len(session.record.actions))  # what the hint is about

        def ready(action: Action | None) -> None:
            host.hint_busy = False
            now = (host.session.record, len(host.session.record.actions)) if host.session else None
            if action is None or now != position or not self.can_hint():
                return  # the position changed meanwhile: the hint no longer applies
            host.show_hint(action)

        if hinter is not None and hinter.ask(session.state, host.viewer, ready):
            host.hint_busy = True
            host.message = tr("Thinking about a hint…")
            host.alert = False

    def invalidate(self) -> None:
        """An action was applied: a hint in flight no longer applies."""
        if self._worker is not None:
            self._worker.invalidate()
        self.host.hint_busy = False

    def shutdown(self) -> None:
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None

