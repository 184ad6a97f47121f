"""Each game's UI knowledge in one place: its `UiGame` descriptor, one module per game.

The ui layer used to keep what differs between the games in dicts keyed by the game's name, one
per shared module (the table classes in `ui.app`, the card namers in `ui.card_names`, the decks
in `ui.cards`, the phone's views and decisions, the Why? units …), so a new game meant editing
all of them. Now a game's module `ui.games.<name>` holds a `GAME = UiGame(...)` and the shared
modules read it through `get(name)`; `games()` lists them in the order home and stats show them.
The names are the engine registry's (`engine.registry.names()`): a test checks both lists agree.

No Kivy here, nor in a game's module: the phone server (`ui.remote`) reads these too. What needs
Kivy or a game's engine (a table screen, a deck's art, a function) is named by a lazy
"module:attribute" path (`load`), imported only where it is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine import descriptor, registry

#: A phone pick: (verb written before the card codes, min cards, max cards; 0 = as many as the
#: trick's lead), or None when the phase is answered with buttons only.
Pick = tuple[str, int, int] | None


@dataclass(frozen=True)
class UiGame:
    """What the ui layer knows of one game; paths are "module:attribute" (see `load`)."""

    #: The engine registry's name of the game (`engine.registry.names()`).
    name: str
    #: The table screen class ("ui.table.<game>:<Game>TableScreen"; a `TableScreen`).
    table: str
    #: The table's own kv file under ui/ (loaded after the shared table kv files).
    table_kv: str
    #: The module drawing the deck's art (`ui.cards`): `ASPECT`, `CODES`, `draw_face`, `draw_back`.
    deck_art: str
    #: `(card: int, words: Translator | None) -> str`: one card by name (`ui.card_names`).
    card_namer: str
    #: `(name: str, card: int) -> (big, small)`: a card's name split for a phone tile.
    card_face: str
    #: `(code: str) -> int`: a record code's card (the engine's `parse_card`).
    card_parser: str
    #: What separates the names of a list of cards (`ui.card_names.cards_text`).
    card_separator: str
    #: A regex matching one card code of the game's notation (records.md; no code reaches a person).
    code_pattern: str
    #: Card height in a summary tile (dp, `ui.table.summary_cards`), and of a whole hand there.
    summary_card_dp: float
    summary_hand_dp: float
    #: The deal goes on by cards drawn (Chắn: its progress is the cards revealed), not by tricks.
    draws: bool
    #: Some plays go face down to the other seats (Meri's trumps, H-24): with every hand shown,
    #: the replay shows a seat's table cards as that seat saw them (`ui.screens.replay_steps`).
    facedown_plays: bool
    #: Where in the deal a coached moment was (a msgid with `{n}`: the trick, or the cards
    #: drawn; `ui.table.coach_words.heading`).
    coach_heading: str
    #: `(moment) -> bool`: a coached choice was which card(s) to play ("Playing …"), not
    #: another kind of choice ("Choosing …"; `ui.table.coach_words.is_card_play`).
    coach_card_play: str
    #: The rounding step of a move's gain in words (`ui.table.gains`; Why?, the coach).
    gain_step: int
    #: Why?'s unit note under its list (a msgid, `ui.table.why`).
    why_unit: str
    #: The button that plays the picked cards, by the table's prompt (msgids; default Play).
    pick_buttons: Mapping[str, str]
    #: `(before, seat, action, shown, words) -> str`: an action in words (`ui.table.action_words`).
    action_words: str
    #: A match length of 0 in words (the game's own end) alone and on the seating button
    #: (msgids, `ui.match_length`); "" for the generic "To the end".
    own_end: str
    own_end_match: str
    #: The phone's picks by phase (`ui.remote.decisions`; a phase not here: buttons only).
    phone_picks: Mapping[str, Pick]
    #: The prompt of a phone seat's decision by phase, where it is a fixed sentence (msgids).
    phone_phrases: Mapping[str, str]
    #: `(phase, obs, words, name_of) -> str`: the prompt at any other phase (a card or a seat
    #: named in it).
    phone_prompt: str
    #: `(game, obs) -> dict`: the public table and the seat's hand for the phone page.
    phone_view: str
    #: `() -> list[dict]`: every card once, canonical order, with its colour class (the page).
    phone_deck: str
    #: The guided deal's `Lesson` ("ui.tutorial.<game>:LESSON").
    tutorial: str
    #: The rules page file under ui/ (`ui.screens.rules`).
    rules_page: str


def names() -> list[str]:
    """The engine registry's games (each must have a module `ui.games.<name>`)."""
    return registry.names()


@cache
def get(name: str) -> UiGame:
    """The UI descriptor of the game `name`; `KeyError` if it has none."""
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise KeyError(f"no UI descriptor for game {name!r} (ui/games/{name}.py)") from None
    game = getattr(module, "GAME", None)
    if not isinstance(game, UiGame) or game.name != name:
        raise KeyError(f"ui/games/{name}.py has no GAME = UiGame(name={name!r}, ...)")
    return game


def games() -> tuple[UiGame, ...]:
    """Every game's descriptor, in the games' order (the engine descriptor's `order`: home and
    stats list them so)."""
    return tuple(get(info.name) for info in registry.infos())


#: The attribute a "module:attribute" path names, its module imported on first use: the
#: engine descriptors' `load`, kept once resolved (kv and widgets ask for the same paths often).
load: Callable[[str], Any] = cache(descriptor.load)
