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
from ui import card_names
from ui.i18n import N_, tr, trf
from ui.table.reasons import reason, refusal

SUIT_NAMES = (N_("Spades"), N_("Hearts"), N_("Clubs"), N_("Diamonds"), N_("No trump"))


def suit_name(suit: int) -> str:
    return tr(SUIT_NAMES[suit])


def cards_text(kinds: Sequence[int]) -> str:
    """Cards by name in canonical order, `Q♣ Q♣ J♣ J♣` (`ui.card_names`)."""
    return card_names.cards_text("tractor", sorted(kinds))


def play_name(ctx: Any, kinds: Sequence[int]) -> str:
    """`single`, `pair` or `tractor of N pairs` for a valid format, else ''."""
    cards = tuple(sorted(kinds))
    if not cards or shape(ctx, cards)[0] < 0:
        return ""
    if len(cards) == 1:
        return trf("a single {cards}", cards=cards_text(cards))
    if len(cards) == 2:
        return trf("a pair {cards}", cards=cards_text(cards))
    return trf("a tractor of {n} pairs {cards}", n=len(cards) // 2, cards=cards_text(cards))


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


def declaration_label(action: tuple[int, ...]) -> str:
    """Button text of a declaration the human may make."""
    if action == PASS:
        return tr("Pass")
    cards = action[1:]
    if cards[0] == RJ:
        return tr("No trump (red jokers)")
    if cards[0] == BJ:
        return tr("No trump (black jokers)")
    suit = suit_name(KIND_SUIT[cards[0]])
    if len(cards) == 2:
        return trf("{suit}: pair {cards}", suit=suit, cards=cards_text(cards))
    return trf("{suit}: {cards}", suit=suit, cards=cards_text(cards))


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
