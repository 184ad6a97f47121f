"""A table without a screen: the owner thread as a plain loop (tests, benches, the dev server).

`OwnerLoop` is the `post` the server is given when there is no Kivy: a queue the thread that
owns the session drains (`run_until`). `HeadlessTable` plays the seats the host says AI plays
(AI seats, and phone seats whose phone is away) with the engine's bots, one action per step,
and reports every change to the host, as the kiosk's table driver will.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any

from engine.ai.bots import make_bot
from ui.remote.host import AI, Host

Job = Callable[[], None]


class OwnerLoop:
    """Work handed to the owner thread, run when that thread drains it."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()

    def post(self, job: Job) -> None:
        """Thread-safe: queue `job` for the owner thread."""
        self.jobs.put(job)

    def drain(self, timeout: float = 0.0) -> int:
        """Run the queued jobs (waiting up to `timeout` for the first); how many ran."""
        ran = 0
        try:
            job = self.jobs.get(timeout=timeout) if timeout > 0 else self.jobs.get_nowait()
        except queue.Empty:
            return 0
        while True:
            job()
            ran += 1
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                return ran

    def run_until(self, done: Callable[[], bool], timeout: float,
                  step: Callable[[], Any] | None = None) -> bool:
        """Drain jobs (and call `step` between them) until `done()` or `timeout` seconds."""
        end = time.monotonic() + timeout
        while not done():
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.drain(min(left, 0.02))
            if step is not None:
                step()
        return True


class HeadlessTable:
    """Bots for every seat the host says AI plays now; `step()` plays at most one action."""

    def __init__(self, host: Host, seed: int = 0, kind: str = "random",
                 make: Callable[[str, str, int], Any] = make_bot) -> None:
        self.host = host
        self.seed = seed
        self.kind = kind
        self.make = make
        self.bots: dict[int, Any] = {}
        self.actions = 0

    def step(self) -> bool:
        """If AI is to act, let it act (and tell the host); True if an action was applied."""
        session = self.host.session
        state = session.state
        seat = state.to_act
        if state.is_over or seat is None or self.host.plays(seat) != AI:
            return False
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = self.make(session.game.name, self.kind, self.seed * 31 + seat)
        action = bot.choose(state.observation(seat), state.legal_actions())
        session.apply(action)
        self.actions += 1
        self.host.changed()
        return True
