"""Issue 18, parts 2 and 3: the store never destroys what is not Parlor's, never crashes on a
path it cannot use, and reports every failed write to its caller."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from device import store as store_mod
from device import storefile
from device.config import defaults
from device.main import open_store as main_open_store
from device.store import SqliteStore, StoreUnavailable, open_store


def listing(folder: Path) -> dict[str, bytes | str]:
    """Every entry of `folder` (recursively) with its bytes, or its kind if not a file."""
    out: dict[str, bytes | str] = {}
    for entry in sorted(folder.rglob("*")):
        name = str(entry.relative_to(folder))
        if entry.is_symlink():
            out[name] = f"link -> {os.readlink(entry)}"
        elif entry.is_file():
            out[name] = entry.read_bytes()
        else:
            out[name] = "dir" if entry.is_dir() else "other"
    return out


def make_foreign(kind: str, path: Path) -> None:
    if kind == "text file":
        path.write_text("my shopping list\n" * 50)
    elif kind == "another sqlite database":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
        conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
        conn.commit()
        conn.close()
    elif kind == "another program's application id":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA application_id = 12345")
        conn.execute("CREATE TABLE stats (x)")
        conn.commit()
        conn.close()
    elif kind == "sqlite with a version but no Parlor tables":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA user_version = 99")
        conn.commit()
        conn.close()
    elif kind == "truncated sqlite header":
        path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 84)
    elif kind == "directory":
        path.mkdir()
        (path / "photo.jpg").write_bytes(b"\xff\xd8 holiday")
    elif kind == "symlink to a file":
        target = path.parent / "elsewhere.txt"
        target.write_text("someone's notes")
        path.symlink_to(target)
    elif kind == "dangling symlink":
        path.symlink_to(path.parent / "nowhere" / "x.db")
    elif kind == "named pipe":
        os.mkfifo(path)
    else:
        raise AssertionError(kind)


FOREIGN = ["text file", "another sqlite database", "another program's application id",
           "sqlite with a version but no Parlor tables", "truncated sqlite header", "directory",
           "symlink to a file", "dangling symlink", "named pipe"]


@pytest.mark.parametrize("kind", FOREIGN)
def test_what_is_not_parlors_is_left_untouched(tmp_path: Path, kind: str) -> None:
    """Before issue 18 each of these was renamed to NAME.corrupt-STAMP and replaced."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "parlor.db"
    make_foreign(kind, path)
    before = listing(folder)
    with pytest.raises(StoreUnavailable) as caught:
        SqliteStore(path)
    assert str(path) in str(caught.value)
    store = open_store(path)
    assert store.unavailable_reason == str(caught.value) and not store.persistent
    assert store.save_autosave("{}") and store.load_autosave() == "{}"  # in memory only
    store.record_deal("meri", "win", 3)
    assert store.stats()["meri"]["wins"] == 1
    store.close()
    assert listing(folder) == before


@pytest.mark.parametrize("kind", ["text file", "another sqlite database", "directory"])
def test_the_apps_store_opening_leaves_a_foreign_file_alone(tmp_path: Path, kind: str) -> None:
    """Through the composition root's `open_store` (device/main.py), as the app starts."""
    path = tmp_path / "parlor.db"
    make_foreign(kind, path)
    before = listing(tmp_path)
    config = defaults()
    config = replace(config, store=replace(config.store, path=str(path)))
    store = main_open_store(config)
    assert store.unavailable_reason  # runs without keeping data, and says why
    store.save_autosave("{}")
    assert listing(tmp_path) == before


