"""Game registry: maps a game's name to its `Game` object. Each game module registers itself."""

from __future__ import annotations

import importlib

from engine.game import Game

_GAMES: dict[str, Game] = {}
# Modules that register a game when imported; imported lazily so `engine` stays light.
_MODULES = {"meri": "engine.meri", "tractor": "engine.tractor", "chan": "engine.chan"}
#: Each game's English title (a translatable msgid). Its `Game` class takes it from here, so a
#: screen that only lists the games (the home screen at start-up) imports no game module.
TITLES = {"meri": "Hachinin Meri", "tractor": "Tractor", "chan": "Chắn"}


def register(game: Game) -> Game:
    """Register `game` under `game.name` (called at the bottom of each game module)."""
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game registered as `name` (a game registered for a while, e.g. by a test)."""
    _GAMES.pop(name, None)


def get(name: str) -> Game:
    """The registered game called `name`; `KeyError` naming the known games if there is none."""
    if name not in _GAMES and name in _MODULES:
        importlib.import_module(_MODULES[name])
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(names())})") from None


def title(name: str) -> str:
    """The title of the game called `name`, without importing its module; `KeyError` if the
    game is not Parlor's (a game registered by a test has its title on its `Game`)."""
    if name in TITLES:
        return TITLES[name]
    return get(name).title


def names() -> list[str]:
    """Names of every game Parlor plays."""
    return sorted(_MODULES)
