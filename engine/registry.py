"""Game registry: maps a game's name to its descriptor (`engine.descriptor.GameInfo`, found in
`engine.info`) and to its `Game` object, which each game package registers when imported."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType

import engine.info
from engine.descriptor import AiInfo, GameInfo
from engine.game import Game

_GAMES: dict[str, Game] = {}


def _discover() -> dict[str, GameInfo]:
    """Every module of `engine.info` is a game Parlor plays: its `INFO`, by name, in `order`."""
    found = [importlib.import_module(f"{engine.info.__name__}.{module.name}").INFO
             for module in pkgutil.iter_modules(engine.info.__path__)]
    return {i.name: i for i in sorted(found, key=lambda i: (i.order, i.name))}


_INFOS = _discover()
#: Each game's English title (a translatable msgid), its offered match lengths (deals; 0 = the
#: game's own end) and the length of a match when none is chosen, read from the descriptors
#: (`engine.info`) without importing a game; in the games' `order` (the settings list them so).
#: A match itself takes any length from 1 to `engine.game.MAX_LENGTH` (and 0 where the game has
#: an end of its own).
TITLES: Mapping[str, str] = MappingProxyType({n: i.title for n, i in _INFOS.items()})
LENGTHS: Mapping[str, tuple[int, ...]] = MappingProxyType({n: i.lengths for n, i in _INFOS.items()})
DEFAULT_LENGTHS: Mapping[str, int] = MappingProxyType(
    {n: i.default_length for n, i in _INFOS.items()})


def info(name: str) -> GameInfo:
    """The descriptor of Parlor's game `name` (no game module imported); `KeyError` if none."""
    try:
        return _INFOS[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(names())})") from None


def infos() -> tuple[GameInfo, ...]:
    """Every game's descriptor, in the games' `order`."""
    return tuple(_INFOS.values())


def ai_infos() -> dict[str, AiInfo]:
    """The AI part of each game Parlor plays with bots, by name, in the games' `order`."""
    return {n: i.ai for n, i in _INFOS.items() if i.ai is not None}


def register(game: Game) -> Game:
    """Register `game` under `game.name` (called at the bottom of each game module)."""
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game registered as `name` (a game registered for a while, e.g. by a test)."""
    _GAMES.pop(name, None)


def get(name: str) -> Game:
    """The registered game called `name`; `KeyError` naming the known games if there is none."""
    if name not in _GAMES and name in _INFOS:
        importlib.import_module(_INFOS[name].package)
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
    return sorted(_INFOS)
