"""Languages: gettext catalogs in `ui/locale/<lang>/LC_MESSAGES/parlor.mo`, switchable at runtime.

English is the source language (msgids); the other four come from catalogs built by
`python -m ui.locale_build`. Game terms (Meri, Okie, Tenka, Chắn, Cạ, Robai, …) stay untranslated.
Widgets update on a switch because kv rules read `app.tr(msgid, app.lang)`: the `app.lang`
argument makes kv re-evaluate the text when the language changes.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "parlor"
LOCALE_DIR = Path(__file__).with_name("locale")
# Language code -> its name in its own language (what the settings screen shows).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "vi": "Tiếng Việt",
    "es": "Español",
    "fr": "Français",
    "nl": "Nederlands",
}


class Translator:
    """The current catalog; `gettext(msgid)` translates, English passes through."""

    def __init__(self, language: str = "en") -> None:
        self.language = "en"
        self._catalog: gettext.NullTranslations = gettext.NullTranslations()
        self.set_language(language)

    def set_language(self, language: str) -> None:
        """Switch catalogs; `ValueError` naming the known languages if `language` is not one."""
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
        if language == "en":
            self._catalog = gettext.NullTranslations()
        else:
            try:
                self._catalog = gettext.translation(DOMAIN, LOCALE_DIR, [language])
            except OSError as exc:  # a missing catalog is a packaging error: say which
                raise ValueError(f"no catalog for {language!r} in {LOCALE_DIR}: {exc}") from None
        self.language = language

    def gettext(self, msgid: str) -> str:
        return self._catalog.gettext(msgid)


# The translator the app uses; a module-level instance so non-widget code (summaries) can share it.
translator = Translator()


def tr(msgid: str, *_deps: object) -> str:
    """Translate `msgid` in the current language (extra args only create kv bindings)."""
    return translator.gettext(msgid)


def N_(msgid: str) -> str:
    """Mark a string for the catalogs without translating it yet (tables of messages)."""
    return msgid


def trf(msgid: str, **values: object) -> str:
    """Translate a message with `{name}` fields, then fill them in."""
    return translator.gettext(msgid).format(**values)


#: The languages writing 1.5 with a decimal point; the others write 1,5.
DECIMAL_POINT = ("en",)


def number(value: float, decimals: int = 0, signed: bool = False) -> str:
    """`value` to `decimals` places as the current language writes it (its decimal mark, "−" for
    minus); "+" before a positive value if `signed`. A value that rounds to zero has no sign."""
    text = f"{abs(value):.{decimals}f}"
    if translator.language not in DECIMAL_POINT:
        text = text.replace(".", ",")
    if float(f"{abs(value):.{decimals}f}") == 0:
        return text
    if value < 0:
        return "−" + text
    return "+" + text if signed else text
