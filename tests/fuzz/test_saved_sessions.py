"""Property-based (issue 18, part 9): saved sessions and store files, through the real loading
code (`ui.resume.resume_saved` -> `Session.from_json`; `device.store.open_store`)."""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device import doctor
from device.config import defaults
from device.store import SqliteStore, open_store
from engine.session import Session
from ui.ports import MemoryStore
from ui.resume import resume_saved

from .strategies import mutated_json, real_sessions

pytestmark = pytest.mark.fuzz


def check_resume(text: str) -> None:
    store = MemoryStore()
    store.save_autosave(text)
    resumed = resume_saved(store)  # never raises
    if resumed.session is None:
        assert resumed.problem
        assert store.load_autosave() is None and store.set_aside == [(text, resumed.problem)]
        return
    again = resumed.session.to_json()
    assert Session.from_json(again).to_json() == again  # what restores, restores stably


@given(real_sessions)
def test_real_saves_restore_byte_identical(text: str) -> None:
    assert Session.from_json(text).to_json() == text


@given(real_sessions.flatmap(mutated_json))
def test_damaged_saves_restore_or_are_set_aside(text: str) -> None:
    check_resume(text)


@given(st.text(max_size=200) | st.binary(max_size=200).map(
    lambda b: b.decode("utf-8", "replace")))
def test_any_text_as_a_save_is_set_aside(text: str) -> None:
    check_resume(text)


@lru_cache(maxsize=1)
def parlor_database() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "parlor.db"
        store = SqliteStore(path)
        store.save_autosave(saved_session_text())
        for n in range(40):
            store.set_setting(f"k{n}", "v" * 50)
        store.record_deal("meri", "win", 3)
        store.close()
        return path.read_bytes()


def saved_session_text() -> str:
    return Session.new("meri", 1).to_json()


@st.composite
def damaged_databases(draw: st.DrawFn) -> bytes:
    data = bytearray(parlor_database())
    how = draw(st.sampled_from(["flip", "flip", "cut", "random"]))
    if how == "random":
        return draw(st.binary(max_size=4096))
    if how == "cut":
        return bytes(data[:draw(st.integers(0, len(data)))])
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data) - 1))
        data[at] = draw(st.integers(0, 255))
    return bytes(data)


@given(damaged_databases())
def test_any_store_file_opens_or_falls_back_and_is_never_lost(tmp_path: Path,
                                                              content: bytes) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "parlor.db"
    path.write_bytes(content)
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(folder)})  # never raises...
    assert check.status in ("OK", "WARN", "FAIL")
    assert os.listdir(folder) == ["parlor.db"] and path.read_bytes() == content  # ...changes nothing
    store = open_store(path)  # never raises
    try:
        result = store.save_autosave("{}")  # saved, or says why not (a damaged schema)
        assert result.ok or result.problem
        store.load_autosave()
        store.stats()
        store.settings()
    finally:
        store.close()
    if store.unavailable_reason and store.moved_aside is None:
        assert path.read_bytes() == content  # left untouched
    elif store.moved_aside is not None:
        assert store.moved_aside.read_bytes() == content  # kept whole, beside a fresh one
    names = os.listdir(folder)
    assert all(name.startswith("parlor.db") for name in names)
