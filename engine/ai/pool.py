"""Root parallelism: a search decision's parts split across worker processes, results in order.

A part is whatever the search splits a decision into (`engine.ai.parts`): a sampled world of the
determinized search, a whole tree of the tree search; the pool knows only the `PartJob`
interface. A `SearchPool` of size K is this process plus K - 1 worker processes, started once
(per table: the bot process makes one) and reused by every decision of every search bot given
it. For a decision the pool sends each worker the decision's job (observation, seed, what to
compute and how to build the game's searcher); searcher j of the K computes parts j, j + K,
j + 2K, ... and streams each result back. `parts` hands the results to the search in index
order; since part i depends only on (decision seed, i) (`engine.ai.search.world_rng`), the
decision is exactly the one K = 1 makes, for any K.

This process never blocks for long: while the next part is a worker's and has not come, it
computes its own next part; with none left, it waits for the worker at most a couple of its
own part times and then computes that part itself (the worker's copy, identical, is dropped).
So a worker that is slow, hung or dead costs at most the time K = 1 takes: a dead worker (its
pipe closes) is logged once and its parts are computed here for the rest of that decision; it
is replaced at the start of the next (at most `MAX_RESTARTS` times in a pool's life). When the
search stops early, the workers are told to stop after their current part; stale results are
recognised by their decision number and dropped.

Start method: 'forkserver'. The pool may live in a process that must never be forked — one with
Kivy, SDL, GL or threads (the table's bot process is a fresh `python -m ui.table.botproc`, but
the same pool serves the engine's CLI and tests) — and a forked child would also inherit its
file descriptors (the bot process's stdin/stdout pipes to the UI, which must close when it
exits). 'spawn' avoids both, but every worker would import the engine afresh (seconds on a Pi);
the fork server is a clean interpreter that imports the engine once (`PRELOAD`) and forks each
worker from that, so a worker starts in milliseconds and shares the engine's pages with it.
"""

from __future__ import annotations

import logging
import multiprocessing
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from engine.ai.parts import PartJob
from engine.measure import peak_rss_of

R = TypeVar("R")

log = logging.getLogger(__name__)

#: The modules the fork server imports before forking any worker.
PRELOAD = ["engine.ai.pool", "engine.ai.bots"]

#: Dead workers a pool replaces in its life; past that it searches with the ones left.
MAX_RESTARTS = 3

#: How long this process waits for a worker's part before computing it itself: this many of
#: its own mean part times (plus `PATIENCE_MIN_S`).
PATIENCE_PARTS = 2.0
PATIENCE_MIN_S = 0.002

#: How long `close` waits for a worker to exit before killing it.
CLOSE_SECONDS = 2.0

_TASK, _STOP, _CLOSE, _RESULT, _ERROR = "task", "stop", "close", "result", "error"


def _context() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


