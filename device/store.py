"""The SQLite store: statistics per game, settings changed in the app, and the game in progress.

One database file in the data directory, in WAL mode with `synchronous=FULL`. Why FULL and not
NORMAL: with WAL, NORMAL only syncs the log at checkpoints, so a power cut can roll back every
commit since the last one — many actions — while FULL syncs the log at each commit, so at most the
action being saved is lost. One fsync per player action is nothing at a card table's pace.

The schema version is `PRAGMA user_version`; `MIGRATIONS[n]` upgrades version n to n + 1 inside
one transaction. A database that cannot be read (not SQLite, malformed, failed `quick_check`, or a
newer schema than this program knows) is moved aside, next to its WAL and SHM files, with a logged
message, and a fresh one is created: a corrupt file never becomes a crash loop on a kiosk.
Implements `ui.ports.Store`; `close()` must be called on shutdown (SIGTERM skips `atexit`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATIONS: list[list[str]] = [
    [  # 0 -> 1: the first schema
        """CREATE TABLE stats (
            game TEXT PRIMARY KEY,
            deals INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            points INTEGER NOT NULL DEFAULT 0)""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE autosave (
            slot INTEGER PRIMARY KEY CHECK (slot = 1),
            data TEXT NOT NULL,
            saved_at REAL NOT NULL)""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
OUTCOMES = {"win": "wins", "loss": "losses", "draw": "draws"}


class StoreUnavailable(Exception):
    """The database file cannot be opened at all (permissions, missing directory, locked)."""


class CorruptDatabase(sqlite3.DatabaseError):
    """The file is there but is not a usable Parlor database."""


