"""The arena's deal log (`python -m engine arena ... --out FILE.jsonl`): one JSON line per finished
duplicate deal, written as each deal finishes, so that a run cut short (a deadline, a power cut)
still has every finished deal, and the same command run again plays only the deals missing.

The first line names the run (`{"arena": 1, "game": ..., "a": ..., "b": ..., "seed": ...}`); every
other line is one deal (`{"index": i, "metrics": {...}, "ms_a": [...], "ms_b": [...]}`). A file
that is not such a log, or the log of another run, is refused with one line and left untouched;
a last line cut off mid-write is dropped (the log is the arena's own file). Job processes append
to it each through their own descriptor; a line is written with one `write` under an exclusive
`flock`, so lines never interleave.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

from engine.ai.tools import jsonl
from engine.errors import EngineError

FORMAT = 1


class ArenaLogError(EngineError):
    """The log file cannot be used for this run (one line, for the user)."""


def header(game: str, kind_a: str, kind_b: str, seed: int) -> dict[str, Any]:
    """The first line of the log of the run (game, A, B, seed)."""
    return {"arena": FORMAT, "game": game, "a": kind_a, "b": kind_b, "seed": seed}


def open_log(path: Path, run: dict[str, Any]) -> list[dict[str, Any]]:
    """Make `path` the log of `run` (created with its header if absent) and return the deals it
    already holds, in file order; raise `ArenaLogError` if it is not this run's log."""
    if not path.exists():
        try:
            jsonl.create(path, run)
        except OSError as exc:
            raise ArenaLogError(f"cannot create the arena log {path}: {exc.strerror}") from exc
        return []
    lines = _parse(path, ": give --out a new file name")
    first = lines.header
    if {k: first.get(k) for k in run} != run:
        raise ArenaLogError(f"{path} is the log of another run ({first.get('game')} "
                            f"{first.get('a')} vs {first.get('b')}, seed {first.get('seed')})")
    jsonl.drop_cut_line(path, lines)  # the last line, cut off mid-write
    return lines.items


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run header and the deals of the log at `path`, read only (a last line cut off
    mid-write, or being written by a running arena, is left out and left in place); raise
    `ArenaLogError` if it is missing or not an arena log."""
    if not path.exists():
        raise ArenaLogError(f"{path} does not exist")
    lines = _parse(path, "")
    return lines.header, lines.items


def _parse(path: Path, hint: str) -> jsonl.Lines[dict[str, Any]]:
    """The header, the whole deals, where the whole lines end and whether a last line was cut
    off mid-write; raise `ArenaLogError` (ending with `hint`) for a file that is not an arena
    log."""
    try:
        return jsonl.read_lines(path, lambda first: isinstance(first, dict)
                                and first.get("arena") == FORMAT, _check)
    except OSError as exc:
        raise ArenaLogError(f"cannot read the arena log {path}: {exc.strerror}") from exc
    except jsonl.NotALog:
        raise ArenaLogError(f"{path} is not an arena log{hint}") from None
    except jsonl.BadLine as exc:
        raise ArenaLogError(f"{path}, line {exc.number}: not a deal of an arena log") from exc


def _check(deal: Any) -> dict[str, Any]:
    """`deal`, or raise if it is not a deal line (index, metrics, both sides' decision times)."""
    if not isinstance(deal["index"], int) or not isinstance(deal["metrics"], dict):
        raise TypeError("not a deal")
    for key in ("ms_a", "ms_b"):
        if not isinstance(deal[key], list):
            raise TypeError("not a deal")
    return deal


def append(path: Path, deal: dict[str, Any]) -> None:
    """Append one finished deal to the log (one line, one write, under an exclusive lock)."""
    data = (json.dumps(deal, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, data)
    finally:
        os.close(fd)
