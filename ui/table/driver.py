"""Drives a `Session` on the table: bots think on a worker thread, the UI thread only applies.

Every action goes through the engine's headless table (`engine.table.Table`, `table`): the one
loop that checks and applies it and tells who played what (its `Applied` event becomes the
screen's `on_applied`). A bot's seat is a `ThinkingSeat`: asked by the table, it thinks on the
worker and answers the table's question later, through the Clock; an answer to a question the
table no longer asks (a new deal, an undo, the phone back) is dropped. The driver knows no game.
After every change it asks the table what to do next:
- deal over -> `table.deal_over()`;
- the human to act -> `table.human_turn()` (the table may answer automatically, e.g. D-6);
- a bot to act -> `bot.choose(observation, legal)` runs on a single worker thread (`Worker`); the
  result comes back through the Clock and is applied no sooner than `delay` seconds after the bot
  started, so plays come at a human pace and the screen never freezes. Results that arrive
  after a restart or a new deal are dropped. With each bot action comes what the bot weighed
  (`engine.ai.why.Why`); `last_why` keeps the last AI move's, for the table's Why?.

Bots are built where they think: in the bot process when there is one (`BotProcess`), and in
this process only for a seat the process cannot answer for (then `engine.ai.bots`, a heavy
import, is loaded on first use).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger

from engine.errors import IllegalAction
from engine.game import Action
from engine.session import Session
from engine.table import (
    BOT,
    SCRIPTED,
    Answer,
    Applied,
    Event,
    LocalSeat,
    RemoteSeat,
    Request,
    Script,
    Seat,
    Table,
)
from ui.table.botproc import BotProcess
from ui.table.worker import Worker


def bot_specs(level: str, seats: Sequence[int], seed: int) -> dict[int, tuple[str, int]]:
    """(bot kind, seed) per AI seat at `level` (the kind is checked where the bot is built:
    `engine.ai.bots.make_bot` raises `KeyError` for a kind it does not know)."""
    return {seat: (level, seed * 31 + seat) for seat in seats}


def local_bot(game_name: str, spec: tuple[str, int]) -> Any:
    """The bot of `spec` built in this process (imports `engine.ai.bots` on first use)."""
    from engine.ai.bots import make_bot

    kind, seed = spec
    return make_bot(game_name, kind, seed)


class ThinkingSeat(Seat):
    """A bot's seat at the kiosk: when the table asks it, its bot thinks on the driver's worker
    (`TableDriver.think`) and the answer comes back to the table on the Kivy thread."""

    kind = BOT

    def __init__(self, driver: TableDriver) -> None:
        self.driver = driver

    def ask(self, request: Request) -> Answer | None:
        self.driver.think(request)
        return None


class PacedScriptSeat(Seat):
    """A script's seat at the kiosk (a record being shown, a lesson's AI seats): asked by the
    table, it plays the script's next action after the AI's delay (`TableDriver.pace_script`)."""

    kind = SCRIPTED

    def __init__(self, driver: TableDriver, script: Script) -> None:
        self.driver = driver
        self.script = script

    def ask(self, request: Request) -> Answer | None:
        self.driver.pace_script(request, self.script)
        return None

    def reset(self) -> None:
        self.driver.cancel_script()


class TableDriver(Worker):
    """Runs one session's bot turns off the UI thread and hands results back through the Clock."""

    def __init__(
        self,
        session: Session,
        specs: dict[int, tuple[str, int]],
        human: int | None,
        on_step: Callable[[], None],
        on_applied: Callable[[int, Action], None],
        delay: Callable[[], float],
        process: BotProcess | None = None,
        kinds: Sequence[str] | None = None,
        present: Callable[[int], bool] | None = None,
        script: Script | None = None,
    ) -> None:
        """`kinds`: who plays each seat — `screen` (a person here), `phone`, `ai` or `script`
        (default: `human` on the screen, AI elsewhere); `present(seat)`: a phone seat's phone
        plays it now (else its stand-in AI does); `script`: what the `script` seats play."""
        self.session = session
        self.specs = dict(specs)
        self.bots: dict[int, Any] = {}  # the in-process bots built so far, by seat
        self.process = process  # the bots in a child process (no GIL contention)
        self.human = human
        self.on_step = on_step
        self.on_applied = on_applied
        self.delay = delay
        self.thinking: int | None = None  # the seat whose bot is thinking
        self.last_why: tuple[int, Action, Any] | None = None  # (seat, action, Why) of the last AI move
        #: The screen may play a scripted action now (nothing on show, nothing open over it).
        self.ready: Callable[[], bool] = lambda: True
        #: A scripted action the rules refuse (a broken record): the screen says which rule.
        self.on_refused: Callable[[IllegalAction], None] | None = None
        self._script_event: Any = None
        self.script = script
        super().__init__("parlor-bot")
        if kinds is None:
            kinds = ["screen" if seat == human else "ai" for seat in range(session.game.players)]
        self.table = Table(session, [self._seat(seat, kind, present)
                                     for seat, kind in enumerate(kinds)])
        self.table.listen(self._told)

    def _seat(self, seat: int, kind: str, present: Callable[[int], bool] | None) -> Seat:
        if kind == "screen":
            return LocalSeat()
        if kind == "phone":
            return RemoteSeat(lambda: present is not None and present(seat), ThinkingSeat(self))
        if kind == "script":
            if self.script is None:
                raise ValueError(f"seat {seat} plays a script, and the driver was given none")
            return PacedScriptSeat(self, self.script)
        return ThinkingSeat(self)

    def invalidate(self) -> None:
        """Forget any bot decision in flight (new deal, restart, leaving the table, the phone
        back): the table asks again."""
        super().invalidate()
        self.thinking = None
        self.table.changed()

    def shutdown(self) -> None:
        """Stop thinking and let the bot process end (off the UI thread: it may take a moment)."""
        self.cancel_script()
        super().shutdown()
        if self.process is not None:
            process, self.process = self.process, None
            threading.Thread(target=process.close, daemon=True).start()

    def apply(self, action: Action, why: Any = None) -> None:
        """Apply an action for `to_act` through the table (raises `IllegalAction`, changing
        nothing); `why`: a bot's action, with what it weighed (it becomes `last_why`)."""
        self.table.apply(action, why)

    def _told(self, event: Event) -> None:
        if isinstance(event, Applied):
            if event.why is not None:
                self.last_why = (event.seat, event.action, event.why)
            self.on_applied(event.seat, event.action)

    def start_bot(self) -> bool:
        """Ask the seat to act, if no bot is thinking yet: a bot's seat (an AI seat, a phone's
        stand-in while its phone is away) starts thinking (True); a person's seat, here or on a
        phone, waits for them (False)."""
        state = self.session.state
        seat = state.to_act
        if state.is_over or seat is None or self.thinking is not None:
            return False
        self.table.step()  # a `ThinkingSeat` asked: `think`
        return self.thinking == seat

    def hand_over(self, seat: int) -> None:
        """`seat` changed hands (its phone went away, or came back): if it was asked, it is
        asked again, and a bot's decision in flight for it is dropped."""
        asked = self.table.asked()
        if asked is None or asked.seat != seat:
            return
        if self.thinking == seat:
            self.invalidate()
        else:
            self.table.reask()

    def think(self, request: Request) -> None:
        """The table asks a bot's seat: it thinks on the worker; `_finish` answers the table."""
        seat = request.seat
        self.thinking = seat
        self.submit(self._choose, seat, request.observation, request.legal, delay=self.delay,
                    then=lambda f: self._finish(f, request))

    def pace_script(self, request: Request, script: Script) -> None:
        """The table asks a script's seat: its next action is played after the AI's delay, if
        the table still asks then and the screen is `ready`; else the seat is asked again at
        the screen's next step (and waits the delay again)."""
        self.cancel_script()

        def go(_dt: float) -> None:
            self._script_event = None
            if request is not self.table.asked():
                return
            if not self.ready():
                self.table.reask()
                self.on_step()
                return
            action = script.next_action()
            if action is None:  # the script has ended: the seat waits for good
                return
            try:
                self.table.answer(request, action)
            except IllegalAction as exc:  # a record that breaks a rule: said, and it stops there
                if self.on_refused is not None:
                    self.on_refused(exc)
                return
            self.on_step()

        self._script_event = Clock.schedule_once(go, self.delay())

    def script_pending(self) -> bool:
        """A scripted action is on its way (the delay running)."""
        return self._script_event is not None

    def cancel_script(self) -> None:
        if self._script_event is not None:
            self._script_event.cancel()
            self._script_event = None

    def bot(self, seat: int) -> Any:
        """The in-process bot of `seat`, built on first use."""
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = local_bot(self.session.game.name, self.specs[seat])
        return bot

    def _choose(self, seat: int, observation: Any, legal: Any) -> tuple[Action, Any]:
        """Worker thread: ask the bot process, or the local bot if the process cannot answer;
        the action and what the bot weighed (`engine.ai.why.Why`)."""
        process = self.process
        if process is not None:
            try:
                return process.decide(seat, observation, legal)
            except RuntimeError as exc:
                if process.failed:
                    Logger.warning(f"Parlor: {exc}; bots continue in the app's process")
        from engine.ai.why import explain

        bot = self.bot(seat)
        action = bot.choose(observation, legal)
        return action, explain(bot, action)

    def _finish(self, future: Future, request: Request) -> None:
        self.thinking = None
        if future.cancelled():  # (the table is being left)
            self.table.reask()
            return
        seat = request.seat
        error = future.exception()
        if error is not None:  # a bot bug must not hang the table: play a legal action
            Logger.error(f"Parlor: bot of seat {seat} failed: {error!r}; playing its first legal")
            action, why = request.legal[0], None
        else:
            action, why = future.result()
        if self.table.answer(request, action, why):  # (dropped if the table moved on)
            self.on_step()
