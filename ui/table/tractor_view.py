"""What the Tractor table says and in which order it shows cards (no widgets here).

Pure functions over the engine's ints and seat 0's observation: the hand order (effective suits
with the trumps together: `engine.tractor.order`, shared with the phone page), names of suits and plays, the live feedback on a card selection
(single / pair / tractor, or why it cannot be played: the engine's rule id in words), the
declaration buttons, a seat's bid, the trump line and the attackers' point cards. The
end-of-deal summary is the engine's `DealResult`, drawn by `ui.table.summary`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.tractor import BURY, DECLARE, PASS
from engine.tractor.cards import (
    BJ,
    KIND_SUIT,
    POINTS,
    RJ,
    shape,
)
from engine.tractor.order import SUIT_ORDER, hand_kinds, hand_order  # noqa: F401  (one owner)
from engine.tractor.scoring import level_name
from ui.card_names import cards_text as card_list_text
from ui.i18n import N_, Translator, tr, translator, trf
from ui.table.reasons import reason, refusal

SUIT_NAMES = (N_("Spades"), N_("Hearts"), N_("Clubs"), N_("Diamonds"), N_("No trump"))


def suit_name(suit: int, words: Translator | None = None) -> str:
    return (words or translator).gettext(SUIT_NAMES[suit])


def cards_text(kinds: Sequence[int], words: Translator | None = None) -> str:
    """Cards by name in canonical order, `Q♣ Q♣ J♣ J♣` (`ui.card_names`)."""
    return card_list_text("tractor", sorted(kinds), words)


def _trf(words: Translator | None, msgid: str, **values: object) -> str:
    return (words or translator).gettext(msgid).format(**values)


def play_name(ctx: Any, kinds: Sequence[int], words: Translator | None = None) -> str:
    """`single`, `pair` or `tractor of N pairs` for a valid format, else '' (in `words`'
    language: a phone seat's; else the app's)."""
    cards = tuple(sorted(kinds))
    if not cards or shape(ctx, cards)[0] < 0:
        return ""
    text = cards_text(cards, words)
    if len(cards) == 1:
        return _trf(words, N_("a single {cards}"), cards=text)
    if len(cards) == 2:
        return _trf(words, N_("a pair {cards}"), cards=text)
    return _trf(words, N_("a tractor of {n} pairs {cards}"), n=len(cards) // 2, cards=text)


def selection_feedback(state: Any, obs: Any, kinds: Sequence[int]) -> tuple[str, bool]:
    """(what the selection is or why it cannot be played, playable?) for the human's turn:
    read from the human's observation `obs`; `state` only to ask the engine whether it would
    refuse the play (and by which rule)."""
    cards = tuple(sorted(kinds))
    if obs.phase == "bury":
        points = sum(POINTS[k] for k in cards)
        text = trf("{n} of 8 cards chosen to bury", n=len(cards))
        if points:
            text += "  " + trf("({points} points in them)", points=points)
        return text, len(cards) == 8
    if obs.phase != "play":
        return "", False
    ctx = obs.trump_context()
    lead = obs.trick[0] if obs.trick else None
    if not cards:
        if lead is None:
            return tr("Your lead: choose a single, a pair or a tractor."), False
        return trf("Follow with {n} cards.", n=len(lead)), False
    if lead is not None and len(cards) < len(lead):
        return trf("{k} of {n} cards chosen.", k=len(cards), n=len(lead)), False
    rule = refusal(state, cards)
    if rule is not None:
        return reason(rule), False
    name = play_name(ctx, cards)
    if lead is None:
        return trf("You lead {play}.", play=name), True
    return (trf("You play {play}.", play=name) if name
            else trf("You play {cards}.", cards=cards_text(cards))), True


def declaration_label(action: tuple[int, ...], words: Translator | None = None) -> str:
    """Button text of a declaration the player may make (in `words`' language, else the
    app's): the kiosk's buttons and the phone's."""
    t = words or translator
    if action == PASS:
        return t.gettext(N_("Pass"))
    cards = action[1:]
    if cards[0] == RJ:
        return t.gettext(N_("No trump (red jokers)"))
    if cards[0] == BJ:
        return t.gettext(N_("No trump (black jokers)"))
    suit = suit_name(KIND_SUIT[cards[0]], t)
    if len(cards) == 2:
        return _trf(t, N_("{suit}: pair {cards}"), suit=suit, cards=cards_text(cards, t))
    return _trf(t, N_("{suit}: {cards}"), suit=suit, cards=cards_text(cards, t))


def bid_status(action: tuple[int, ...]) -> str:
    """A seat's last bid, for its badge."""
    if action == PASS:
        return tr("passed")
    if action and action[0] == DECLARE:
        return trf("declared {cards}", cards=cards_text(action[1:]))
    return ""


def trump_line(obs: Any) -> str:
    level = level_name(obs.level)
    if obs.trump < 0:
        return trf("Level {level}: trump not declared yet", level=level)
    return trf("Trump: {suit} · level {level}", suit=suit_name(obs.trump), level=level)


def point_cards(obs: Any) -> list[int]:
    """The point cards (T-25) in the tricks the attackers have won so far."""
    attackers = 1 - obs.dealer % 2 if obs.dealer >= 0 else -1
    out = []
    for _leader, plays, winner in obs.tricks:
        if winner % 2 == attackers:
            out.extend(k for cards in plays for k in cards if POINTS[k])
    return sorted(out)


def is_bury(action: Any) -> bool:
    return isinstance(action, tuple) and bool(action) and action[0] == BURY
