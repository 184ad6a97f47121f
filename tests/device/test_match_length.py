"""Match length (issue 33) on the device side: `[game] <game>_deals` in the one config schema
(a bad value is one line and the default), handed to the app; a saved match keeps its length in
a real SQLite database across a restart, and a match saved before lengths existed resumes with
its game's default."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from device import config as cfg
from device import main as root
from device import schema
from device.store import SqliteStore
from engine import registry
from engine.session import Session
from ui.ports import MemoryStore
from ui.resume import resume_saved


def load(tmp_path: Path, text: str) -> tuple[cfg.Config, list[str], Path]:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    config, problems = cfg.load([path], environ={})
    return config, problems, path


def test_each_game_has_a_length_key_with_the_games_lengths(tmp_path: Path) -> None:
    for game in registry.names():
        key = schema.BY_NAME[f"game.{game}_deals"]
        assert key.default == registry.default_length(game)
        assert key.check.options == registry.lengths(game)
    config, problems, _ = load(tmp_path, "[game]\nmeri_deals = 12\ntractor_deals = 4\n"
                                         "chan_deals = 1\n")
    assert problems == []
    assert config.game.match_lengths == {"meri": 12, "tractor": 4, "chan": 1}
    services = root.make_services(config, MemoryStore(), lambda: None)
    assert services.match_lengths == {"meri": 12, "tractor": 4, "chan": 1}
    assert cfg.defaults().game.match_lengths == {"meri": 8, "tractor": 0, "chan": 4}


def test_a_bad_length_is_one_line_and_the_default(tmp_path: Path) -> None:
    config, problems, path = load(tmp_path, '[game]\nmeri_deals = 5\nchan_deals = "4"\n'
                                            "tractor_deals = true\n")
    assert problems == [
        f"{path}: game.meri_deals: must be one of 4, 8, 12; got 5; using the default 8",
        f"{path}: game.chan_deals: expected an integer, got '4'; using the default 4",
        f"{path}: game.tractor_deals: expected an integer, got true; using the default 0",
    ]
    assert config.game.match_lengths == {"meri": 8, "tractor": 0, "chan": 4}


def test_the_config_length_is_the_starting_setting_of_the_store(tmp_path: Path) -> None:
    """The app reads `<game>_deals` from the store: the file's value until the player
    chooses another (then the player's wins)."""
    config, _, _ = load(tmp_path, "[game]\nchan_deals = 8\n")
    store = root.ConfiguredStore(MemoryStore(), __import__("dataclasses").asdict(config.game))
    assert store.get_setting("chan_deals", 4) == 8
    store.set_setting("chan_deals", 1)
    assert store.get_setting("chan_deals", 4) == 1


def play_deal(session: Session, seed: int) -> None:
    rng = random.Random(seed)
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    session.finish_deal()


@pytest.mark.parametrize(("game", "deals"), [("meri", 4), ("tractor", 8), ("chan", 8)])
def test_a_saved_match_keeps_its_length_across_a_restart(tmp_path: Path, game: str,
                                                         deals: int) -> None:
    path = tmp_path / "data" / "parlor.db"
    store = SqliteStore(path)
    session = Session.new(game, 5, save=store.save_autosave, deals=deals)
    play_deal(session, 1)
    session.next_deal()
    store.close()  # the machine restarts
    again = SqliteStore(path)
    resumed = resume_saved(again, save=again.save_autosave)
    assert resumed.problem == "" and resumed.session is not None
    standing = resumed.session.match.result()
    assert resumed.session.match.length == deals
    assert (standing.deals_played, standing.deals_total) == (1, deals)
    again.close()


@pytest.mark.parametrize(("game", "default"), [("meri", 8), ("tractor", 0)])
def test_a_match_saved_before_lengths_resumes_with_the_games_default(
        tmp_path: Path, game: str, default: int) -> None:
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    data = json.loads(Session.new(game, 3).to_json())
    del data["match"]["length"]  # what an older Parlor saved
    store.save_autosave(json.dumps(data))
    store.close()
    again = SqliteStore(path)
    resumed = resume_saved(again)
    assert resumed.session is not None and resumed.session.match.length == default
    assert again.load_autosave() is not None  # restored, not set aside
    again.close()
