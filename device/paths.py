"""Where Parlor keeps its data: the SQLite file and Kivy's home directory.

`[store] path` wins; otherwise `$PARLOR_DATA_DIR`, then systemd's `$STATE_DIRECTORY` (set by
`StateDirectory=`; the first entry if it lists several), then `$XDG_DATA_HOME/parlor`
(~/.local/share/parlor). The database is `parlor.db` in that directory.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DB_NAME = "parlor.db"


def data_dir(store_path: str = "", environ: Mapping[str, str] | None = None) -> Path:
    """The data directory (not created here)."""
    env = os.environ if environ is None else environ
    if store_path:
        return Path(store_path).expanduser().parent
    if env.get("PARLOR_DATA_DIR"):
        return Path(env["PARLOR_DATA_DIR"]).expanduser()
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "parlor"


def database_path(store_path: str = "", environ: Mapping[str, str] | None = None) -> Path:
    """The SQLite file: `[store] path`, or `parlor.db` in the data directory."""
    if store_path:
        return Path(store_path).expanduser()
    return data_dir("", environ) / DB_NAME


def nearest_folder(path: Path) -> Path:
    """The nearest existing folder holding `path` (its partition is where `path` will be)."""
    folder = path.parent
    while folder != folder.parent:
        try:
            if folder.is_dir():
                break
        except (OSError, ValueError):
            pass
        folder = folder.parent
    return folder
