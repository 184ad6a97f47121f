"""The SQLite store: statistics per game and name, settings changed in the app, the game in play.

One database file in the data directory, in WAL mode with `synchronous=FULL`. Why FULL and not
NORMAL: with WAL, NORMAL only syncs the log at checkpoints, so a power cut can roll back every
commit since the last one — many actions — while FULL syncs the log at each commit, so at most the
action being saved is lost. One fsync per player action is nothing at a card table's pace.

The schema version is `PRAGMA user_version`; `MIGRATIONS[n]` upgrades version n to n + 1 inside
one transaction. Migration 2 marks the file as Parlor's (`PRAGMA application_id`). Migration 3
keeps finished deals for the replay viewer (table `deals`: the deal's record, its outcome, whether
it was a practice deal, and `notes`, a JSON list a coach may attach to the deal later) and counts
practice deals apart (`stats.practice`): they are never in the other statistics. The newest
`replays_kept` deals are kept (`[store] replays_kept`). Migration 4 keeps the statistics per
player's name (table `player_stats`, keyed by name and game): every named person at a finished
deal is counted with their own outcome. The statistics kept before it were the one player's on
this screen: they become the default name's, `DEFAULT_NAME` (""), which is also the name of a
*this screen* seat nobody named. Names are untrusted text (phones give them): only ever bound as
SQL parameters, at most `MAX_NAME` characters.

What is at the store path is examined first (`device.storefile.inspect`) without changing it:
only a Parlor database, or nothing, is used. Another program's database, a text file, a folder, a
device or a symbolic link is never touched: `SqliteStore` raises `StoreUnavailable` with the
reason, and `open_store` then hands back a store that keeps data in memory only, its
`unavailable_reason` saying why (for the home screen). A damaged Parlor database (malformed,
failed `quick_check`) is moved aside, next to its WAL and SHM files, with a logged message, and a
fresh one is created; if it cannot be moved, the same in-memory fallback applies. A Parlor
database written by a newer Parlor is left alone the same way (a later upgrade finds it intact).

Every write reports its outcome as a `ui.ports.SaveResult` (and `save_problem` keeps the last
failure until a write succeeds), so the table can warn that the game is not being saved. A saved
game that cannot be restored is moved to the `damaged_autosave` table (`set_aside_autosave`).
Implements `ui.ports.Store`; `close()` must be called on shutdown (SIGTERM skips `atexit`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from device import storefile
from device.storefile import APPLICATION_ID, Kind, MoveFailed
from ui import ports
from ui.ports import SaveResult

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
    [  # 1 -> 2: the file says it is Parlor's; saved games that failed to restore are kept
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE damaged_autosave (
            id INTEGER PRIMARY KEY,
            data TEXT NOT NULL,
            reason TEXT NOT NULL,
            saved_at REAL NOT NULL,
            set_aside_at REAL NOT NULL)""",
    ],
    [  # 2 -> 3: finished deals kept for the replay viewer; practice deals counted apart
        """CREATE TABLE deals (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            record TEXT NOT NULL,
            outcome TEXT NOT NULL,
            points INTEGER NOT NULL,
            practice INTEGER NOT NULL DEFAULT 0,
            finished_at REAL NOT NULL,
            notes TEXT NOT NULL DEFAULT '[]')""",
        "ALTER TABLE stats ADD COLUMN practice INTEGER NOT NULL DEFAULT 0",
    ],
    [  # 3 -> 4: statistics per player's name; the single player's become the default name's ("")
        """CREATE TABLE player_stats (
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            deals INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            points INTEGER NOT NULL DEFAULT 0,
            practice INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (name, game))""",
        "INSERT INTO player_stats (name, game, deals, wins, losses, draws, points, practice) "
        "SELECT '', game, deals, wins, losses, draws, points, practice FROM stats",
        "DROP TABLE stats",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
OUTCOMES = {"win": "wins", "loss": "losses", "draw": "draws"}
DEFAULT_NAME = ports.DEFAULT_NAME  # "": the player on this screen who gave no name
MAX_NAME = ports.MAX_PLAYER_NAME  # characters of a player's name
STAT_KEYS = ("deals", "wins", "losses", "draws", "points", "practice")
DAMAGED_KEPT = 20  # saved games kept aside at most (a loop of failures cannot fill the disk)
REPLAYS_KEPT = 50  # finished deals kept for the replay viewer (`[store] replays_kept`)
DEAL_KEYS = ("id", "game", "outcome", "points", "practice", "finished_at")


class StoreUnavailable(Exception):
    """The store path cannot or must not be used (not Parlor's, unreachable, locked, ...)."""


class CorruptDatabase(sqlite3.DatabaseError):
    """The file is a Parlor database but not a usable one."""


def problem_text(exc: BaseException) -> str:
    """A failed write in a few plain words for the player ("the disk is full")."""
    text = str(exc).lower()
    if "full" in text:
        return ports.DISK_FULL
    if "readonly" in text or "read-only" in text:
        return ports.READ_ONLY
    if "no such table" in text or "no such column" in text:
        return ports.MISSING_TABLE
    if "locked" in text or "busy" in text:
        return ports.IN_USE
    if "disk i/o" in text or "i/o error" in text:
        return ports.NOT_WRITTEN
    if "malformed" in text or "not a database" in text:
        return ports.DAMAGED
    return f"the database refused it ({str(exc)[:80]})"


class SqliteStore:
    """`ui.ports.Store` over one SQLite file. Safe to call from several threads (one lock)."""

    def __init__(self, path: Path | str, replays_kept: int = REPLAYS_KEPT) -> None:
        self.path = Path(path)
        self.replays_kept = replays_kept  # finished deals kept for the replay viewer
        self._lock = threading.Lock()
        self.moved_aside: Path | None = None  # where a corrupt database went, if one did
        self.unavailable_reason = ""  # why nothing is kept on disk ("" while it is)
        self.save_problem = ""  # what the last failed write said ("" once one succeeds)
        self._conn = self._open_or_replace()

    @classmethod
    def in_memory(cls, reason: str) -> SqliteStore:
        """A store that keeps nothing on disk (the fallback), `unavailable_reason` = `reason`."""
        store = cls.__new__(cls)
        store.path = Path(":memory:")
        store.replays_kept = REPLAYS_KEPT
        store._lock = threading.Lock()
        store.moved_aside = None
        store.unavailable_reason = reason
        store.save_problem = ""
        store._conn = _memory_connection()
        return store

    @property
    def persistent(self) -> bool:
        """False when data is kept in memory only (see `unavailable_reason`)."""
        return not self.unavailable_reason

    # -- opening ------------------------------------------------------------------------------

    def _open_or_replace(self) -> sqlite3.Connection:
        verdict = storefile.inspect(self.path)
        if not verdict.usable:
            raise StoreUnavailable(verdict.reason)
        if verdict.kind is Kind.PARLOR and verdict.version > SCHEMA_VERSION:
            raise StoreUnavailable(f"{self.path} was written by a newer Parlor (schema "
                                   f"{verdict.version}; this one knows {SCHEMA_VERSION}); left "
                                   "as it is")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            raise StoreUnavailable(f"cannot create {self.path.parent}: {reason}") from None
        try:
            return self._open()
        except sqlite3.OperationalError as exc:
            if verdict.kind is Kind.NEW or not _damage(exc):
                raise StoreUnavailable(f"cannot open {self.path}: {exc}") from None
            problem = str(exc)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            # UnicodeDecodeError: SQLite's own message quoted invalid UTF-8 from a damaged file
            if verdict.kind is Kind.NEW:
                raise StoreUnavailable(f"cannot open {self.path}: {exc}") from None
            problem = str(exc)
        try:
            self.moved_aside = storefile.move_aside(self.path)
        except MoveFailed as exc:
            raise StoreUnavailable(f"{self.path} is damaged ({problem}) and {exc}") from None
        log.error("store: %s is not a usable database (%s); moved it to %s and started a "
                  "fresh one", self.path, problem, self.moved_aside)
        try:
            return self._open()
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"cannot create a fresh {self.path}: {exc}") from None

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=5.0)
        conn.text_factory = storefile.lenient_text
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
            raise StoreUnavailable(f"the database was written by a newer Parlor (schema "
                                   f"{version}; this one knows {SCHEMA_VERSION})")

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

    def _run(self, what: str, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` in a transaction under the lock; `sqlite3.Error` if it failed.

        A malformed database found while running is moved aside and replaced (then `work` is
        tried once more on the fresh one); an error the fresh one also gives is raised.
        """
        if self._conn is None:
            raise sqlite3.ProgrammingError(f"{what} after close")
        for attempt in (1, 2):
            try:
                with self._transaction() as conn:
                    return work(conn)
            except UnicodeDecodeError as exc:  # a message quoting a damaged file's bytes
                if attempt == 2:
                    raise sqlite3.DatabaseError(f"database disk image is malformed ({exc})") \
                        from None
                log.error("store: %s failed on a damaged database: %s", what, exc)
                self._replace_damaged()
            except sqlite3.Error as exc:
                if attempt == 2 or not _damage(exc):
                    raise
                log.error("store: %s failed on a damaged database: %s", what, exc)
                self._replace_damaged()
        raise AssertionError("unreachable")

    def _read(self, what: str, work: Callable[[sqlite3.Connection], T], fallback: T) -> T:
        """A read: its result, or (logged) `fallback` if the database refused it."""
        with self._lock:
            try:
                return self._run(what, work)
            except sqlite3.Error as exc:
                log.error("store: %s failed: %s", what, exc)
                return fallback

    def _write(self, what: str, work: Callable[[sqlite3.Connection], object]) -> SaveResult:
        """A write: `SaveResult.ok`, or the failure in plain words (also kept in `save_problem`)."""
        with self._lock:
            try:
                self._run(what, work)
            except sqlite3.Error as exc:
                problem = problem_text(exc)
                if problem != self.save_problem:  # one line per new problem, not per action
                    log.error("store: %s failed: %s", what, exc)
                self.save_problem = problem
                return SaveResult(False, problem)
            if self.save_problem:
                log.info("store: %s succeeded again", what)
            self.save_problem = ""
            return SaveResult(True)

    def _replace_damaged(self) -> None:
        """Move the damaged database aside and open a fresh one; else keep data in memory."""
        try:
            self._conn.close()
        except sqlite3.Error:
            pass
        try:
            if self.persistent:
                self.moved_aside = storefile.move_aside(self.path)
                self._conn = self._open()
                log.error("store: moved the damaged database to %s and started a fresh one",
                          self.moved_aside)
                return
        except (MoveFailed, OSError, sqlite3.Error, UnicodeDecodeError, StoreUnavailable) as exc:
            self.unavailable_reason = f"{self.path} is damaged and cannot be replaced: {exc}"
            log.error("store: %s; statistics and the saved game are kept in memory only",
                      self.unavailable_reason)
        self._conn = _memory_connection()

    # -- ui.ports.Store -----------------------------------------------------------------------

    def load_autosave(self) -> str | None:
        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT data FROM autosave WHERE slot = 1").fetchone()
            return None if row is None else str(row[0])

        return self._read("loading the saved game", work, None)

    def save_autosave(self, data: str) -> SaveResult:
        if not isinstance(data, str):
            raise TypeError("the autosave is JSON text")

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR REPLACE INTO autosave (slot, data, saved_at) VALUES (1, ?, ?)",
                         (data, time.time()))

        return self._write("saving the game", work)

    def clear_autosave(self) -> SaveResult:
        return self._write("clearing the saved game",
                           lambda conn: conn.execute("DELETE FROM autosave"))

    def set_aside_autosave(self, reason: str) -> SaveResult:
        """Move the saved game to `damaged_autosave` (kept for a bug report, never offered again)."""

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO damaged_autosave (data, reason, saved_at, set_aside_at) "
                         "SELECT data, ?, saved_at, ? FROM autosave WHERE slot = 1",
                         (str(reason)[:500], time.time()))
            conn.execute("DELETE FROM autosave")
            conn.execute("DELETE FROM damaged_autosave WHERE id NOT IN (SELECT id FROM "
                         "damaged_autosave ORDER BY id DESC LIMIT ?)", (DAMAGED_KEPT,))

        return self._write("setting the saved game aside", work)

    def damaged_autosaves(self) -> list[dict[str, Any]]:
        """The saved games set aside, newest first (for `parlor doctor` and bug reports)."""

        def work(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = conn.execute("SELECT data, reason, saved_at, set_aside_at FROM "
                                "damaged_autosave ORDER BY id DESC").fetchall()
            keys = ("data", "reason", "saved_at", "set_aside_at")
            return [dict(zip(keys, row, strict=True)) for row in rows]

        return self._read("reading the saved games set aside", work, [])

    def record_deal(
        self, game: str, outcome: str, points: int, autosave: str | None = None
    ) -> SaveResult:
        """Count a deal for the default name; with `autosave`, replace the saved game in the
        same transaction."""
        players = [ports.PlayerResult(DEFAULT_NAME, outcome, int(points))]
        _check_players(players)

        def work(conn: sqlite3.Connection) -> None:
            _count(conn, game, players, practice=False)
            if autosave is not None:
                conn.execute("INSERT OR REPLACE INTO autosave (slot, data, saved_at) "
                             "VALUES (1, ?, ?)", (autosave, time.time()))

        return self._write("recording a deal", work)

    def save_finished_deal(
        self, game: str, outcome: str, points: int, record: str, practice: bool = False,
        autosave: str | None = None, players: Sequence[ports.PlayerResult] | None = None,
    ) -> SaveResult:
        """A finished deal, in one transaction: counted in the statistics of every person in
        `players` (a practice deal only in their `practice`; None = the default name with
        `outcome` and `points`, as before names), its record kept for the replay viewer (with
        `outcome` and `points`, seat 0's; the oldest beyond `replays_kept` pruned) and, with
        `autosave`, the saved game replaced."""
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
        if not isinstance(record, str):
            raise TypeError("the deal's record is JSON text")
        counted = ([ports.PlayerResult(DEFAULT_NAME, outcome, int(points))] if players is None
                   else list(players))
        _check_players(counted)
        kept = max(0, int(self.replays_kept))

        def work(conn: sqlite3.Connection) -> None:
            _count(conn, game, counted, practice)
            conn.execute("INSERT INTO deals (game, record, outcome, points, practice, "
                         "finished_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (game, record, outcome, int(points), int(bool(practice)), time.time()))
            conn.execute("DELETE FROM deals WHERE id NOT IN (SELECT id FROM deals ORDER BY id "
                         "DESC LIMIT ?)", (kept,))
            if autosave is not None:
                conn.execute("INSERT OR REPLACE INTO autosave (slot, data, saved_at) "
                             "VALUES (1, ?, ?)", (autosave, time.time()))

        return self._write("recording a deal", work)

    def recent_deals(self, limit: int = REPLAYS_KEPT) -> list[dict[str, Any]]:
        """The finished deals kept, newest first: id, game, outcome, points, practice,
        finished_at (not the records: `load_deal` reads one)."""

        def work(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = conn.execute("SELECT id, game, outcome, points, practice, finished_at FROM "
                                "deals ORDER BY id DESC LIMIT ?", (int(limit),)).fetchall()
            out = [dict(zip(DEAL_KEYS, row, strict=True)) for row in rows]
            for row in out:
                row["practice"] = bool(row["practice"])
            return out

        return self._read("reading the finished deals", work, [])

    def load_deal(self, deal_id: int) -> dict[str, Any] | None:
        """One kept deal: the `recent_deals` keys plus `record` (JSON text) and `notes` (the
        coach's, a list; [] when none or unreadable); None if it is not kept (any more)."""

        def work(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute("SELECT id, game, outcome, points, practice, finished_at, "
                               "record, notes FROM deals WHERE id = ?", (int(deal_id),)
                               ).fetchone()
            if row is None:
                return None
            out = dict(zip(DEAL_KEYS, row[:6], strict=True))
            out["practice"] = bool(out["practice"])
            out["record"] = str(row[6])
            try:
                notes = json.loads(row[7])
            except (ValueError, RecursionError):
                notes = []
            out["notes"] = notes if isinstance(notes, list) else []
            return out

        return self._read(f"reading deal {deal_id}", work, None)

    def attach_notes(self, deal_id: int, notes: list[Any]) -> SaveResult:
        """Keep notes (JSON-friendly, e.g. the coach's moments) with a kept deal."""
        text = json.dumps(list(notes), ensure_ascii=False)  # TypeError for what JSON cannot hold

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE deals SET notes = ? WHERE id = ?", (text, int(deal_id)))

        return self._write(f"keeping notes with deal {deal_id}", work)

    def stats(self, name: str = DEFAULT_NAME) -> dict[str, dict[str, int]]:
        """Per game, the figures of the player called `name` (the default name: the player on
        this screen who gave none, and everything counted before names were kept)."""

        def work(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
            rows = conn.execute("SELECT game, deals, wins, losses, draws, points, practice "
                                "FROM player_stats WHERE name = ? ORDER BY game",
                                (str(name),)).fetchall()
            return {row[0]: dict(zip(STAT_KEYS, row[1:], strict=True)) for row in rows}

        return self._read("reading statistics", work, {})

    def player_names(self) -> list[str]:
        """Every name with statistics: the default name first (when it has any), then the
        others alphabetically (case-insensitive)."""

        def work(conn: sqlite3.Connection) -> list[str]:
            return [str(row[0]) for row in
                    conn.execute("SELECT DISTINCT name FROM player_stats").fetchall()]

        return ports.order_names(self._read("reading the players' names", work, []))

    def get_setting(self, key: str, default: Any = None) -> Any:
        def work(conn: sqlite3.Connection) -> Any:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
            if row is None:
                return default
            try:
                return json.loads(row[0])
            except (ValueError, RecursionError):
                log.warning("store: setting %r is not JSON; using the default", key)
                return default

        return self._read(f"reading setting {key!r}", work, default)

    def set_setting(self, key: str, value: Any) -> SaveResult:
        text = json.dumps(value, ensure_ascii=False)  # TypeError for values JSON cannot hold

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, text))

        return self._write(f"saving setting {key!r}", work)

    def settings(self) -> dict[str, Any]:
        """Every saved setting (for `parlor doctor` and tests)."""

        def work(conn: sqlite3.Connection) -> dict[str, Any]:
            out = {}
            for key, text in conn.execute("SELECT key, value FROM settings ORDER BY key"):
                try:
                    out[key] = json.loads(text)
                except (ValueError, RecursionError):
                    continue
            return out

        return self._read("reading settings", work, {})


def _check_players(players: Sequence[ports.PlayerResult]) -> None:
    """`ValueError` unless every result has a known outcome and a name of text, at most
    `MAX_NAME` characters (checked before anything is written)."""
    for player in players:
        if player.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, "
                             f"got {player.outcome!r}")
        if not isinstance(player.name, str) or len(player.name) > MAX_NAME:
            raise ValueError(f"a player's name is text of at most {MAX_NAME} characters")


def _count(conn: sqlite3.Connection, game: str, players: Sequence[ports.PlayerResult],
           practice: bool) -> None:
    """Add one deal of `game` to each player's figures (a practice deal to `practice` only);
    a name listed twice is counted once, its first result."""
    seen: set[str] = set()
    for player in players:
        if player.name in seen:
            continue
        seen.add(player.name)
        conn.execute("INSERT OR IGNORE INTO player_stats (name, game) VALUES (?, ?)",
                     (player.name, game))
        if practice:
            conn.execute("UPDATE player_stats SET practice = practice + 1 "
                         "WHERE name = ? AND game = ?", (player.name, game))
            continue
        column = OUTCOMES[player.outcome]  # one of three fixed column names, never the input
        conn.execute(f"UPDATE player_stats SET deals = deals + 1, {column} = {column} + 1, "
                     "points = points + ? WHERE name = ? AND game = ?",
                     (int(player.points), player.name, game))


def _damage(exc: sqlite3.Error) -> bool:
    """Does this error mean the file is damaged (rather than full, read-only, locked, ...)?"""
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


def _memory_connection() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.text_factory = storefile.lenient_text
    for statements in MIGRATIONS:
        for statement in statements:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return conn


def open_store(path: Path | str, replays_kept: int = REPLAYS_KEPT) -> SqliteStore:
    """The store at `path`, or (logged) one keeping data in memory only, saying why. Never raises.

    The composition root's one call: `store.unavailable_reason` is "" when data is kept, else a
    line for the home screen ("... is a directory, not a Parlor database").
    """
    try:
        store = SqliteStore(path, replays_kept)
    except StoreUnavailable as exc:
        log.error("store: %s; statistics, settings and the saved game will not be kept", exc)
        store = SqliteStore.in_memory(str(exc))
        store.replays_kept = replays_kept
        return store
    log.info("store: %s", path)
    return store


move_aside = storefile.move_aside  # kept importable from here (tests, tools)
