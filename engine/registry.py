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
#: The match lengths offered for each game, in deals; 0 is no fixed number: the game's own end
#: (Tractor: until a team passes A, T-2). The config schema, the settings and the seating
#: screens read them from here (no game module imported for them); a match itself takes any
#: length from 1 to `engine.game.MAX_LENGTH` (and 0 where the game has an end of its own).
LENGTHS = {"meri": (4, 8, 12), "tractor": (0, 4, 8), "chan": (1, 4, 8)}
#: The length of a match when none is chosen (`Game.new_match`, a saved match without one):
#: the rules' own where they set one (Meri H-3: 8 deals; Tractor T-2: until a team passes A);
#: Chắn's deal is a whole game (C-2), and a sitting of four deals shows the running
#: settlement (S-5) take shape.
DEFAULT_LENGTHS = {"meri": 8, "tractor": 0, "chan": 4}


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


def lengths(name: str) -> tuple[int, ...]:
    """The match lengths offered for `name` (deals; 0 = the game's own end); `KeyError` if the
    game is not Parlor's and has no `lengths` of its own."""
    if name in LENGTHS:
        return LENGTHS[name]
    return get(name).lengths


def default_length(name: str) -> int:
    """The length of a new match of `name` when none is chosen (deals; 0 = the game's own end)."""
    if name in DEFAULT_LENGTHS:
        return DEFAULT_LENGTHS[name]
    return get(name).default_length


def names() -> list[str]:
    """Names of every game Parlor plays."""
    return sorted(_MODULES)
