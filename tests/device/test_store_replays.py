"""device.store, schema 3 (issue 21): finished deals kept for the replay viewer, practice deals
counted apart, the migration from a database written by the schema-2 store, and an undo that
survives a kill (the resumed game is exactly the state after the undo)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from device.store import SCHEMA_VERSION, SqliteStore
from engine.session import Session
from tests.deals import finished

FIXTURE = Path(__file__).parent / "data" / "parlor-schema2.db"


def test_a_schema_2_database_opens_migrated_with_everything_kept(tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    shutil.copyfile(FIXTURE, db)
    store = SqliteStore(db)
    try:
        assert store.moved_aside is None and store.persistent
        assert store.schema_version == SCHEMA_VERSION
        stats = store.stats()
        assert stats["meri"] == {"deals": 2, "wins": 1, "losses": 1, "draws": 0, "points": 4,
                                 "practice": 0}
        assert stats["chan"]["draws"] == 1
        assert store.get_setting("language") == "fr"
        saved = store.load_autosave()
        assert saved is not None
        session = Session.from_json(saved)
        assert session.game.name == "tractor" and len(session.record.actions) == 6
        assert session.practice is False
        assert store.recent_deals() == []
        assert store.integrity_check() == "ok"
    finally:
        store.close()
    reopened = SqliteStore(db)  # and it opens again as it is
    assert reopened.schema_version == SCHEMA_VERSION and reopened.stats()["meri"]["deals"] == 2
    reopened.close()


def test_practice_deals_are_kept_but_not_in_the_statistics(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "parlor.db")
    normal, practice = finished("chan", 1), finished("chan", 2)
    assert store.save_finished_deal("chan", "win", 5, normal.record.to_json())
    assert store.save_finished_deal("chan", "loss", -9, practice.record.to_json(),
                                    practice=True, autosave=practice.to_json())
    stats = store.stats()["chan"]
    assert stats == {"deals": 1, "wins": 1, "losses": 0, "draws": 0, "points": 5, "practice": 1}
    assert store.load_autosave() == practice.to_json()  # in the same transaction
    deals = store.recent_deals()
    assert [d["practice"] for d in deals] == [True, False]  # newest first
    assert deals[0]["outcome"] == "loss" and deals[0]["points"] == -9
    kept = store.load_deal(deals[1]["id"])
    assert kept is not None and kept["record"] == normal.record.to_json()
    assert kept["notes"] == []
    store.close()


def test_deals_are_pruned_to_the_configured_count_and_notes_stay(tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    store = SqliteStore(db, replays_kept=3)
    record = finished("meri", 4).record.to_json()
    for points in range(5):
        store.save_finished_deal("meri", "draw", points, record)
    deals = store.recent_deals()
    assert [d["points"] for d in deals] == [4, 3, 2]
    assert store.load_deal(deals[-1]["id"] - 1) is None  # pruned
    assert store.attach_notes(deals[0]["id"], [{"step": 3, "text": "better: K3"}])
    store.close()
    reopened = SqliteStore(db, replays_kept=3)
    assert reopened.load_deal(deals[0]["id"])["notes"] == [{"step": 3, "text": "better: K3"}]
    assert reopened.stats()["meri"]["deals"] == 5
    reopened.close()


KILLED_SCRIPT = """
import json, os, random, signal, sys
from device.store import SqliteStore
from engine.session import Session
from tests.deals import finished

store = SqliteStore(sys.argv[1])
session = Session.new("meri", 31, save=store.save_autosave, practice=True)
rng = random.Random(5)
choices = 0
while True:
    state = session.state
    legal = state.legal_actions()
    if state.to_act == 0 and len(legal) > 1:
        if choices == 3:
            break
        choices += 1
    session.apply(legal[rng.randrange(len(legal))])
played = list(session.record.actions)
session.undo(0)
print(json.dumps({"played": played, "standing": session.record.actions}), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # the power cut: no close, no checkpoint
"""


def test_undo_then_autosave_then_a_kill_resumes_exactly_after_the_undo(tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    done = subprocess.run([sys.executable, "-c", KILLED_SCRIPT, str(db)], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.returncode == -signal.SIGKILL, done.stderr
    out = json.loads(done.stdout)
    assert len(out["standing"]) < len(out["played"])
    assert out["played"][:len(out["standing"])] == out["standing"]
    assert Path(f"{db}-wal").exists()  # killed before any checkpoint
    store = SqliteStore(db)
    try:
        assert store.integrity_check() == "ok"
        resumed = Session.from_json(store.load_autosave())
    finally:
        store.close()
    assert resumed.practice
    assert resumed.record.actions == out["standing"]
    # the state is the one before seat 0's undone decision, dealt again from seed and layout
    replayed = Session.new("meri", 31, practice=True)
    for text in out["standing"]:
        replayed.apply(replayed.game.parse_action(text))
    assert resumed.state.observation(0) == replayed.state.observation(0)
    assert resumed.state.to_act == 0
