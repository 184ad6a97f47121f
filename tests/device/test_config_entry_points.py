"""No config can stop Parlor (issue 18, part 1), through the real entry points: with
`PARLOR_CONFIG` naming each class of bad file the probe found, `parlor doctor`, `parlor
--selftest`, `parlor simulate --autosave` and the app itself start, run and say what was wrong
in one short line per key, never a traceback. Each runs in its own process (offscreen SDL, no
display) with a timeout; everything it writes is under the test's tmp folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.device.apprun import start_until_ready_then_stop

pytestmark = pytest.mark.slow

REPO = Path(__file__).parents[2]
LONGEST = 400  # characters of any config line an entry point prints

BAD: dict[str, tuple[bytes, str]] = {  # name: (file contents, what its line says)
    "deep nesting": (b"a = " + b"[" * 5000 + b"]" * 5000, "nested too deeply to read"),
    "an integer of 5000 digits": (b"[display]\nwidth = " + b"9" * 5000,
                                  "an integer of more than"),
    "huge numbers and a 1 MB value": (
        b"[display]\ndensity = " + b"9" * 400 + b"\nwidth = 0x" + b"f" * 4000
        + b"\n[game]\nlanguage = '" + b"x" * 1_000_000 + b"'\n",
        "… (1,000,000 characters)"),
    "100,000 unknown keys": (b"".join(b"k%d = 1\n" % i for i in range(100_000)),
                             "more problems like these, not listed"),
    "a store path with a NUL": (b'[store]\npath = "/x\\u0000y/parlor.db"\n',
                                "store.path: holds a NUL character"),
    "a store path under an unknown user": (b'[store]\npath = "~nosuchuser/parlor.db"\n',
                                           "store.path: names the home folder of an unknown"),
    "a relative store path": (b'[store]\npath = "parlor.db"\n',
                              "store.path: must be an absolute path"),
    "random bytes": (bytes(range(256)) * 8, "not UTF-8 text"),
}


def environment(tmp_path: Path, contents: bytes) -> dict[str, str]:
    config = tmp_path / "config.toml"
    config.write_bytes(contents)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "KIVY_"))}
    env.pop("DISPLAY", None)
    env.update({
        "SDL_VIDEODRIVER": "offscreen",
        "PARLOR_DATA_DIR": str(tmp_path / "data"),
        "PARLOR_CONFIG": str(config),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "HOME": str(tmp_path / "home"),
    })
    return env


def parlor(args: list[str], env: dict[str, str], cwd: Path,
           timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "device", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def said(output: str, config: Path, expect: str) -> None:
    """The output names the file and the problem on one short line, and holds no traceback."""
    assert "Traceback" not in output, output[-3000:]
    lines = [line for line in output.splitlines() if str(config) in line and expect in line]
    assert lines, output[-3000:]
    assert all(len(line) <= LONGEST for line in output.splitlines() if str(config) in line)


def no_stray_folders(cwd: Path) -> None:
    """Nothing was created relative to where Parlor was started (no `./~nosuchuser/`)."""
    assert sorted(p.name for p in cwd.iterdir()) == []


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """An empty folder the commands start in: the worktree's code is imported by PYTHONPATH."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    return folder


Env = Callable[[str], dict[str, str]]


@pytest.fixture
def env_for(tmp_path: Path) -> Env:
    """The environment for one bad file (written to tmp_path/config.toml)."""

    def make(case: str) -> dict[str, str]:
        env = environment(tmp_path, BAD[case][0])
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        return env
    return make


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_doctor_runs_and_reports_the_config_line(case: str, tmp_path: Path, cwd: Path,
                                                 env_for: Env) -> None:
    done = parlor(["doctor"], env_for(case), cwd)
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: no display here
    assert "WARN config:" in done.stdout
    said(done.stdout + done.stderr, tmp_path / "config.toml", BAD[case][1])
    assert "FAIL store" not in done.stdout  # the bad store path was refused: the default is used
    no_stray_folders(cwd)


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_selftest_renders_and_reports_the_config_line(case: str, tmp_path: Path, cwd: Path,
                                                      env_for: Env) -> None:
    done = parlor(["--selftest"], env_for(case), cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("selftest: OK: home screen rendered")
    assert "selftest: config: WARN" in done.stdout  # it counts the problems (doctor lists them)
    assert "not checked" not in done.stdout  # the config was read, no catch-all needed
    assert "Traceback" not in done.stdout + done.stderr
    assert all(len(line) <= LONGEST for line in done.stdout.splitlines())
    no_stray_folders(cwd)


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_simulate_autosave_plays_into_the_default_store(case: str, tmp_path: Path, cwd: Path,
                                                        env_for: Env) -> None:
    done = parlor(["simulate", "meri", "--autosave", "--deals", "1", "--bots", "random"],
                  env_for(case), cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "saved " in done.stdout
    said(done.stderr, tmp_path / "config.toml", BAD[case][1])
    assert (tmp_path / "data" / "parlor.db").is_file()  # the bad store path kept its default
    no_stray_folders(cwd)


@pytest.mark.parametrize("case", ["deep nesting", "huge numbers and a 1 MB value",
                                  "a store path under an unknown user"])
def test_the_app_starts_and_logs_the_config_line(case: str, tmp_path: Path, cwd: Path,
                                                 env_for: Env) -> None:
    status, err = start_until_ready_then_stop(env_for(case), tmp_path, cwd, wait=90)
    assert status == 0, err[-3000:]
    said(err, tmp_path / "config.toml", BAD[case][1])
    assert "stopped cleanly" in err
    assert (tmp_path / "data" / "parlor.db").is_file()
    no_stray_folders(cwd)
