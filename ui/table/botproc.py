"""Bots in a separate process, so their thinking never competes with the UI for Python's GIL.

A search bot running in a thread of the app's own process shares the GIL with the UI thread:
every frame's work then takes up to twice as long. `BotProcess` runs the bots of one table in a
child process (`python -m ui.table.botproc`: a fresh interpreter that imports only the engine,
never Kivy) and answers `choose(seat, observation, legal)` over its stdin/stdout with
length-prefixed pickles; the caller (the table's worker thread) blocks on the pipe without
holding the GIL. The child exits when its stdin closes, so it never outlives the app. With each
action comes what the bot weighed for it (`engine.ai.why.Why`: the top candidates, their values,
the worlds sampled; a few hundred bytes), for the table's **Why?** (`decide`).

With `workers` > 1 (config `[ai] workers`) the child also starts, once for the table, the search
pool of `engine.ai.pool` (workers - 1 more processes, in the background so the first decisions
are not held up) and its search bots split their worlds across it; the decisions are the same.

Every decision goes to the child, Tractor's lazy legal sets included (they pickle as their
shape, `engine.tractor.legal.Combos`): a search in the app's process would leave its objects to
the UI thread's garbage collections (a generation-2 pass took 7 ms of a frame). Only if the
child cannot be used (a frozen bundle, an observation that does not pickle, a dead child) does
the caller fall back to the in-process bot. This module must not import Kivy.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]  # the directory holding the `ui` and `engine` packages


def _write(stream: IO[bytes], obj: Any) -> None:
    _send(stream, pickle.dumps(obj))


def _send(stream: IO[bytes], data: bytes) -> None:
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError("pipe closed")
    (size,) = struct.unpack(">I", head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("pipe closed")
    return pickle.loads(data)


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """The child's loop: (game, specs, workers) first, then (seat, observation, legal) until
    EOF; the search pool (workers > 1) lives as long as the loop."""
    from engine import registry
    from engine.ai.bots import make_bot
    from engine.ai.pool import SearchPool
    from engine.ai.why import explain

    game_name, specs, workers = _read(stdin)
    game = registry.get(game_name)
    pool = SearchPool(workers, wait=False) if workers > 1 else None
    try:
        bots = {seat: make_bot(game.name, kind, seed, pool) for seat, (kind, seed) in specs.items()}
        while True:
            try:
                seat, observation, legal = _read(stdin)
            except EOFError:
                return
            try:
                bot = bots[seat]
                action = bot.choose(observation, legal)
                reply = ("ok", (action, explain(bot, action)))
            except Exception as exc:  # report it; the parent plays on with its local bot
                reply = ("error", repr(exc))
            _write(stdout, reply)
    finally:
        if pool is not None:
            pool.close()


def available() -> bool:
    """A child interpreter can be started (not inside a frozen bundle)."""
    return not getattr(sys, "frozen", False)


class BotProcess:
    """The bots of one table in a child process; `choose` blocks the calling (worker) thread."""

    def __init__(self, game_name: str, specs: dict[int, tuple[str, int]], workers: int = 1) -> None:
        self.game_name = game_name
        self.specs = dict(specs)
        self.workers = max(1, int(workers))  # processes searching one decision (the child's pool)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self.failed = False
        self.answered = 0  # decisions the child made (a figure for tests and benchmarks)

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        proc = subprocess.Popen(
            [sys.executable, "-m", "ui.table.botproc"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
        )
        _write(proc.stdin, (self.game_name, self.specs, self.workers))
        return proc

    def choose(self, seat: int, observation: Any, legal: Sequence[Any]) -> Any:
        """The bot's action; `RuntimeError` if the child cannot answer (then use a local bot)."""
        return self.decide(seat, observation, legal)[0]

    def decide(self, seat: int, observation: Any, legal: Sequence[Any]) -> tuple[Any, Any]:
        """The bot's action and what it weighed (`engine.ai.why.Why`); `RuntimeError` if the
        child cannot answer (then use a local bot)."""
        if self.failed:
            raise RuntimeError("bot process unavailable")
        # A lazy legal set (Tractor's follows and burials) goes as it is: it pickles as its
        # shape, never as the thousands of actions it may hold.
        options = legal if hasattr(legal, "sample") else list(legal)
        try:
            data = pickle.dumps((seat, observation, options))
        except Exception as exc:
            raise RuntimeError(f"observation does not pickle: {exc}") from None
        with self._lock:
            try:
                if self._proc is None:
                    self._proc = self._start()
                _send(self._proc.stdin, data)
                status, value = _read(self._proc.stdout)
            except (OSError, EOFError, pickle.UnpicklingError) as exc:
                self.failed = True
                raise RuntimeError(f"bot process failed: {exc}") from None
        if status != "ok":
            raise RuntimeError(f"bot of seat {seat} failed in the bot process: {value}")
        self.answered += 1
        return value

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (it starts with the first question)."""
        proc = self._proc
        return proc.pid if proc is not None else None

    def peak_rss_mb(self) -> float:
        """The child's peak resident memory so far, in MiB (its /proc VmHWM, read from outside:
        the child is never asked); NaN if it has not started or has ended."""
        from engine.measure import status_mb

        pid = self.pid
        return status_mb("VmHWM", pid) if pid is not None else float("nan")

    def close(self) -> None:
        """End the child (closing its stdin) and wait briefly for it."""
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
