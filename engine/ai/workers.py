"""How many processes search one AI decision: config `ai.workers` resolved for this machine.

Its own light module (only `os`), because the composition root resolves it at start-up and must
not pull the search and `multiprocessing` into the app's start for that (`engine.ai.pool` starts
the processes).
"""

from __future__ import annotations

import os

__all__ = ["worker_count"]


def worker_count(setting: int | str, cores: int | None = None) -> int:
    """The searching processes for config `ai.workers`: an integer as given (at least 1), or
    "auto" for the machine's cores minus one (the UI's), at least 1 (1 = in-process only)."""
    if setting == "auto":
        cores = cores if cores is not None else (os.cpu_count() or 1)
        return max(1, cores - 1)
    if isinstance(setting, bool) or not isinstance(setting, int):
        raise ValueError(f"workers must be a positive integer or 'auto', not {setting!r}")
    return max(1, setting)
