"""Why a move was refused, in words: an `IllegalAction`'s rule id -> a translatable sentence, and
the rule an action would break (asked of the engine on a copy of the state)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from ui.i18n import N_, tr, trf

# Rule ids of every game -> English msgid (translated through the catalogs).
REASONS: dict[str, str] = {
    "turn": N_("It is not your turn to do that."),
    "held": N_("You do not hold that card."),
    "H-12": N_("Only the holder of the native Robai may declare."),
    "H-14": N_("Discard a card that is not a trump."),
    "H-22": N_("You may not lead a trump in the first trick while you hold a non-trump card."),
    "H-25": N_("A Meri was led and you hold a trump: you must play a trump."),
    "H-27": N_("Monchi: after the first Meri, follow the led suit or play a trump."),
    # Tractor (shared/rules/tractor.md)
    "T-8": N_("Declare with one level card, a pair of level cards or a pair of jokers."),
    "T-9": N_("A declaration must be stronger than the one standing."),
    "T-15": N_("Bury exactly 8 cards."),
    "T-16": N_("Lead a single, a pair or a tractor (consecutive pairs) of one suit."),
    "T-18": N_("Play as many cards as the lead."),
    "T-19": N_("Follow the led suit as far as you can."),
    "T-20": N_("Include as many pairs of the led suit as you can."),
    # Chắn (shared/rules/chan.md)
    "C-6": N_("Capture with the same card (Chắn) or the same rank in another suit (Cạ)."),
    "C-15": N_("You hold the same card: the capture must be a Chắn."),
    "C-16": N_("That card is part of a pair: a Cạ may not break it."),
    "C-17": N_("Your hand already pairs a Cạ of that rank."),
    "C-18": N_("No Cạ while your hand has exactly one unpaired card."),
    "C-19": N_("You refused that Chắn earlier: it may not be used in a Cạ."),
    "C-20": N_("You discarded that face (or used it in a Cạ) earlier: you may not capture it."),
    "C-21": N_("You discarded both cards of a Cạ: no more Cạ captures."),
    "C-22": N_("That capture would leave you no legal discard."),
    "X-1": N_("That card is part of a pair: discarding it would break the pair."),
    "X-2": N_("You refused that Chắn earlier: you may not discard it."),
    "X-3": N_("After a Cạ capture, do not discard a card making a Cạ with an earlier discard."),
}


def reason(rule: str) -> str:
    """The translated sentence for `rule`, or a generic one naming the rule id."""
    msgid = REASONS.get(rule)
    if msgid is not None:
        return tr(msgid)
    return trf("That move is not allowed (rule {rule}).", rule=rule)


def refusal(state: Any, action: Any) -> str | None:
    """The rule id the engine would refuse `action` with, or None if it is legal."""
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return exc.rule
    return None
