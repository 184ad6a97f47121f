"""A card's name for a person: the one owner of how every game names a card in words.

Records, logs and the engine write cards as codes (records.md: `KH`, `O5`, `ORe`, `7C`); a person
never reads one. Everything that names a card on the kiosk (buttons, prompts, Why?, the coach,
summaries, replays, lessons) and on a phone (its tiles, prompts and buttons) names it here:

- **Tractor**: the rank as printed on the card and the suit's symbol, `K♥`, `10♠`, `2♦`; the
  jokers `Red joker` / `Black joker` (T-4: the big and the small one), translated.
- **Hachinin Meri**: suit then rank by their names, as the rules page and the lessons say them
  (`Koppu Sun`, `Ouru 5`, `Pao Robai`); Unsun karuta terms stay untranslated (`ui.i18n`).
- **Chắn**: in Vietnamese the card's own name (`Thất văn`, `Chi chi`); in the other languages
  its rank and suit (`7 Văn`, `3 Sách`: the suit names are game terms, C-3).

A name is given in a translator's language (`ui.i18n.Translator`): the app's current one by
default, a phone seat's own (`ui.remote.strings.Words.translator`) on the phone. No Kivy here:
the phone server uses it too. The Kivy text font carries the suit symbols (`ui.fonts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ui.games import games, get, load
from ui.i18n import N_, Translator, translator

#: The suit symbols of Tractor's suits `S H C D` (engine.tractor.cards.SUITS order).
SUIT_SYMBOLS = "♠♥♣♦"
JOKERS = (N_("Red joker"), N_("Black joker"))  # RJ, BJ (engine.tractor.cards: kinds 0, 1)
CHAN_SUITS = ("Vạn", "Sách", "Văn")  # C-3, the suits M S C
#: What a card code looks like in each game's notation (records.md; `UiGame.code_pattern`), for
#: the tests and checks that no code reaches a person: Meri `P9` `KSu` `ORo`, Tractor `KH` `10S`
#: `RJ`, Chắn `7C` `CC`.
CODE_PATTERNS = {game.name: re.compile(game.code_pattern) for game in games()}
ANY_CODE = re.compile("|".join(p.pattern for p in CODE_PATTERNS.values()))


def _lang(words: Translator | None) -> Translator:
    return translator if words is None else words


def tractor_name(kind: int, words: Translator | None = None) -> str:
    """`K♥`, `10♠`, `Red joker` (a Tractor card kind, engine.tractor.cards)."""
    from engine.tractor.cards import KIND_RANK, KIND_SUIT, RANK_NAMES

    if kind < 2:
        return _lang(words).gettext(JOKERS[kind])
    return RANK_NAMES[KIND_RANK[kind]] + SUIT_SYMBOLS[KIND_SUIT[kind]]


def meri_name(card: int, words: Translator | None = None) -> str:
    """`Koppu Sun`, `Ouru 5` (a Meri card, engine.meri.cards): the same in every language."""
    from engine.meri.cards import name

    return name(card)


def chan_name(face: int, words: Translator | None = None) -> str:
    """`Thất văn` in Vietnamese, `7 Văn` elsewhere; `Chi chi` (a Chắn face, engine.chan.cards)."""
    from engine.chan.cards import RANK, SUIT, VIETNAMESE

    if face == 0 or _lang(words).language == "vi":
        return VIETNAMESE[face]
    return f"{RANK[face]} {CHAN_SUITS[SUIT[face]]}"


def tractor_face(name: str, card: int) -> tuple[str, str]:
    """`K♥` large; a joker's star large and its name under it."""
    return ("★", name) if card < 2 else (name, "")


def meri_face(name: str, card: int) -> tuple[str, str]:
    """The rank (`Sun`, `5`) large, the suit (`Koppu`) under it."""
    suit, rank = name.split(" ", 1)
    return rank, suit


def chan_face(name: str, card: int) -> tuple[str, str]:
    """`7` / `Thất` large, the rest (`Văn`) under it; `Chi chi` whole."""
    if card == 0:
        return name, ""
    big, rest = name.split(" ", 1)
    return big, rest


def card_name(game: str, card: int, words: Translator | None = None) -> str:
    """One card of `game` ("meri", "tractor", "chan") by name, in `words`' language."""
    return load(get(game).card_namer)(card, words)


def card_face(game: str, card: int, words: Translator | None = None) -> tuple[str, str]:
    """The name split for a small tile (the phone's cards): the part printed large (the rank:
    `K♥`, `Sun`, `7` / `Thất`) and the rest printed under it (`Koppu`, `Văn`), or ""."""
    return load(get(game).card_face)(card_name(game, card, words), card)


def parse_code(game: str, code: str) -> int:
    """The card of a record code of `game` (`KeyError`/`MalformedRecord` if it is not one)."""
    return load(get(game).card_parser)(code)


def code_name(game: str, code: str, words: Translator | None = None) -> str:
    """A record code of `game` by name (`KH` -> `K♥`); the code itself if it is not one."""
    try:
        return card_name(game, parse_code(game, code), words)
    except Exception:  # noqa: BLE001 - an unknown text is shown as it is (an older note)
        return code


def cards_text(game: str, cards: Iterable[int], words: Translator | None = None) -> str:
    """Several cards by name in the order given (`Q♣ Q♣ J♣ J♣`; `Ouru 5, Koppu 4`)."""
    return _joined(game, [card_name(game, c, words) for c in cards])


def _joined(game: str, names: list[str]) -> str:
    """Names joined by the game's separator; by commas when a name has a space in it (Tractor's
    jokers: `Red joker, Red joker`)."""
    separator = get(game).card_separator
    if separator == " " and any(" " in name for name in names):
        separator = ", "
    return separator.join(names)


def codes_text(game: str, text: str, words: Translator | None = None) -> str:
    """A text of record codes separated by spaces (and Chắn's pairs by `·`) by name:
    `QC QC JC JC` -> `Q♣ Q♣ J♣ J♣`, Chắn's `CC·CC   9S·9C` -> `Chi chi + Chi chi, 9 Sách + 9 Văn`."""
    if "·" in text:  # Chắn's notation of a pair
        pairs = [pair.split("·") for pair in text.split()]
        return ", ".join(" + ".join(code_name(game, c, words) for c in pair) for pair in pairs)
    return _joined(game, [code_name(game, c, words) for c in text.split()])


def has_code(text: str, game: str | None = None) -> bool:
    """True if `text` holds something that reads as a card code (of `game`, or any game)."""
    pattern = ANY_CODE if game is None else CODE_PATTERNS[game]
    return pattern.search(text) is not None
