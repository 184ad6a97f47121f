"""A recorded action in words, as the tables name it (no widgets here).

The replay viewer says who did what at each step with these words, not the record's codes
("You: Koppu Sun", not "You: KSu"): Meri's cards by name and its buttons' words (Declare, Hide)
as the summary and the table say them; Tractor's bids as their buttons and its plays as the
selection feedback names them ("a tractor of 2 pairs QC QC JC JC"); Chắn's actions as its
hints and buttons ("Capture with 7M", "Discard 8M", "Pass"). A card the seat's neighbours did
not see (Meri's face-down trump and discard, H-24, H-14; Tractor's buried kitty, T-15) stays
unnamed unless `shown`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.i18n import tr, trf


def action_words(game: str, before: Any, seat: int, action: Any, shown: bool) -> str:
    """`action`, made by `seat` from the state `before`, in words; its hidden cards named only
    when `shown` (the seat is the player, or every hand is shown)."""
    return WORDS[game](before, seat, action, shown)


def _meri(before: Any, seat: int, action: Any, shown: bool) -> str:
    from engine.meri.cards import name
    from engine.meri.legal import DECLARE, PASS

    if action == DECLARE:
        return tr("Declare")
    if action == PASS:
        return tr("Hide")
    if before.phase == "discard":  # the receiver's discard is face down (H-14)
        return trf("Discard {card}", card=name(action)) if shown else tr("Discard face down")
    # H-24: a trump played to a trick that is not a Meri, not as its lead, goes face down.
    face_down = before.n_played > 0 and not before.meri and before.tmask >> action & 1
    if not face_down:
        return name(action)
    return trf("{card}, face down", card=name(action)) if shown else tr("A trump, face down")


def _tractor(before: Any, seat: int, action: Any, shown: bool) -> str:
    from engine.tractor.state import BURY, DECLARE, PASS
    from ui.table.tractor_view import cards_text, declaration_label, play_name

    if action == PASS or action[0] == DECLARE:
        return declaration_label(action)
    if action[0] == BURY:  # the kitty stays hidden (T-15)
        return trf("Bury {cards}", cards=cards_text(action[1:])) if shown \
            else tr("Bury 8 cards face down")
    ctx = before.observation(seat).trump_context()
    return play_name(ctx, action) or cards_text(action)


def _chan(before: Any, seat: int, action: Any, shown: bool) -> str:
    from engine.chan.legal import PASS
    from ui.table.chan_view import action_label

    if action == PASS and before.phase in ("heavenly", "win_offer", "chiu_offer"):
        return tr("Decline")  # an offer (Thiên ù, Ù, Chíu) turned down, as its button says
    return action_label(action)


WORDS: dict[str, Callable[[Any, int, Any, bool], str]] = {
    "meri": _meri, "tractor": _tractor, "chan": _chan}
