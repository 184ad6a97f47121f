"""The table's sound events: every effect and spoken call Parlor plays, listed once.

The tables name what happened (`card`, `trick`, a call such as `chiu`) and hand it to
`ParlorApp.cue`; the settings decide what is heard (effects on/off, voice on/off, the volume);
the player (`ui.sound.player`) finds the file. `scripts/make_sounds.py` makes one OGG file per
effect and one per call and language from these same lists, and a test holds the committed
files, the manifest and these lists equal.

Effects have no words and are the same in every language. Calls are spoken in the UI's
language: the game terms (Ù, Chíu, Meri) as the players of each language would say them, and
Tractor's trump and level calls in words.
"""

from __future__ import annotations

# -- effects -----------------------------------------------------------------------------------
CARD = "card"  # a card played, captured, discarded, buried or drawn from the stock
TRICK = "trick"  # a completed trick is swept to its winner
TURN = "turn"  # the human is to decide
WON = "won"  # the human's side won the deal
LOST = "lost"  # the human's side lost the deal
BID = "bid"  # a declaration: Meri's native Robai, a Tractor trump declaration

EFFECTS: tuple[str, ...] = (CARD, TRICK, TURN, WON, LOST, BID)

# -- spoken calls -----------------------------------------------------------------------------
U = "u"  # Chắn: a win ("Ù!", W-1)
CHIU = "chiu"  # Chắn: a Chíu claim (K-1)
MERI = "meri"  # Meri: a trick led with a trump (H-21)
#: Tractor's trump calls, by the engine's suit index (S, H, C, D, then no-trump: T-8, T-12).
TRUMP_CALLS: tuple[str, ...] = ("trump_spades", "trump_hearts", "trump_clubs", "trump_diamonds",
                                "no_trump")
#: Tractor's level calls, by the engine's level index (2, 3, ..., 10, J, Q, K, A: T-2, T-7).
LEVEL_CALLS: tuple[str, ...] = (
    "level_2", "level_3", "level_4", "level_5", "level_6", "level_7", "level_8", "level_9",
    "level_10", "level_jack", "level_queen", "level_king", "level_ace",
)

CALLS: tuple[str, ...] = (U, CHIU, MERI, *TRUMP_CALLS, *LEVEL_CALLS)

#: The events the GPIO buzzer beeps for too (when one is fitted and sound is on).
BUZZ: frozenset[str] = frozenset({TURN})

#: The outcome of a deal for the human (`ui.table.summary.deal_outcome`) and its sound.
OUTCOME_SOUNDS: dict[str, tuple[str, ...]] = {"win": (WON,), "loss": (LOST,), "draw": ()}


def is_call(name: str) -> bool:
    """A spoken call (gated by the voice setting), not an effect."""
    return name in _CALL_SET


def trump_call(suit: int) -> str:
    """The call for a declared trump suit (the engine's index; 4 = no-trump)."""
    return TRUMP_CALLS[suit]


def level_call(level: int) -> str:
    """The call for a level index (past A still A, as the engine shows it)."""
    return LEVEL_CALLS[min(max(level, 0), len(LEVEL_CALLS) - 1)]


def file_name(name: str, lang: str) -> str:
    """The file of an event under `ui/sounds/`: `fx-card.ogg`, `vi-chiu.ogg`."""
    if name in _EFFECT_SET:
        return f"fx-{name}.ogg"
    if name in _CALL_SET:
        return f"{lang}-{name}.ogg"
    raise KeyError(f"unknown sound event {name!r}")


_EFFECT_SET = frozenset(EFFECTS)
_CALL_SET = frozenset(CALLS)
