"""A table without a screen: the owner thread as a plain loop (tests, benches, the dev server).

`OwnerLoop` is the `post` the server is given when there is no Kivy: a queue the thread that
owns the session drains (`run_until`). `HeadlessTable` is the engine's headless table
(`engine.table`) with the host's seats: the seats the host says AI plays (AI seats, and phone
seats whose phone is away) are the engine's bots, one action per step, and every change is
reported to the host, as the kiosk's table driver does.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any

from engine.ai.bots import make_bot
from engine.table import BotSeat, LocalSeat, RemoteSeat, Seat, Table
from ui.remote.host import AI, PHONE, Host

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
    """The headless table (`engine.table.Table`) over the host's session: AI seats are bots,
    phone seats are played by their phone while it is there and by a bot while it is away (the
    host says which), screen seats wait. `step()` plays at most one action; the phones' actions
    (`Host.submit`) go through the same table, unless the host was given an apply of its own."""

    def __init__(self, host: Host, seed: int = 0, kind: str = "random",
                 make: Callable[[str, str, int], Any] = make_bot) -> None:
        self.host = host
        game_name = host.session.game.name

        def bot(seat: int) -> BotSeat:
            return BotSeat(make(game_name, kind, seed * 31 + seat))

        seats: list[Seat] = []
        for seat, plan in enumerate(host.plans):
            if plan.kind == AI:
                seats.append(bot(seat))
            elif plan.kind == PHONE:
                seats.append(RemoteSeat(lambda seat=seat: host.plays(seat) == PHONE, bot(seat)))
            else:
                seats.append(LocalSeat())
        self.table = Table(host.session, seats)
        if host.apply_action == host.session.apply:  # (a host given its own apply keeps it)
            host.apply_action = self.table.apply
        self.actions = 0

    def step(self) -> bool:
        """If AI is to act, let it act (and tell the host); True if an action was applied."""
        asked = self.table.asked()
        if asked is not None and self.host.plays(asked.seat) == AI:
            self.table.reask()  # its phone went away since it was asked: the stand-in answers
        if not self.table.step():
            return False
        self.actions += 1
        self.host.changed()
        return True
