"""The registry names each game's title without importing the game (the home screen lists the
games at start-up), and the title is the one its `Game` carries."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import registry


def test_titles_come_without_importing_a_game_module():
    code = ("import sys; from engine import registry; "
            "print([registry.title(n) for n in registry.names()], "
            "[m for m in ('engine.meri', 'engine.tractor', 'engine.chan') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['Chắn', 'Hachinin Meri', 'Tractor'] []"


@pytest.mark.parametrize("name", registry.names())
def test_the_title_is_the_games_own(name):
    assert registry.title(name) == registry.get(name).title


def test_an_unknown_game_has_no_title():
    with pytest.raises(KeyError, match="unknown game 'whist'"):
        registry.title("whist")
