"""device.store, schema 4 (issue 22): statistics per player's name. A real schema-3 database
opens migrated with its figures kept as the default name's; every named person at a deal is
counted with their own outcome; names are data (bound as parameters, length-limited).

`data/parlor-schema3.db` was written by the schema-3 store (main at fd88a76): four counted
deals (Meri win 6 and loss −2, Tractor win 2, Chắn draw) and a practice Chắn deal, their
records kept (the newest with a coach note), the language "nl", two remembered names and a
Tractor game in progress 5 actions in.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.store import SCHEMA_VERSION, SqliteStore
from engine.session import Session
from ui.ports import DEFAULT_NAME, MAX_PLAYER_NAME, MemoryStore, PlayerResult, order_names
from ui.remote.protocol import MAX_NAME

FIXTURE = Path(__file__).parent / "data" / "parlor-schema3.db"


def test_a_schema_3_database_opens_migrated_with_its_figures_as_the_default_names(
        tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    shutil.copyfile(FIXTURE, db)
    with sqlite3.connect(db) as raw:  # the fixture really is the old shape
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 3
        assert raw.execute("SELECT count(*) FROM stats").fetchone()[0] == 3
    raw.close()
    store = SqliteStore(db)
    try:
        assert store.moved_aside is None and store.persistent
        assert store.schema_version == SCHEMA_VERSION == 4
        assert store.player_names() == [DEFAULT_NAME]
        stats = store.stats()
        assert stats == store.stats(DEFAULT_NAME)
        assert stats["meri"] == {"deals": 2, "wins": 1, "losses": 1, "draws": 0, "points": 4,
                                 "practice": 0}
        assert stats["tractor"] == {"deals": 1, "wins": 1, "losses": 0, "draws": 0, "points": 2,
                                    "practice": 0}
        assert stats["chan"] == {"deals": 1, "wins": 0, "losses": 0, "draws": 1, "points": 0,
                                 "practice": 1}
        assert store.stats("Anna") == {}
        assert store.get_setting("language") == "nl"
        assert store.get_setting("player_names") == ["Anna", "Bảo"]
        deals = store.recent_deals()
        assert [d["game"] for d in deals] == ["chan", "chan", "tractor", "meri", "meri"]
        assert store.load_deal(deals[0]["id"])["notes"] == [{"step": 3, "text": "a coach note"}]
        session = Session.from_json(store.load_autosave())
        assert session.game.name == "tractor" and len(session.record.actions) == 5
        assert store.integrity_check() == "ok"
        tables = {row[0] for row in store._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "stats" not in tables and "player_stats" in tables  # one owner of the figures
        # a deal played after the upgrade adds to the same figures
        assert store.record_deal("meri", "win", 3)
    finally:
        store.close()
    reopened = SqliteStore(db)
    assert reopened.schema_version == 4
    assert reopened.stats()["meri"] == {"deals": 3, "wins": 2, "losses": 1, "draws": 0,
                                        "points": 7, "practice": 0}
    reopened.close()


def test_the_schema_2_database_also_reaches_schema_4(tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    shutil.copyfile(Path(__file__).parent / "data" / "parlor-schema2.db", db)
    store = SqliteStore(db)
    assert store.schema_version == 4 and store.stats()["meri"]["deals"] == 2
    store.close()


def results(*rows: tuple[str, str, int]) -> list[PlayerResult]:
    return [PlayerResult(*row) for row in rows]


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_every_person_at_a_deal_is_counted_with_their_own_outcome(tmp_path: Path,
                                                                   kind: str) -> None:
    store = SqliteStore(tmp_path / "parlor.db") if kind == "sqlite" else MemoryStore()
    record = '{"game": "tractor"}'
    assert store.save_finished_deal("tractor", "win", 2, record, players=results(
        ("Anna", "win", 2), ("Bảo", "loss", 0), ("", "win", 2)))
    assert store.save_finished_deal("tractor", "loss", 0, record, players=results(
        ("Anna", "loss", 0), ("Anna", "win", 9)))  # a name twice at one deal: counted once
    assert store.save_finished_deal("chan", "loss", -4, record, practice=True, players=results(
        ("Bảo", "loss", -4)))  # practice: only in `practice`
    assert store.save_finished_deal("meri", "draw", 0, record, players=[])  # nobody counted
    assert store.player_names() == ["", "Anna", "Bảo"]
    assert store.stats("Anna") == {"tractor": {"deals": 2, "wins": 1, "losses": 1, "draws": 0,
                                               "points": 2, "practice": 0}}
    assert store.stats("Bảo") == {
        "chan": {"deals": 0, "wins": 0, "losses": 0, "draws": 0, "points": 0, "practice": 1},
        "tractor": {"deals": 1, "wins": 0, "losses": 1, "draws": 0, "points": 0, "practice": 0}}
    assert store.stats()["tractor"]["wins"] == 1 and "meri" not in store.stats()
    assert len(store.recent_deals()) == 4  # every deal kept for the replay viewer
    # without `players`, as before names: the default name with the deal's outcome
    assert store.save_finished_deal("meri", "win", 5, record)
    assert store.stats()["meri"]["wins"] == 1


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_bad_result_is_refused_before_anything_is_written(tmp_path: Path, kind: str) -> None:
    store = SqliteStore(tmp_path / "parlor.db") if kind == "sqlite" else MemoryStore()
    with pytest.raises(ValueError, match="outcome"):
        store.save_finished_deal("meri", "win", 1, "{}", players=results(
            ("Anna", "win", 1), ("Bảo", "won", 1)))
    with pytest.raises(ValueError, match="24"):
        store.save_finished_deal("meri", "win", 1, "{}", players=results(("x" * 25, "win", 1)))
    assert store.player_names() == [] and store.recent_deals() == []
    if kind == "sqlite":
        store.close()


def test_the_name_limit_is_the_protocols() -> None:
    assert MAX_PLAYER_NAME == MAX_NAME


def test_names_are_listed_default_first_then_alphabetically() -> None:
    assert order_names(["zoë", "Bảo", "", "anna", "Bảo"]) == ["", "anna", "Bảo", "zoë"]
    assert order_names(["Bob"]) == ["Bob"]


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=MAX_PLAYER_NAME))
def test_any_name_is_stored_as_data_and_read_back_exactly(tmp_path_factory: pytest.TempPathFactory,
                                                          name: str) -> None:
    db = tmp_path_factory.mktemp("names") / "parlor.db"
    store = SqliteStore(db)
    try:
        assert store.save_finished_deal("chan", "win", 3, "{}", players=results(
            (name, "win", 3), ("other", "loss", -3)))
        assert store.stats(name)["chan"]["wins"] == 1
        assert set(store.player_names()) == {name, "other"}
        assert store.integrity_check() == "ok"
    finally:
        store.close()
