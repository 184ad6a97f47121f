"""Why a move was refused, in words: an `IllegalAction`'s rule id -> a translatable sentence."""

from __future__ import annotations

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
}


def reason(rule: str) -> str:
    """The translated sentence for `rule`, or a generic one naming the rule id."""
    msgid = REASONS.get(rule)
    if msgid is not None:
        return tr(msgid)
    return trf("That move is not allowed (rule {rule}).", rule=rule)
