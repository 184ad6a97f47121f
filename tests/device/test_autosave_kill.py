"""Power-cut safety (issue 9, item 2): SIGKILL the headless runner 50 times mid-game.

The runner (`parlor simulate meri --autosave`) saves the session through the SQLite store after
every action and prints `saved DIGEST` once each save returned. After every kill the database
must pass `PRAGMA integrity_check` and hold either the last printed save or the one just after
it (killed between the save and the print); the restart must resume exactly that save; and the
game played across 50 kills must end identical to one never interrupted.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device import runner
from device.store import SqliteStore
from engine.session import Session
from ui.ports import MemoryStore

GAME, SEED, DEALS = "meri", 11, 8
KILLS = 50


class RecordingStore:
    """Collects every text saved (the reference sequence of an uninterrupted run)."""

    def __init__(self) -> None:
        self.saves: list[str] = []
        self.autosave: str | None = None

    def load_autosave(self) -> str | None:
        return self.autosave

    def save_autosave(self, data: str) -> None:
        self.saves.append(data)
        self.autosave = data

    def clear_autosave(self) -> None:
        self.autosave = None


def command(db: Path, delay: float) -> list[str]:
    return [sys.executable, "-m", "device", "simulate", GAME, "--autosave", "--db", str(db),
            "--seed", str(SEED), "--deals", str(DEALS), "--delay", str(delay)]


def saved_on_disk(db: Path) -> str | None:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if "autosave" not in tables:  # killed before the first migration committed
            assert tables == set() and conn.execute("PRAGMA user_version").fetchone()[0] == 0
            return None
        row = conn.execute("SELECT data FROM autosave").fetchone()
    finally:
        conn.close()
    return None if row is None else row[0]


def rest_of_output(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """What the ended process still had for us, stdout and stderr, read through the pipes' text
    buffers: `communicate()` reads the file descriptors beneath them, and so loses the lines an
    earlier `readline()` had already read ahead (on a loaded machine, a "saved" line or two:
    the disk then looked two saves ahead of the last one printed)."""
    assert proc.stdout is not None and proc.stderr is not None
    proc.wait(timeout=30)
    return proc.stdout.read(), proc.stderr.read()


@pytest.fixture(scope="module")
def reference() -> tuple[list[str], str]:
    import io

    store = RecordingStore()
    out = io.StringIO()
    assert runner.run(store, GAME, SEED, DEALS, out=out) == 0
    final = out.getvalue().splitlines()[-1]
    assert final.startswith("final ")
    assert len(set(store.saves)) == len(store.saves), "every save differs from the one before"
    return store.saves, final


def test_sigkill_50_times_resumes_at_the_last_saved_action(tmp_path: Path,
                                                          reference: tuple[list[str], str]) -> None:
    saves, final = reference
    index = {runner.digest(text): i for i, text in enumerate(saves)}
    db = tmp_path / "parlor.db"
    rng = random.Random(9)
    on_disk = -1  # index in `saves` of what the database holds; -1 = nothing yet
    moments = []
    for kill in range(KILLS):
        proc = subprocess.Popen(command(db, delay=0.02), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        # Every third kill counts from the spawn (it may hit start-up or the resume itself);
        # the others from the first line, so a slow start-up on a busy machine still leaves
        # most kills in the middle of play.
        assert proc.stdout is not None
        first = ""
        if kill % 3:
            first = proc.stdout.readline()
        moment = rng.uniform(0.0, 0.3)
        time.sleep(moment)
        proc.send_signal(signal.SIGKILL)
        out, err = rest_of_output(proc)
        out = first + out
        assert proc.returncode == -signal.SIGKILL, f"kill {kill}: ended by itself: {err}"
        lines = out.splitlines()
        assert not any(line.startswith("final") for line in lines), "the game ended too early"
        resumed = [line.split()[1] for line in lines if line.startswith("resuming ")]
        if on_disk >= 0 and lines:
            assert resumed == [runner.digest(saves[on_disk])], f"kill {kill}: wrong resume"
        printed = [index[line.split()[1]] for line in lines if line.startswith("saved ")]
        last_printed = printed[-1] if printed else on_disk
        assert printed == sorted(printed), f"kill {kill}: saves out of order"
        text = saved_on_disk(db)
        now = -1 if text is None else index.get(runner.digest(text))
        assert now is not None, f"kill {kill}: the database holds a session no run passes through"
        assert now in (last_printed, last_printed + 1), (
            f"kill {kill} after {moment:.3f}s: disk has save {now}, last printed {last_printed}")
        on_disk = now
        moments.append(now)
    # Kills that land before any new save leave the position unchanged; most advance it.
    assert len(set(moments)) > KILLS // 4, "kills should land at many different moments"
    assert 0 < on_disk < len(saves) - 1

    done = subprocess.run(command(db, delay=0.0), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"resuming {runner.digest(saves[on_disk])}"
    assert lines[-1] == final
    tail = [index[line.split()[1]] for line in lines if line.startswith("saved ")]
    assert tail == list(range(on_disk, len(saves)))
    store = SqliteStore(db)
    assert store.load_autosave() is None and store.integrity_check() == "ok"
    store.close()


def test_sigterm_saves_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    proc = subprocess.Popen(command(db, delay=0.01), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    assert proc.stdout is not None
    seen = 0
    while seen < 5 and time.monotonic() < deadline:  # let it play a few actions
        seen += proc.stdout.readline().startswith("saved ")
    proc.send_signal(signal.SIGTERM)
    rest, err = rest_of_output(proc)
    assert proc.returncode == 0, err
    lines = rest.splitlines()
    assert lines[-1] == "stopped"
    last = [line.split()[1] for line in lines if line.startswith("saved ")]
    text = saved_on_disk(db)
    assert text is not None and json.loads(text)["game"] == GAME
    if last:
        assert runner.digest(text) == last[-1]
    assert not Path(f"{db}-wal").exists() or os.path.getsize(f"{db}-wal") == 0  # checkpointed


def test_runner_sets_aside_a_saved_game_that_does_not_restore(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: an unparsable save used to make every start exit 2; now it is kept aside once
    and a new match is played."""
    store = MemoryStore()
    bad = json.dumps({"format": 1, "game": "meri", "match": {}, "record": {}})
    store.save_autosave(bad)
    assert runner.run(store, GAME, SEED, 1) == 0
    err = capsys.readouterr().err
    assert err.startswith("error: the saved game could not be restored (")
    assert [text for text, _why in store.set_aside] == [bad]
    assert runner.run(store, GAME, SEED, 1) == 0  # nothing offered again
    assert capsys.readouterr().err == ""


def test_runner_refuses_a_saved_game_of_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    store = MemoryStore()
    Session.new("chan", 3, save=store.save_autosave)
    assert runner.run(store, GAME, SEED, 1) == 2
    assert capsys.readouterr().err.startswith("error: the saved game is chan, not meri")


def test_decision_seed_is_stable() -> None:
    assert runner.decision_seed(11, 2, 5) == 11 * 1_000_003 + 2 * 10_007 + 5