def test_a_device_is_refused_without_being_opened(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A character device (as `/dev/sda` would be) is judged by lstat alone, never opened."""
    path = tmp_path / "parlor.db"
    fake = os.stat_result((stat.S_IFCHR | 0o660, 0, 0, 1, 0, 0, 0, 0, 0, 0))
    real_lstat = os.lstat
    monkeypatch.setattr(storefile.os, "lstat",
                        lambda p: fake if Path(p) == path else real_lstat(p))
    opened: list[str] = []
    monkeypatch.setattr(store_mod.sqlite3, "connect", lambda *a, **k: opened.append(a[0]))
    verdict = storefile.inspect(path)
    assert verdict.kind is storefile.Kind.FOREIGN and "character device" in verdict.reason
    with pytest.raises(StoreUnavailable, match="character device"):
        SqliteStore(path)
    assert opened == []


def test_a_newer_parlor_database_is_kept_for_a_later_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    SqliteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {store_mod.SCHEMA_VERSION + 5}")
    conn.close()
    before = listing(tmp_path)
    store = open_store(path)
    assert "newer Parlor" in store.unavailable_reason
    store.close()
    assert listing(tmp_path) == before


def damaged_parlor_database(path: Path) -> None:
    SqliteStore(path).close()
    data = bytearray(path.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)
    path.write_bytes(bytes(data))


def test_a_damaged_database_that_cannot_be_moved_is_a_fallback_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before issue 18 a failed rename (read-only folder, permissions, /proc) crashed start-up."""
    path = tmp_path / "parlor.db"
    damaged_parlor_database(path)
    before = listing(tmp_path)

    def refuse(self: Path, target: Path) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "rename", refuse)
    store = open_store(path)
    assert "is damaged" in store.unavailable_reason
    assert "Permission denied" in store.unavailable_reason
    assert store.save_autosave("{}")
    store.close()
    assert listing(tmp_path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may rename in a read-only folder")
def test_a_damaged_database_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    damaged_parlor_database(folder / "parlor.db")
    before = listing(folder)
    folder.chmod(0o555)
    try:
        store = open_store(folder / "parlor.db")
        assert store.unavailable_reason
        store.close()
    finally:
        folder.chmod(0o755)
    assert listing(folder) == before


def test_move_aside_is_all_or_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "parlor.db"
    path.write_bytes(b"db")
    Path(f"{path}-wal").write_bytes(b"wal")
    real_rename = Path.rename

    def rename(self: Path, target: Path) -> Path:
        if str(self).endswith("-wal"):
            raise OSError(30, "Read-only file system")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(storefile.MoveFailed, match="Read-only file system"):
        storefile.move_aside(path)
    assert listing(tmp_path) == {"parlor.db": b"db", "parlor.db-wal": b"wal"}


@pytest.mark.parametrize("where", ["embedded NUL", "name over 255 bytes", "deep nesting",
                                   "parent is a file"])
def test_paths_the_system_refuses_are_unavailable(tmp_path: Path, where: str) -> None:
    if where == "embedded NUL":
        path = tmp_path / "par\x00lor.db"
    elif where == "name over 255 bytes":
        path = tmp_path / ("x" * 300) / "parlor.db"
    elif where == "deep nesting":
        path = tmp_path.joinpath(*["d"] * 3000) / "parlor.db"
    else:
        (tmp_path / "file").write_text("x")
        path = tmp_path / "file" / "parlor.db"
    with pytest.raises(StoreUnavailable):
        SqliteStore(path)
    store = open_store(path)
    assert store.unavailable_reason and store.save_autosave("{}")
    store.close()


def test_an_empty_file_is_a_first_start_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    path.write_bytes(b"")
    store = SqliteStore(path)
    assert store.persistent and store.save_autosave("{}")
    store.close()


# -- part 3: failed writes are reported -----------------------------------------------------

class FailingConnection:
    """A real connection whose writes fail (`OperationalError`) from the `after`+1-th on,
    while `failing` is set: a disk that fills up, without root."""

    WRITES = ("INSERT", "DELETE", "UPDATE")

    def __init__(self, real: sqlite3.Connection, after: int,
                 message: str = "database or disk is full") -> None:
        self.real, self.after, self.message = real, after, message
        self.writes = 0
        self.failing = True

    @property
    def in_transaction(self) -> bool:
        return self.real.in_transaction

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(self.WRITES):
            self.writes += 1
            if self.failing and self.writes > self.after:
                raise sqlite3.OperationalError(self.message)
        return self.real.execute(sql, *args)

    def close(self) -> None:
        self.real.close()


@pytest.mark.parametrize(("message", "problem"), [
    ("database or disk is full", "the disk is full"),
    ("attempt to write a readonly database", "the database is read-only"),
    ("no such table: autosave", "the database is missing a table"),
    ("disk I/O error", "the disk could not be written"),
])
def test_a_failed_save_is_reported_until_one_succeeds(
        tmp_path: Path, message: str, problem: str, caplog: pytest.LogCaptureFixture) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    store.save_autosave('{"n": 0}')
    failing = FailingConnection(store._conn, after=1, message=message)
    store._conn = failing  # type: ignore[assignment]
    assert store.save_autosave('{"n": 1}')
    with caplog.at_level(logging.ERROR, logger="device.store"):
        results = [store.save_autosave(f'{{"n": {n}}}') for n in range(2, 6)]
        results.append(store.record_deal("meri", "win", 1, autosave='{"n": 6}'))
    assert [(r.ok, r.problem) for r in results] == [(False, problem)] * 5
    assert store.save_problem == problem
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name == "device.store"]
    assert len(errors) == 1  # one line for the problem, not one per action
    assert store.load_autosave() == '{"n": 1}'
    failing.failing = False
    assert store.save_autosave('{"n": 7}') and store.save_problem == ""
    assert store.load_autosave() == '{"n": 7}'
    store.close()


def test_real_failures_read_only_and_missing_table(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    store._conn.execute("PRAGMA query_only = 1")
    assert store.save_autosave("{}").problem == "the database is read-only"
    store._conn.execute("PRAGMA query_only = 0")
    store._conn.execute("DROP TABLE autosave")
    assert store.save_autosave("{}").problem == "the database is missing a table"
    assert store.set_setting("language", "vi")  # other tables still work
    store.close()


def test_a_saved_game_set_aside_is_kept_and_no_longer_offered(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    store.save_autosave('{"broken": true}')
    assert store.set_aside_autosave("bad RNG state")
    assert store.load_autosave() is None
    store.close()
    again = SqliteStore(path)
    assert again.load_autosave() is None
    [kept] = again.damaged_autosaves()
    assert (kept["data"], kept["reason"]) == ('{"broken": true}', "bad RNG state")
    for n in range(store_mod.DAMAGED_KEPT + 5):
        again.save_autosave(f'{{"n": {n}}}')
        again.set_aside_autosave("again")
    assert len(again.damaged_autosaves()) == store_mod.DAMAGED_KEPT
    again.close()


def test_a_damaged_schema_with_invalid_utf8_is_moved_aside(tmp_path: Path) -> None:
    """Found by the property test: quick_check's report quoted the damaged schema's bytes and
    Python raised UnicodeDecodeError reading it (a crash at start-up)."""
    path = tmp_path / "parlor.db"
    SqliteStore(path).close()
    data = bytearray(path.read_bytes())
    at = data.index(b"NOT NULL DEFAULT 0")
    data[at + 4] = 0x80  # "NOT \x80ULL": invalid UTF-8 inside the schema text
    path.write_bytes(bytes(data))
    store = open_store(path)
    assert store.save_autosave("{}").ok or store.save_problem
    store.close()
