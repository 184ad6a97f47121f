"""Issue 18, part 8: one byte-order-mark policy for records in `python -m engine replay` and
`parlor replay --print`; `--selftest` reports the real config and store and leaves no folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.store import SCHEMA_VERSION, SqliteStore

from .test_app_lifecycle import app_env

RECORD = {"game": "tractor", "seed": 9, "actions": []}


def both(args: list[str], stdin: bytes | None = None) -> list[subprocess.CompletedProcess]:
    commands = [[sys.executable, "-m", "engine", "replay", *args],
                [sys.executable, "-m", "device", "replay", *args, "--print"]]
    return [subprocess.run(c, input=stdin, capture_output=True, timeout=60) for c in commands]


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("where", ["file", "stdin"])
def test_both_replay_commands_treat_a_byte_order_mark_alike(tmp_path: Path, bom: bytes,
                                                            where: str) -> None:
    """Before issue 18 `parlor replay --print` refused a record that the engine accepted."""
    data = bom + json.dumps(RECORD).encode()
    if where == "file":
        path = tmp_path / "r.json"
        path.write_bytes(data)
        engine, parlor = both([str(path)])
    else:
        engine, parlor = both(["-"], stdin=data)
    assert engine.returncode == parlor.returncode == 0, parlor.stderr
    assert json.loads(engine.stdout) == json.loads(parlor.stdout)


def test_selftest_reports_config_and_store_and_removes_its_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    SqliteStore(data / "parlor.db").close()
    (tmp_path / "config.toml").write_text("[display]\nrotation = 7\n")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    before = sorted(p.name for p in data.iterdir())
    env = app_env(tmp_path, TMPDIR=str(temporary))
    done = subprocess.run([sys.executable, "-m", "device", "--selftest"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("selftest: OK: home screen rendered")
    assert any(line.startswith("selftest: config: WARN 1 problem(s)") for line in lines), lines
    store_line = next(line for line in lines if line.startswith("selftest: store: "))
    assert store_line.startswith(f"selftest: store: OK {data / 'parlor.db'} (schema {SCHEMA_VERSION}")
    assert os.listdir(temporary) == []  # the throwaway Kivy home is gone
    assert sorted(p.name for p in data.iterdir()) == before  # nothing left beside the store
