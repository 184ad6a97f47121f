"""Drives a `Session` on the table: bots think on a worker thread, the UI thread only applies.

The driver knows no game. After every change it asks the table what to do next:
- deal over -> `table.deal_over()`;
- the human to act -> `table.human_turn()` (the table may answer automatically, e.g. D-6);
- a bot to act -> `bot.choose(observation, legal)` runs on a single worker thread; the result
  comes back through `Clock.schedule_once` and is applied no sooner than `delay` seconds after
  the bot started, so plays come at a human pace and the screen never freezes.
A generation counter drops results that arrive after a restart or a new deal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger

from engine.ai.kinds import KINDS, LEVELS
from engine.game import Action
from engine.session import Session
from ui.table.botproc import BotProcess


def bot_specs(level: str, seats: Sequence[int], seed: int) -> dict[int, tuple[str, int]]:
    """(bot kind, seed) per AI seat at `level`; `KeyError` for a level `engine.ai.bots` lacks."""
    if level not in KINDS:
        raise KeyError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
    return {seat: (level, seed * 31 + seat) for seat in seats}


class TableDriver:
    """Runs one session's bot turns off the UI thread and hands results back through the Clock."""

    def __init__(
        self,
        session: Session,
        bots: dict[int, Any],
        human: int | None,
        on_step: Callable[[], None],
        on_applied: Callable[[int, Action], None],
        delay: Callable[[], float],
        process: BotProcess | None = None,
    ) -> None:
        self.session = session
        self.bots = bots
        self.process = process  # the same bots in a child process (no GIL contention)
        self.human = human
        self.on_step = on_step
        self.on_applied = on_applied
        self.delay = delay
        self.thinking: int | None = None  # the seat whose bot is thinking
        self._generation = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parlor-bot")
        self._lock = threading.Lock()

    def invalidate(self) -> None:
        """Forget any bot decision in flight (new deal, restart, leaving the table)."""
        with self._lock:
            self._generation += 1
        self.thinking = None

    def shutdown(self) -> None:
        self.invalidate()
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self.process is not None:
            process, self.process = self.process, None
            threading.Thread(target=process.close, daemon=True).start()

    def apply(self, action: Action) -> None:
        """Apply an action for `to_act` (raises `IllegalAction`, changing nothing)."""
        seat = self.session.state.to_act
        self.session.apply(action)
        self.on_applied(seat, action)

    def start_bot(self) -> bool:
        """Let the bot of `to_act` think, if it is a bot's turn and none is thinking yet."""
        state = self.session.state
        seat = state.to_act
        if state.is_over or seat is None or seat == self.human or self.thinking is not None:
            return False
        bot = self.bots[seat]
        observation = state.observation(seat)
        legal = state.legal_actions()
        generation = self._generation
        started = time.monotonic()
        self.thinking = seat
        future = self._pool.submit(self._choose, bot, seat, observation, legal)
        future.add_done_callback(lambda f: self._done(f, generation, seat, started))
        return True

    def _choose(self, bot: Any, seat: int, observation: Any, legal: Any) -> Action:
        """Worker thread: ask the bot process, or the local bot if the process cannot answer."""
        process = self.process
        if process is not None:
            try:
                return process.choose(seat, observation, legal)
            except RuntimeError as exc:
                if process.failed:
                    Logger.warning(f"Parlor: {exc}; bots continue in the app's process")
        return bot.choose(observation, legal)

    def _done(self, future: Future, generation: int, seat: int, started: float) -> None:
        # Worker thread: touch nothing but the Clock.
        wait = max(0.0, self.delay() - (time.monotonic() - started))
        Clock.schedule_once(lambda _dt: self._finish(future, generation, seat), wait)

    def _finish(self, future: Future, generation: int, seat: int) -> None:
        with self._lock:
            if generation != self._generation:
                return
        self.thinking = None
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:  # a bot bug must not hang the table: play a legal action
            Logger.error(f"Parlor: bot of seat {seat} failed: {error!r}; playing its first legal")
            action = self.session.state.legal_actions()[0]
        else:
            action = future.result()
        if self.session.state.to_act != seat:
            return
        self.apply(action)
        self.on_step()
