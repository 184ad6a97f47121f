"""The phone page's words in the seat's language, from the app's gettext catalogs.

`page_strings(lang)` is the dict the page receives when it joins (key -> translated text; the
msgids are marked with `N_` so `python -m ui.locale_build` keeps them in all five catalogs).
`Words(lang)` translates for one seat on the server side: prompts, button labels, a refused
move's reason (the same sentences as the kiosk's, `ui.table.reasons.REASONS`), result lines.
"""

from __future__ import annotations

from functools import lru_cache

from ui.i18n import LANGUAGES, N_, Translator
from ui.table.reasons import REASONS

#: Page key -> English msgid. `{name}` fields are filled in by the page.
PAGE: dict[str, str] = {
    "hand": N_("Your hand"),
    "table": N_("Table"),
    "scores": N_("Scores"),
    "your_turn": N_("Your turn"),
    "waiting": N_("Waiting for {seat}…"),
    "join": N_("Join"),
    "choose_seat": N_("Choose a free seat"),
    "your_name": N_("Your name"),
    "free": N_("free"),
    "taken": N_("taken"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "ai_plays": N_("An AI plays for {seat} until they return."),
    "play": N_("Play"),
    "clear": N_("Clear"),
    "last_trick": N_("Last trick"),
    "open_card": N_("Open card"),
    "stock": N_("Stock: {n}"),
    "trump": N_("Trump: {suit}"),
    "trump_level": N_("Trump: {suit} · level {level}"),
    "no_trump": N_("No trump"),
    "points": N_("Points"),
    "deal_over": N_("End of the deal"),
    "language": N_("Language"),
    "you": N_("You"),
    "err_token": N_("This link is no longer valid: scan the table's QR code again."),
    "err_taken": N_("Another phone holds that seat."),
    "err_name": N_("Someone at this table already has that name: type another."),
    "err_rate": N_("Too many messages: wait a moment."),
    "err_closed": N_("The table has closed."),
    "err_other": N_("The table refused that message ({code})."),
    "seat_n": N_("Seat {n}"),
    "team_with": N_("Team with {names}"),
    "alone": N_("Plays for themself"),
    "kind_ai": N_("AI"),
    "kind_screen": N_("This screen"),
    "code_title": N_("Type the table code"),
    "code_help": N_("The four digits on the table's screen, under the QR code."),
    "err_code": N_("That is not the table's code: look at the screen again."),
    "err_locked": N_("The table code no longer works: scan the QR code."),
}


class Words:
    """Server-side translations for one language (a catalog of its own, not the app's)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.translator = Translator(lang)

    def tr(self, msgid: str) -> str:
        return self.translator.gettext(msgid)

    def trf(self, msgid: str, **values: object) -> str:
        return self.translator.gettext(msgid).format(**values)

    def reason(self, rule: str) -> str:
        """Why the rules refuse a move, in words (the kiosk's sentence for that rule id)."""
        msgid = REASONS.get(rule)
        if msgid is not None:
            return self.tr(msgid)
        return self.trf("That move is not allowed (rule {rule}).", rule=rule)


@lru_cache(maxsize=len(LANGUAGES))
def words(lang: str) -> Words:
    """The shared `Words` of `lang` (catalogs are read once per language)."""
    return Words(lang)


def page_strings(lang: str) -> dict[str, str]:
    """Every page string in `lang`."""
    w = words(lang)
    return {key: w.tr(msgid) for key, msgid in PAGE.items()}
