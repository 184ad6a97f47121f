"""The UI descriptors (`ui.games`): one for every engine game and none for a game the engine
does not have; every path and file each names is there; the descriptors stay Kivy-free."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from ui import games
from ui.games import UiGame, get, load

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
PATHS = ("table", "card_namer", "card_face", "card_parser", "action_words", "coach_card_play",
         "phone_prompt", "phone_view", "phone_deck", "tutorial")
FILES = ("table_kv", "rules_page")


def test_every_engine_game_has_a_ui_descriptor_and_no_other() -> None:
    modules = {p.stem for p in (UI / "games").glob("*.py") if p.stem != "__init__"}
    assert modules == set(registry.names())
    assert {game.name for game in games.games()} == set(registry.names())
    assert [game.name for game in games.games()] == [i.name for i in registry.infos()]


@pytest.mark.parametrize("name", registry.names())
def test_each_descriptor_points_at_what_is_there(name: str) -> None:
    game = get(name)
    assert isinstance(game, UiGame) and game.name == name
    for field in PATHS:
        assert load(getattr(game, field)) is not None, field
    for field in FILES:
        assert (UI / getattr(game, field)).is_file(), field
    art = __import__(game.deck_art, fromlist=["CODES"])
    assert art.CODES and art.ASPECT > 0
    for phase, pick in game.phone_picks.items():  # the phone's button says what the kiosk's does
        assert pick is None or (pick[0] or phase) in game.pick_buttons, phase
    assert load(game.tutorial).game == name


def test_a_descriptor_is_frozen_and_an_unknown_game_has_none() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        get("meri").draws = True  # type: ignore[misc]
    with pytest.raises(KeyError):
        get("go")


def test_the_descriptors_import_no_kivy() -> None:
    """The phone server reads them: `ui.games` and each game's module leave Kivy unloaded."""
    code = ("import sys; from ui import games; [games.get(n) for n in games.names()]; "
            "import ui.card_names, ui.remote.views, ui.remote.decisions; "
            "print('kivy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False"
