"""`make pi-check` (scripts/pi_check.sh, issue 17 part 1) is slow, needs root and the package
registries, so it is not run here: these only check that the script parses, passes shellcheck
when that is installed, refuses a cache inside the repository before doing anything, that the
Makefile has the target, and that every docs block it runs is marked in docs/raspberry-pi.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "pi_check.sh"
DOCS = REPO / "docs" / "raspberry-pi.md"


def marked_blocks(text: str) -> dict[str, str]:
    """The shell block after each `<!-- pi-check: NAME -->` line, by NAME (as the script reads
    them: leading blanks ignored, the next fenced block)."""
    blocks: dict[str, str] = {}
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        found = re.fullmatch(r"<!-- pi-check: ([\w-]+) -->", line)
        if not found:
            continue
        assert lines[i + 1].startswith("```"), f"{found[1]}: no fenced block right after it"
        end = lines.index("```", i + 2)
        blocks[found[1]] = "\n".join(lines[i + 2:end])
    return blocks


def test_the_script_is_strict_bash_and_parses() -> None:
    text = SCRIPT.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert os.access(SCRIPT, os.X_OK)
    done = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_is_clean() -> None:
    done = subprocess.run(["shellcheck", "--shell=bash", str(SCRIPT)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_cache_inside_the_repository_is_refused_before_anything_runs(tmp_path: Path) -> None:
    env = dict(os.environ, PI_CHECK_CACHE=str(REPO / "build" / "pi-cache"))
    done = subprocess.run([str(SCRIPT)], capture_output=True, text=True, env=env, timeout=30,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "inside the repository" in done.stderr
    assert not (REPO / "build" / "pi-cache").exists()


def test_the_makefile_target_runs_the_script() -> None:
    assert re.search(r"^\.PHONY:.*\bpi-check\b", (REPO / "Makefile").read_text(), re.M)
    done = subprocess.run(["make", "-n", "-C", str(REPO), "pi-check"], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "scripts/pi_check.sh" in done.stdout


def test_every_docs_block_the_script_runs_is_marked_in_the_docs() -> None:
    script = SCRIPT.read_text()
    used = set()
    for call in re.findall(r"\b(?:run_doc|doc_script) ((?:[\w-]+ ?)+)", script):
        used.update(name for name in call.split() if name not in {"NAME"})
    used.discard("name")
    blocks = marked_blocks(DOCS.read_text())
    assert used == {"upgrade", "install", "install-debian", "doctor", "bundle"}
    assert used <= set(blocks), f"not marked in the docs: {used - set(blocks)}"
    assert "<your Parlor repository>" in blocks["install"]  # the script fills it in
    assert "python3-lgpio" not in blocks["install"]  # Raspberry Pi OS only: not on plain Debian
    assert "pip install lgpio" in blocks["install-debian"]


def test_the_docs_say_which_lgpio_line_is_for_which_system() -> None:
    text = DOCS.read_text()
    assert "sudo apt install -y python3-lgpio" in text
    assert "On Raspberry Pi OS" in text and "On plain Debian" in text
