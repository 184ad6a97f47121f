"""A table's actions in words, as the tables name them (no widgets here): the one owner of the
words on the kiosk's action buttons and the phone page's.

The replay viewer says who did what at each step with these words, not the record's codes
("You: Koppu Sun", not "You: KSu"): Meri's cards by name and its buttons' words (Declare, Hide)
as the summary and the table say them; Tractor's bids as their buttons and its plays as the
selection feedback names them ("a tractor of 2 pairs QC QC JC JC"); Chắn's actions as its
hints and buttons ("Capture with 7M", "Discard 8M", "Pass"). A card the seat's neighbours did
not see (Meri's face-down trump and discard, H-24, H-14; Tractor's buried kitty, T-15) stays
unnamed unless `shown`.

The buttons: `pick_button(game, prompt)` is the button that plays the picked cards (Meri Play
or Discard, Tractor Play or Bury, Chắn Capture or Discard), `OFFER_BUTTONS` Chắn's answers to
an offer; the kiosk's kv and the phone's decisions (`ui.remote.decisions`) both read them, and
the phone's other buttons are `action_words` in the seat's own language (`words`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.games import get, load
from ui.i18n import N_, Translator, translator

#: Chắn's offers (C-24 Thiên ù, the Ù of a revealed card, K-1 Chíu): (take it, turn it down).
OFFER_BUTTONS: dict[str, tuple[str, str]] = {
    "heavenly": (N_("Ù!"), N_("Decline")),
    "win_offer": (N_("Ù!"), N_("Decline")),
    "chiu_offer": (N_("Chíu"), N_("Pass")),
}


def pick_button(game: str, prompt: str) -> str:
    """The msgid of the button that plays the picked cards at `prompt` (translate it where
    shown: the kv with `app.tr(...)`, the phone in its seat's language)."""
    return get(game).pick_buttons.get(prompt, N_("Play"))


def offer_button(offer: str, take: bool) -> str:
    """The msgid of the button that takes (`take`) or turns down Chắn's `offer`."""
    accept, decline = OFFER_BUTTONS.get(offer, OFFER_BUTTONS["win_offer"])
    return accept if take else decline


def action_words(game: str, before: Any, seat: int, action: Any, shown: bool,
                 words: Translator | None = None) -> str:
    """`action`, made by `seat` from the state `before`, in words; its hidden cards named only
    when `shown` (the seat is the player, or every hand is shown). In `words`' language (a
    phone seat's), else the app's."""
    return load(get(game).action_words)(before, seat, action, shown, words or translator)


def meri_words(before: Any, seat: int, action: Any, shown: bool, words: Translator) -> str:
    from engine.meri.cards import name
    from engine.meri.legal import DECLARE, PASS

    tr, trf = _translate(words)
    if action == DECLARE:
        return tr("Declare")
    if action == PASS:  # every pass reads the same: who held the native Robai stays hidden
        return tr("Hide")
    if before.phase == "discard":  # the receiver's discard is face down (H-14)
        return trf("Discard {card}", card=name(action)) if shown else tr("Discard face down")
    # H-24: a trump played to a trick that is not a Meri, not as its lead, goes face down.
    face_down = before.n_played > 0 and not before.meri and before.tmask >> action & 1
    if not face_down:
        return name(action)
    return trf("{card}, face down", card=name(action)) if shown else tr("A trump, face down")


def tractor_words(before: Any, seat: int, action: Any, shown: bool, words: Translator) -> str:
    from engine.tractor.state import BURY, DECLARE, PASS
    from ui.table.tractor_view import cards_text, declaration_label, play_name

    tr, trf = _translate(words)
    if action == PASS or action[0] == DECLARE:
        return declaration_label(action, words)
    if action[0] == BURY:  # the kitty stays hidden (T-15)
        return trf("Bury {cards}", cards=cards_text(action[1:], words)) if shown \
            else tr("Bury 8 cards face down")
    ctx = before.observation(seat).trump_context()
    return play_name(ctx, action, words) or cards_text(action, words)


def chan_words(before: Any, seat: int, action: Any, shown: bool, words: Translator) -> str:
    from engine.chan.legal import CHIU, PASS, WIN

    if before.phase in OFFER_BUTTONS and action in (PASS, CHIU, WIN):
        return words.gettext(offer_button(before.phase, action != PASS))  # as its button says
    return chan_action(action, words)


def chan_action(action: int, words: Translator | None = None) -> str:
    """A Chắn action as its hints and buttons say it: `Capture with 7 Văn`, `Discard 8 Vạn`,
    `Pass`, `Chíu`, `Ù!` (cards by name in `words`' language, `ui.card_names`)."""
    from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
    from ui.card_names import chan_name

    tr, trf = _translate(words or translator)
    if action == PASS:
        return tr("Pass")
    if action == CHIU:
        return tr("Chíu")
    if action == WIN:
        return tr("Ù!")
    if action < DISCARD_BASE:
        return trf("Capture with {card}", card=chan_name(action, words))
    return trf("Discard {card}", card=chan_name(action - DISCARD_BASE, words))


def _translate(words: Translator) -> tuple[Callable[[str], str], Callable[..., str]]:
    """`tr` and `trf` in `words`' language."""
    def trf(msgid: str, **values: object) -> str:
        return words.gettext(msgid).format(**values)
    return words.gettext, trf

