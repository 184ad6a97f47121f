"""The whole app in its own process (issue 9, items 3-4): READY/WATCHDOG from the UI loop,
SIGTERM saves and exits 0, and `--selftest` renders the home screen. Offscreen SDL, no display."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.store import SqliteStore
from engine.session import Session
from tests.device.apprun import start_until_ready_then_stop

pytestmark = pytest.mark.slow


def app_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "KIVY_"))}
    env.pop("DISPLAY", None)
    env.update({
        "SDL_VIDEODRIVER": "offscreen",
        "PARLOR_DATA_DIR": str(tmp_path / "data"),
        "PARLOR_CONFIG": str(tmp_path / "config.toml"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
    })
    env.update(extra)
    return env


def test_app_notifies_systemd_and_sigterm_keeps_the_game_and_exits_0(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[game]\nlanguage = 'fr'\n[display]\nrotation = 45\n")
    db = tmp_path / "data" / "parlor.db"
    store = SqliteStore(db)
    session = Session.new("meri", 5, save=store.save_autosave)
    state = session.state
    session.apply(state.legal_actions()[0])
    saved = store.load_autosave()
    store.close()

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify.sock"))
    sock.settimeout(60)
    env = app_env(tmp_path, NOTIFY_SOCKET=str(tmp_path / "notify.sock"),
                  WATCHDOG_USEC="2000000")
    proc = subprocess.Popen([sys.executable, "-m", "device"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        try:
            messages = [sock.recv(4096).decode() for _ in range(3)]
        except TimeoutError:
            proc.kill()
            raise AssertionError("no notify message: " + proc.communicate()[1][-3000:]) from None
        assert messages[0].startswith("STATUS=starting")
        assert messages[1].startswith("READY=1")
        assert messages[2] == "WATCHDOG=1"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the watchdog keeps coming from the UI loop
            if sock.recv(4096).decode() == "WATCHDOG=1":
                break
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        after = []  # a heartbeat already in flight when SIGTERM came may precede STOPPING
        sock.settimeout(0.5)
        try:
            while True:
                after.append(sock.recv(4096).decode())
        except TimeoutError:
            pass
        assert [m for m in after if m != "WATCHDOG=1"] == ["STOPPING=1"], after
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert proc.returncode == 0, err
    assert "received SIGTERM: stopping" in err and "stopped cleanly" in err
    assert "config: " + str(tmp_path / "config.toml") + ": display.rotation: must be one of" in err
    assert "Traceback" not in err
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT data FROM autosave").fetchone()[0] == saved
    conn.close()


def test_selftest_renders_the_home_screen(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "device", "--selftest"],
                          env=app_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("selftest: OK: home screen rendered 800x480")
    assert not (tmp_path / "data").exists()  # the player's data is never touched


@pytest.mark.parametrize("damage", ["corrupt database", "foreign file",
                                    "unusable data directory"])
def test_app_starts_anyway_with_broken_data(tmp_path: Path, damage: str) -> None:
    """Never a crash loop: a corrupt Parlor database is moved aside, a file that is not Parlor's
    is left untouched (issue 18), an unusable directory is logged."""
    data = tmp_path / "data"
    if damage == "corrupt database":
        SqliteStore(data / "parlor.db").close()
        damaged = bytearray((data / "parlor.db").read_bytes())
        damaged[100:] = b"\x00garbage" * ((len(damaged) - 100) // 8) + b"\x00" * (
            (len(damaged) - 100) % 8)
        (data / "parlor.db").write_bytes(bytes(damaged))
        expect = "is not a usable database"
    elif damage == "foreign file":
        data.mkdir()
        (data / "parlor.db").write_bytes(b"\x00garbage" * 512)
        expect = "not an SQLite database"
    else:
        data.write_text("a file where the data directory should be")
        expect = "the saved game will not be kept"
    status, err = start_until_ready_then_stop(app_env(tmp_path), tmp_path)
    assert status == 0, err
    assert expect in err and "Traceback" not in err
    if damage == "corrupt database":
        assert [p.name.startswith("parlor.db.corrupt-") for p in data.iterdir()].count(True) == 1
        conn = sqlite3.connect(data / "parlor.db")
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    if damage == "foreign file":
        assert sorted(p.name for p in data.iterdir() if p.name.startswith("parlor")) == [
            "parlor.db"]
        assert (data / "parlor.db").read_bytes() == b"\x00garbage" * 512
