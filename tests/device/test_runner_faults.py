"""Issue 18, part 3 (runner side): `parlor simulate --autosave` never reports a save that failed
and exits non-zero if any did — with a store failing its Nth write, and with a real disk limit
(`RLIMIT_FSIZE` in a child process: no root needed)."""

from __future__ import annotations

import io
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device import runner
from device.store import SqliteStore

from .test_store_faults import FailingConnection

GAME, SEED = "meri", 4


def test_failed_saves_are_not_reported_and_the_run_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    store._conn = FailingConnection(store._conn, after=10)  # type: ignore[assignment]
    out = io.StringIO()
    status = runner.run(store, GAME, SEED, 1, out=out)
    saved = [line for line in out.getvalue().splitlines() if line.startswith("saved ")]
    assert len(saved) == 10  # the first ten writes reached the disk, nothing after
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "error: not saved: the disk is full"
    assert any(line.endswith(" saves failed") for line in err)
    assert status == 1
    store._conn.failing = False  # type: ignore[attr-defined]
    store.close()


def test_saving_that_recovers_is_reported_again(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    failing = FailingConnection(store._conn, after=3)
    store._conn = failing  # type: ignore[assignment]
    real_save = store.save_autosave

    def save(data: str):  # the disk frees up after a few failures
        result = real_save(data)
        if failing.writes > 6:
            failing.failing = False
        return result

    store.save_autosave = save  # type: ignore[method-assign]
    out = io.StringIO()
    assert runner.run(store, GAME, SEED, 1, out=out) == 1
    saved = sum(line.startswith("saved ") for line in out.getvalue().splitlines())
    err = capsys.readouterr().err
    assert "note: saving works again" in err
    summary = next(line for line in err.splitlines() if line.endswith(" saves failed"))
    failed, total = int(summary.split()[1]), int(summary.split()[3])
    assert (failed, saved) == (4, total - 4)
    store.close()


def limited_child(limit: int) -> None:
    """In the child before exec: writes past `limit` bytes fail with EFBIG (not SIGXFSZ)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_full_disk_in_a_child_process(tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    command = [sys.executable, "-m", "device", "simulate", GAME, "--autosave", "--db", str(db),
               "--seed", str(SEED), "--deals", "2"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env,
                          preexec_fn=lambda: limited_child(320 * 1024))
    assert done.returncode == 1, done.stderr
    # EFBIG is SQLite's "disk I/O error" (ENOSPC would be "database or disk is full")
    assert "error: not saved: the disk could not be written" in done.stderr
    saved = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("saved ")]
    assert saved  # some saves fitted
    conn = sqlite3.connect(db)
    on_disk = conn.execute("SELECT data FROM autosave").fetchone()[0]
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert runner.digest(on_disk) == saved[-1]  # what was last reported is what is there
