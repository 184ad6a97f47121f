"""Issue 18, part 4: a saved game that fails to restore, for any reason, is validated, kept aside
and never offered again (the app's "Continue" and the runner share `ui.resume`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.store import SqliteStore
from engine.errors import EngineError
from engine.session import Session
from ui.ports import MemoryStore
from ui.resume import resume_saved


def saved(game: str, seed: int = 3, actions: int = 5) -> dict:
    session = Session.new(game, seed)
    for _ in range(actions):
        session.apply(session.state.legal_actions()[0])
    return json.loads(session.to_json())


def corrupt(data: dict, how: str) -> str:
    rng = data["match"]["rng"]
    if how == "rng word too big":
        rng[1][5] = 2**40
    elif how == "rng word negative":
        rng[1][5] = -1
    elif how == "rng word a float":
        rng[1][5] = 1.5
    elif how == "rng index out of range":
        rng[1][624] = 9999
    elif how == "rng gauss a string":
        rng[2] = "g"
    elif how == "rng version":
        rng[0] = 2
    elif how == "rng short":
        rng[1] = rng[1][:10]
    elif how == "illegal action":
        data["record"]["actions"].append("pass")
        data["record"]["actions"] = data["record"]["actions"] * 3
    elif how == "unknown action":
        data["record"]["actions"][0] = "fly away"
    elif how == "game name not a string":
        data["game"] = ["meri"]
    elif how == "unknown game":
        data["game"] = "poker"
    elif how == "record of another game":
        data["record"]["game"] = "chan" if data["game"] != "chan" else "meri"
    elif how == "format":
        data["format"] = 2
    elif how == "deals_done negative":
        data["deals_done"] = -3
    elif how == "deals_done a string":
        data["deals_done"] = "7"
    elif how == "match missing":
        del data["match"]
    elif how == "not json":
        return "{" + json.dumps(data)
    elif how == "deep nesting":
        return "[" * 100_000 + "]" * 100_000
    else:
        raise AssertionError(how)
    return json.dumps(data)


CORRUPTIONS = ["rng word too big", "rng word negative", "rng word a float",
               "rng index out of range", "rng gauss a string", "rng version", "rng short",
               "illegal action", "unknown action", "game name not a string", "unknown game",
               "record of another game", "format", "deals_done negative",
               "deals_done a string", "match missing", "not json", "deep nesting"]


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
@pytest.mark.parametrize("how", CORRUPTIONS)
def test_every_damaged_save_is_an_engine_error(game: str, how: str) -> None:
    """Before issue 18 some raised OverflowError (a crash on "Continue") and some restored."""
    with pytest.raises(EngineError):  # MalformedRecord, or IllegalAction for a bad replay
        Session.from_json(corrupt(saved(game), how))


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_a_good_save_still_resumes_byte_identical(game: str) -> None:
    text = json.dumps(saved(game), ensure_ascii=False, separators=(",", ":"))
    seen: list[str] = []
    session = Session.from_json(text, save=seen.append)
    assert session.to_json() == text and seen == [text]


@pytest.mark.parametrize("how", ["rng word negative", "illegal action", "unknown game"])
def test_a_damaged_save_is_set_aside_once(tmp_path: Path, how: str) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    bad = corrupt(saved("tractor"), how)
    store.save_autosave(bad)
    resumed = resume_saved(store)
    assert resumed.session is None and resumed.problem
    assert store.load_autosave() is None
    store.close()
    again = SqliteStore(path)
    assert resume_saved(again).session is None and resume_saved(again).problem == ""
    assert [d["data"] for d in again.damaged_autosaves()] == [bad]
    again.close()


def test_resume_hands_back_the_session_and_saves_through_the_callback() -> None:
    store = MemoryStore()
    Session.new("meri", 2, save=store.save_autosave)
    seen: list[str] = []
    resumed = resume_saved(store, save=seen.append)
    assert resumed.session is not None and resumed.problem == ""
    assert seen == [store.load_autosave()]
    assert store.set_aside == []


def test_describe_save_names_the_game_deal_actions_and_the_exact_text() -> None:
    """The line a power-cut check compares the resumed game with (scripts/bootcheck)."""
    from ui.resume import describe_save

    session = Session.new("chan", 4)
    for _ in range(3):
        session.apply(session.state.legal_actions()[0])
    text = session.to_json()
    line = describe_save(text)
    assert line.startswith("chan deal 1 action 3 crc32 ")
    again = Session.from_json(text)  # resumed: the same save, byte for byte
    assert describe_save(again.to_json()) == line
    session.apply(session.state.legal_actions()[0])
    assert describe_save(session.to_json()).startswith("chan deal 1 action 4 crc32 ")
    assert describe_save("{not json").startswith("unreadable save, crc32 ")


def test_parlor_log_debug_names_the_loggers_at_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    from device.main import setup_logging

    named = logging.getLogger("parlor.autosave")
    before = named.level
    monkeypatch.setenv("PARLOR_LOG_DEBUG", "parlor.autosave, ")
    try:
        setup_logging()
        assert named.isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("parlor.other").isEnabledFor(logging.DEBUG)
    finally:
        named.setLevel(before)
