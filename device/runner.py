"""The headless autosaving runner: bots play a match through the same store and `Session` as the app.

`parlor simulate GAME --autosave` resumes the saved game from the store if there is one (else
starts a match from `--seed`), lets bots decide every seat, and saves after every action exactly
as the app does. Each decision's bot is seeded from (seed, deal, action index), so a run that is
killed and restarted any number of times plays the same game as one that never stopped: that is
what the kill test checks. It prints `saved DIGEST` after every save that reached the disk (a
fingerprint of the JSON there), so a test knows what was saved before it killed the process; a
save that failed is never reported as saved: it is said once on stderr (and again only when the
problem changes), retried with the next action, and the run exits 1 if any save failed. A saved
game that does not restore is set aside in the store (as the app does) and a new match starts.
SIGTERM finishes the current save and exits 0. No kivy, no hardware: it starts in a fraction of
a second.
"""

from __future__ import annotations

import hashlib
import signal
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from engine.ai.bots import make_bot
from engine.session import Session
from ui.resume import resume_saved


def digest(text: str) -> str:
    """A short fingerprint of a saved session (what the kill test compares)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def decision_seed(seed: int, deal: int, index: int) -> int:
    """The seed of the bot that makes decision `index` of deal `deal` (stable across restarts)."""
    return (seed * 1_000_003 + deal * 10_007 + index) % (2**63)


class SaveLog:
    """Every save's outcome: `saved DIGEST` on `out` for the good ones, failures on `err`."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.saves = 0
        self.failures = 0
        self.problem = ""

    def __call__(self, data: str, result: Any) -> None:
        self.saves += 1
        if result is None or result:  # older stores return None: it raised if it failed
            print(f"saved {digest(data)}", file=self.out, flush=True)  # only once it is on disk
            if self.problem:
                print("note: saving works again", file=self.err, flush=True)
            self.problem = ""
            return
        self.failures += 1
        problem = getattr(result, "problem", "") or "the save failed"
        if problem != self.problem:
            print(f"error: not saved: {problem}", file=self.err, flush=True)
        self.problem = problem


class Stop:
    """Set by SIGTERM/SIGINT; the loop stops between two saved actions."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, _frame: Any) -> None:
        self.requested = True


def run(
    store: Any,
    game: str,
    seed: int,
    deals: int,
    bots: str = "random",
    delay: float = 0.0,
    out: TextIO = sys.stdout,
    stop: Stop | None = None,
) -> int:
    """Play until `deals` deals of the match are finished (or the match ends).

    Returns 0, or 1 if any save failed, or 2 if the saved game is of another game.
    """
    stop = stop or Stop()
    saves = SaveLog(out, sys.stderr)

    def save(data: str) -> None:
        saves(data, store.save_autosave(data))

    text = store.load_autosave()
    if text is not None:
        print(f"resuming {digest(text)}", file=out, flush=True)
    resumed = resume_saved(store, save=save)
    session = resumed.session
    if resumed.problem:
        print(f"error: the saved game could not be restored ({resumed.problem}); it was set "
              "aside and a new match starts", file=sys.stderr, flush=True)
    if session is not None and session.game.name != game:
        print(f"error: the saved game is {session.game.name}, not {game}", file=sys.stderr)
        return 2
    if session is None:
        print(f"starting {game} {seed}", file=out, flush=True)
        session = Session.new(game, seed, save=save)
    kinds = [k.strip() for k in bots.split(",") if k.strip()] or ["random"]
    if len(kinds) == 1:
        kinds = kinds * session.game.players
    while not stop.requested:
        state = session.state
        if state.is_over:
            session.finish_deal()
            if session.deals_done >= deals or session.match.is_over:
                break
            session.next_deal()
            continue
        seat = state.to_act
        index = len(session.record.actions)
        bot = make_bot(session.game.name, kinds[seat], decision_seed(seed, session.deals_done, index))
        action = bot.choose(state.observation(seat), state.legal_actions())
        session.apply(action)
        if delay:
            time.sleep(delay)
    status = _failed(saves)
    if stop.requested:
        print("stopped", file=out, flush=True)
        return status
    print(f"final {session.to_json()}", file=out, flush=True)
    cleared = store.clear_autosave()
    if cleared is not None and not cleared:
        print(f"error: the finished game could not be cleared: {cleared.problem}",
              file=sys.stderr)
        return 1
    return status


def _failed(saves: SaveLog) -> int:
    """1 (with a summary line) if any save failed, else 0."""
    if not saves.failures:
        return 0
    print(f"error: {saves.failures} of {saves.saves} saves failed", file=sys.stderr, flush=True)
    return 1


def main(db: Path, game: str, seed: int, deals: int, bots: str, delay: float) -> int:
    """`parlor simulate GAME --autosave`: open the store, handle signals, run."""
    from device.store import SqliteStore, StoreUnavailable

    stop = Stop()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        store = SqliteStore(db)
    except StoreUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return run(store, game, seed, deals, bots=bots, delay=delay, stop=stop)
    finally:
        store.close()
