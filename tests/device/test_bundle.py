"""PyInstaller bundle (issue 9, item 6): `parlor.spec` builds a one-folder app whose --version,
--selftest (home screen rendered offscreen), simulate and loop:// serial port work frozen.

Slow (about a minute): built once per session into a temporary directory.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None,
                       reason="PyInstaller is not installed (pip install -e '.[bundle]')"),
]


def frozen_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "KIVY_"))}
    env.pop("DISPLAY", None)
    env.update({"SDL_VIDEODRIVER": "offscreen", "PARLOR_DATA_DIR": str(tmp / "data"),
                "PARLOR_CONFIG": str(tmp / "config.toml")})
    return env


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("bundle")
    env = dict(os.environ, KIVY_HOME=str(work / "kivy-home"), KIVY_NO_FILELOG="1",
               KIVY_NO_CONSOLELOG="1", KIVY_LOG_MODE="PYTHON", KIVY_NO_ARGS="1")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--distpath", str(work / "dist"), "--workpath", str(work / "build"),
         str(REPO / "parlor.spec")],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    exe = work / "dist" / "parlor" / "parlor"
    assert exe.is_file() and os.access(exe, os.X_OK)
    size = sum(f.stat().st_size for f in exe.parent.rglob("*") if f.is_file())
    print(f"\nbundle: built in {time.monotonic() - started:.0f} s, {size / 1e6:.0f} MB")
    return exe


def test_bundle_version(bundle: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(bundle), "--version"], capture_output=True, text=True,
                          env=frozen_env(tmp_path), timeout=60)
    assert done.returncode == 0 and done.stdout.strip().startswith("parlor 0.")


def test_bundle_selftest_renders_the_home_screen(bundle: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(bundle), "--selftest"], capture_output=True, text=True,
                          env=frozen_env(tmp_path), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert done.stdout.startswith("selftest: OK: home screen rendered")


def test_bundle_finds_games_pin_factories_serial_handlers_and_the_unit(bundle: Path,
                                                                       tmp_path: Path) -> None:
    """The frozen gotchas: registry imports by name, gpiozero entry points, pyserial URLs."""
    env = frozen_env(tmp_path)
    sim = subprocess.run([str(bundle), "simulate", "meri", "--deals", "1", "--bots", "random"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert sim.returncode == 0 and "standings:" in sim.stdout, sim.stderr[-2000:]
    (tmp_path / "config.toml").write_text(
        "[input.gpio]\nenabled = true\npin_factory = 'mock'\n"
        "[input.serial]\nenabled = true\nport = 'loop://'\n")
    doc = subprocess.run([str(bundle), "doctor"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert "OK   pin factory: mock -> MockFactory" in doc.stdout, doc.stdout + doc.stderr
    assert "OK   serial port: loop:// at 115200 baud opens" in doc.stdout
    unit = subprocess.run([str(bundle), "install-service", "--dry-run"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert unit.returncode == 0, unit.stderr
    assert f"ExecStart={bundle}" in unit.stdout
