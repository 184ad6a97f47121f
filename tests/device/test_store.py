"""SQLite store (issue 9, item 2): round trips, schema version, WAL/FULL, corruption recovery."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from device import store as store_mod
from device.paths import data_dir, database_path
from device.store import SqliteStore, StoreUnavailable


@pytest.fixture
def db(tmp_path: Path):
    store = SqliteStore(tmp_path / "data" / "parlor.db")
    yield store
    store.close()


def test_stats_round_trip_and_survive_reopen(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    store.record_deal("meri", "win", 5)
    store.record_deal("meri", "loss", -2)
    store.record_deal("meri", "draw", 0)
    store.record_deal("chan", "win", 12)
    store.close()
    again = SqliteStore(path)
    assert again.stats() == {
        "chan": {"deals": 1, "wins": 1, "losses": 0, "draws": 0, "points": 12, "practice": 0},
        "meri": {"deals": 3, "wins": 1, "losses": 1, "draws": 1, "points": 3, "practice": 0},
    }
    again.close()


def test_record_deal_refuses_an_unknown_outcome(db: SqliteStore) -> None:
    with pytest.raises(ValueError, match="outcome must be one of win, loss, draw"):
        db.record_deal("meri", "won", 1)
    assert db.stats() == {}


def test_settings_round_trip_json_values(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    assert store.get_setting("language", "en") == "en"
    store.set_setting("language", "vi")
    store.set_setting("animation_speed", 1.5)
    store.set_setting("sound", False)
    store.set_setting("language", "nl")
    store.close()
    again = SqliteStore(path)
    assert again.get_setting("language") == "nl"
    assert again.get_setting("animation_speed") == 1.5
    assert again.get_setting("sound", True) is False
    assert again.settings() == {"animation_speed": 1.5, "language": "nl", "sound": False}
    again.close()


def test_autosave_round_trip_replace_and_clear(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    assert store.load_autosave() is None
    store.save_autosave('{"format":1,"game":"meri"}')
    store.save_autosave('{"format":1,"game":"chan","é":"ắ"}')
    store.close()
    again = SqliteStore(path)
    assert again.load_autosave() == '{"format":1,"game":"chan","é":"ắ"}'
    again.clear_autosave()
    assert again.load_autosave() is None
    again.close()


def test_wal_full_sync_and_schema_version(db: SqliteStore) -> None:
    assert db.schema_version == store_mod.SCHEMA_VERSION == 4
    db.set_setting("a", 1)
    reader = sqlite3.connect(db.path)  # WAL mode and the application id belong to the file
    try:
        assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert reader.execute("PRAGMA application_id").fetchone()[0] == store_mod.APPLICATION_ID
    finally:
        reader.close()
    # synchronous is per connection and nothing outside the store can observe it: read it there
    assert db._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.integrity_check() == "ok"


def test_migrations_run_in_order_from_an_older_version(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "parlor.db"
    SqliteStore(path).close()  # the current version
    extra = ["ALTER TABLE player_stats ADD COLUMN best INTEGER NOT NULL DEFAULT 0"]
    monkeypatch.setattr(store_mod, "MIGRATIONS", store_mod.MIGRATIONS + [extra])
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", len(store_mod.MIGRATIONS))
    store = SqliteStore(path)
    assert store.schema_version == store_mod.SCHEMA_VERSION
    reader = sqlite3.connect(path)
    columns = [row[1] for row in reader.execute("PRAGMA table_info(player_stats)")]
    reader.close()
    assert "best" in columns
    assert store.moved_aside is None
    store.close()


def test_a_version_1_database_is_recognised_and_migrated(tmp_path: Path) -> None:
    """A database written before Parlor set its application id is still Parlor's."""
    path = tmp_path / "parlor.db"
    conn = sqlite3.connect(path)
    for statement in store_mod.MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("INSERT INTO settings VALUES ('language', '\"vi\"')")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    store = SqliteStore(path)
    assert store.moved_aside is None and store.get_setting("language") == "vi"
    assert store.schema_version == store_mod.SCHEMA_VERSION
    store.close()


def test_damaged_parlor_header_is_moved_aside(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    """A Parlor database (application id set) whose pages are garbage goes aside, kept whole."""
    path = tmp_path / "parlor.db"
    SqliteStore(path).close()
    data = bytearray(path.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with caplog.at_level(logging.ERROR, logger="device.store"):
        store = SqliteStore(path)
    assert store.moved_aside is not None and store.moved_aside.read_bytes() == before
    assert "moved it to" in caplog.text and str(path) in caplog.text
    assert store.save_autosave("{}") and store.load_autosave() == "{}"
    assert store.integrity_check() == "ok"
    store.close()


def test_damaged_pages_found_by_quick_check_are_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    for i in range(300):
        store.set_setting(f"key{i}", "x" * 200)
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page:3 * page] = b"\x0d" * page  # scribble over a b-tree page
    path.write_bytes(bytes(data))
    again = SqliteStore(path)
    assert again.moved_aside is not None
    assert again.settings() == {} and again.integrity_check() == "ok"
    again.close()


def test_corruption_found_while_running_recovers_without_raising(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    store.set_setting("a", 1)

    class Broken:
        """A connection whose statements fail the way a malformed file does."""

        in_transaction = False

        def execute(self, *_args: object) -> None:
            raise sqlite3.DatabaseError("database disk image is malformed")

        def close(self) -> None:
            pass

    real = store._conn
    store._conn = Broken()  # type: ignore[assignment]
    store.save_autosave('{"after":"recovery"}')  # moved aside, fresh file, saved there
    real.close()
    assert store.moved_aside is not None
    assert store.load_autosave() == '{"after":"recovery"}'
    store.close()


def test_a_directory_that_cannot_be_created_is_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreUnavailable, match="cannot be created: .*file is not a folder"):
        SqliteStore(blocker / "sub" / "parlor.db")


def test_calls_after_close_are_logged_not_raised(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    store.close()
    store.close()
    assert store.load_autosave() is None
    store.save_autosave("{}")


def test_data_dir_resolution_order(tmp_path: Path) -> None:
    home = {"XDG_DATA_HOME": "/xdg"}
    assert database_path("/srv/p.db", {"PARLOR_DATA_DIR": "/d"}) == Path("/srv/p.db")
    assert database_path("", {"PARLOR_DATA_DIR": "/d", "STATE_DIRECTORY": "/s"}) == Path(
        "/d/parlor.db")
    assert database_path("", {"STATE_DIRECTORY": "/var/lib/parlor:/other"}) == Path(
        "/var/lib/parlor/parlor.db")
    assert data_dir("", home) == Path("/xdg/parlor")
    assert data_dir("", {}) == Path.home() / ".local" / "share" / "parlor"


def test_record_deal_with_autosave_is_one_transaction(tmp_path: Path) -> None:
    """A finished deal's statistics and the saved game change together or not at all."""
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    store.save_autosave('{"before": 1}')
    store.record_deal("meri", "win", 5, autosave='{"after": 1}')
    store.close()
    again = SqliteStore(path)
    assert again.load_autosave() == '{"after": 1}'
    assert again.stats()["meri"]["deals"] == 1
    again.close()