def _serve(conn: Connection) -> None:
    """A worker's loop: a task, then its parts one by one (checking for a stop between them),
    until the pipe closes or a `close` comes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    searchers: dict[bytes, Any] = {}
    pending: Any = None
    while True:
        try:
            message = pending if pending is not None else conn.recv()
        except (EOFError, OSError):
            return
        pending = None
        if message[0] == _CLOSE:
            return
        if message[0] != _TASK:
            continue  # a stop for a decision already over
        _, decision, job, first, step, planned = message
        try:
            key = pickle.dumps(job.factory)
            searcher = searchers.get(key)
            if searcher is None:
                searcher = searchers[key] = job.factory()
            searcher.prepare(job.observation)
            for index in range(first, planned, step):
                if conn.poll():
                    news = conn.recv()
                    if not (news[0] == _STOP and news[1] == decision):
                        pending = news  # the next task (or close) came first
                    break
                conn.send((_RESULT, decision, index, job.evaluate(searcher, index)))
        except (EOFError, OSError):
            return
        except Exception as exc:  # the parent computes these parts itself (and may raise)
            try:
                conn.send((_ERROR, decision, repr(exc)))
            except OSError:
                return


class _Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, ctx: Any, number: int) -> None:
        self.number = number
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_serve, args=(child,), daemon=True,
                                   name=f"parlor-search-{number}")
        self.process.start()
        child.close()
        self.alive = True
        self.excused = 0  # the decision whose parts it will not deliver (it reported an error)

    @property
    def pid(self) -> int:
        return int(self.process.pid or 0)

    def send(self, message: tuple) -> bool:
        if not self.alive:
            return False
        try:
            self.conn.send(message)
            return True
        except OSError:
            self.died()
            return False

    def died(self) -> None:
        if self.alive:
            self.alive = False
            self.process.join(0.1)
            log.warning("search worker %d (pid %d) died (exit code %s): its parts are searched "
                        "in the bot's own process", self.number, self.pid,
                        self.process.exitcode)

    def stop(self) -> None:
        """End the process: `close` asked, then terminate and kill if it does not go."""
        if self.alive:
            self.send((_CLOSE,))
        self.alive = False
        self.process.join(CLOSE_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(CLOSE_SECONDS)
        self.conn.close()


class SearchPool:
    """This process plus `size - 1` worker processes that compute search parts (see the module
    docstring); a context manager, or `close()` when the table closes.

    With `wait=False` the workers start in a background thread (the first start of the fork
    server imports the engine: about a second here, more on a Pi) and each decision uses those
    already up, so the table's first decisions are not held up."""

    def __init__(self, size: int, wait: bool = True) -> None:
        self.size = max(1, int(size))
        self._ctx = _context() if self.size > 1 else None
        self._workers: list[_Worker] = []
        self._lock = threading.Lock()
        self._decision = 0
        self.restarts = 0
        self.closed = False
        self._starter: threading.Thread | None = None
        if wait:
            self._start_workers()
        elif self.size > 1:
            self._starter = threading.Thread(target=self._start_workers, daemon=True,
                                             name="parlor-search-start")
            self._starter.start()

    def _start_workers(self) -> None:
        for number in range(1, self.size):
            if self.closed:
                return
            try:
                worker = _Worker(self._ctx, number)
            except (OSError, RuntimeError) as exc:
                log.warning("search worker %d could not start (%s): searching with %d "
                            "process(es)", number, exc, number)
                return
            with self._lock:
                closed = self.closed
                if not closed:
                    self._workers.append(worker)
            if closed:
                worker.stop()
                return

    @property
    def started(self) -> bool:
        """Every worker has been started (always, unless made with `wait=False`)."""
        return self._starter is None or not self._starter.is_alive()

    def __enter__(self) -> SearchPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (empty for size 1)."""
        with self._lock:
            return [w.pid for w in self._workers]

    def peak_rss_mb(self) -> list[float]:
        """Each worker's peak resident memory (VmHWM) in MiB, NaN where it cannot be read."""
        return [peak_rss_of(pid) for pid in self.pids]

    def _replace_dead(self) -> None:
        for i, worker in enumerate(self._workers):
            if worker.alive and worker.process.exitcode is not None:
                worker.died()
            if not worker.alive and self.restarts < MAX_RESTARTS:
                worker.stop()
                self.restarts += 1
                self._workers[i] = _Worker(self._ctx, worker.number)
                log.warning("search worker %d restarted (pid %d)", worker.number,
                            self._workers[i].pid)

    def parts(self, job: PartJob[R], planned: int, local: Callable[[int], R]) -> Iterator[R]:
        """Parts 0..planned-1 of `job` in index order, computed by the workers and, with
        `local`, here; closing the iterator early tells the workers to stop."""
        if self.closed:
            raise RuntimeError("the search pool is closed")
        if self.started:
            self._replace_dead()
        self._decision += 1
        decision = self._decision
        with self._lock:
            workers = list(self._workers)
        for worker in workers:
            self._drain(worker, decision, {})
        live = [w for w in workers if w.alive]
        step = len(live) + 1
        for j, worker in enumerate(live, 1):
            if j < planned:
                worker.send((_TASK, decision, job, j, step, planned))
        got: dict[int, R] = {}
        own = 0  # the next of this process's own parts (0, step, 2 step, ...) not yet done
        spent, done = 0.0, 0  # this process's part times, for the patience
        try:
            for index in range(planned):
                while index not in got:
                    for worker in live:
                        self._drain(worker, decision, got)
                    if index in got:
                        break
                    owner = live[index % step - 1] if index % step else None
                    if owner is None or not owner.alive or owner.excused == decision:
                        target = own if owner is None else index
                    elif own < planned:
                        target = own  # work ahead on this process's share meanwhile
                    else:
                        patience = PATIENCE_PARTS * spent / max(1, done) + PATIENCE_MIN_S
                        if wait([owner.conn], patience):
                            continue
                        target = index  # the worker is slow: compute it here
                    started = time.perf_counter()
                    got[target] = local(target)
                    spent += time.perf_counter() - started
                    done += 1
                    if target == own:
                        own += step
                yield got.pop(index)
        finally:
            for worker in live:
                if worker.alive and worker.excused != decision:
                    worker.send((_STOP, decision))

    def _drain(self, worker: _Worker, decision: int, got: dict[int, Any]) -> None:
        """Take every message `worker` has sent (without waiting): results of `decision` into
        `got`, older ones dropped; a closed pipe marks it dead."""
        if not worker.alive:
            return
        try:
            while worker.conn.poll():
                message = worker.conn.recv()
                if message[1] != decision:
                    continue
                if message[0] == _RESULT:
                    got.setdefault(message[2], message[3])
                elif message[0] == _ERROR:
                    worker.excused = decision
                    log.warning("search worker %d failed on a part (%s): searching its parts "
                                "here", worker.number, message[2])
        except (EOFError, OSError):
            worker.died()

    def close(self) -> None:
        """Stop every worker (asked, then killed if need be); idempotent."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            workers = list(self._workers)
        for worker in workers:
            worker.stop()