class SqliteStore:
    """`ui.ports.Store` over one SQLite file. Safe to call from several threads (one lock)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.moved_aside: Path | None = None  # where a corrupt database went, if one did
        self._conn = self._open_or_replace()

    # -- opening ------------------------------------------------------------------------------

    def _open_or_replace(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot create {self.path.parent}: {exc.strerror}") from None
        try:
            return self._open()
        except sqlite3.OperationalError as exc:
            if "unable to open" in str(exc) or "locked" in str(exc) or "readonly" in str(exc):
                raise StoreUnavailable(f"cannot open {self.path}: {exc}") from None
            problem = str(exc)
        except sqlite3.DatabaseError as exc:
            problem = str(exc)
        self.moved_aside = move_aside(self.path)
        log.error("store: %s is not a usable database (%s); moved it to %s and started a "
                  "fresh one", self.path, problem, self.moved_aside)
        return self._open()

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=5.0)
        try:
            # Check before changing anything, so a file moved aside is exactly what was found.
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise CorruptDatabase(f"quick_check: {check}")
            self._check_version(conn)
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                log.warning("store: journal mode is %s, not WAL", mode)
            conn.execute("PRAGMA synchronous=FULL")
            self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _check_version(conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise CorruptDatabase(f"schema version {version} is newer than this Parlor's "
                                  f"({SCHEMA_VERSION})")
        if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise CorruptDatabase("tables without a Parlor schema version")

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Apply `MIGRATIONS[version:]`, each in its own transaction with the version bump."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, SCHEMA_VERSION):
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number + 1}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            log.info("store: %s migrated to schema version %d", self.path, number + 1)

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def integrity_check(self) -> str:
        """`PRAGMA integrity_check`: "ok", or the first problem found."""
        with self._lock:
            return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        """Checkpoint the WAL into the database file and close it (idempotent)."""
        with self._lock:
            if self._conn is None:
                return
            try:
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.warning("store: checkpoint on close failed: %s", exc)
            self._conn.close()
            self._conn = None  # type: ignore[assignment]

    # -- one place for every statement: a lock, a transaction, recovery from corruption ------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _run(self, what: str, work: Callable[[sqlite3.Connection], T], fallback: T) -> T:
        """Run `work` in a transaction; on a database error log it, recover, and return `fallback`.

        A malformed database found while running is moved aside and replaced (then `work` is
        tried once more on the fresh one); any other error is logged, never raised into the UI.
        """
        with self._lock:
            if self._conn is None:
                log.error("store: %s after close", what)
                return fallback
            for attempt in (1, 2):
                try:
                    with self._transaction() as conn:
                        return work(conn)
                except sqlite3.OperationalError as exc:
                    log.error("store: %s failed: %s", what, exc)
                    return fallback
                except sqlite3.DatabaseError as exc:
                    log.error("store: %s failed on a damaged database: %s", what, exc)
                    if attempt == 2 or not self._replace_damaged():
                        return fallback
            return fallback

    def _replace_damaged(self) -> bool:
        """Move the damaged database aside and open a fresh one; False if even that fails."""
        self._conn.close()
        try:
            self.moved_aside = move_aside(self.path)
            self._conn = self._open()
        except (OSError, sqlite3.Error) as exc:
            log.error("store: cannot replace the damaged database: %s", exc)
            self._conn = sqlite3.connect(":memory:", isolation_level=None,
                                         check_same_thread=False)
            self._migrate(self._conn)
            return False
        log.error("store: moved the damaged database to %s and started a fresh one",
                  self.moved_aside)
        return True

    # -- ui.ports.Store -----------------------------------------------------------------------

    def load_autosave(self) -> str | None:
        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT data FROM autosave WHERE slot = 1").fetchone()
            return None if row is None else str(row[0])

        return self._run("loading the saved game", work, None)

    def save_autosave(self, data: str) -> None:
        if not isinstance(data, str):
            raise TypeError("the autosave is JSON text")

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR REPLACE INTO autosave (slot, data, saved_at) VALUES (1, ?, ?)",
                         (data, time.time()))

        self._run("saving the game", work, None)

    def clear_autosave(self) -> None:
        self._run("clearing the saved game",
                  lambda conn: conn.execute("DELETE FROM autosave"), None)

    def record_deal(
        self, game: str, outcome: str, points: int, autosave: str | None = None
    ) -> None:
        """Count a deal; with `autosave`, replace the saved game in the same transaction."""
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
        column = OUTCOMES[outcome]

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR IGNORE INTO stats (game) VALUES (?)", (game,))
            conn.execute(f"UPDATE stats SET deals = deals + 1, {column} = {column} + 1, "
                         "points = points + ? WHERE game = ?", (int(points), game))
            if autosave is not None:
                conn.execute("INSERT OR REPLACE INTO autosave (slot, data, saved_at) "
                             "VALUES (1, ?, ?)", (autosave, time.time()))

        self._run("recording a deal", work, None)

    def stats(self) -> dict[str, dict[str, int]]:
        def work(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
            rows = conn.execute("SELECT game, deals, wins, losses, draws, points FROM stats "
                                "ORDER BY game").fetchall()
            keys = ("deals", "wins", "losses", "draws", "points")
            return {row[0]: dict(zip(keys, row[1:], strict=True)) for row in rows}

        return self._run("reading statistics", work, {})

    def get_setting(self, key: str, default: Any = None) -> Any:
        def work(conn: sqlite3.Connection) -> Any:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
            if row is None:
                return default
            try:
                return json.loads(row[0])
            except ValueError:
                log.warning("store: setting %r is not JSON; using the default", key)
                return default

        return self._run(f"reading setting {key!r}", work, default)

    def set_setting(self, key: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False)  # TypeError for values JSON cannot hold

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, text))

        self._run(f"saving setting {key!r}", work, None)

    def settings(self) -> dict[str, Any]:
        """Every saved setting (for `parlor doctor` and tests)."""

        def work(conn: sqlite3.Connection) -> dict[str, Any]:
            out = {}
            for key, text in conn.execute("SELECT key, value FROM settings ORDER BY key"):
                try:
                    out[key] = json.loads(text)
                except ValueError:
                    continue
            return out

        return self._run("reading settings", work, {})


def move_aside(path: Path) -> Path:
    """Rename a database and its `-wal`/`-shm` files to `NAME.corrupt-STAMP`; returns the new path.

    The WAL must go too: left behind, SQLite would replay it into the fresh database.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{target}{suffix}"))
    return target
