"""What each spoken call says in each language, and the espeak-ng voice that says it.

The game terms are the same word in every language, spelled so that each language's voice says
it close to the original (Vietnamese Ù and Chíu, Japanese Meri); Tractor's trump and level calls
are said in words, with the suit names and the word for trump of the app's catalogs (the UI shows
"Trump: Hearts", "Troef: Harten", ...) and the court cards by their names in that language.
Read by `scripts/make_sounds.py`; a test holds these tables equal to `ui.sound.events.CALLS`.
"""

from __future__ import annotations

#: espeak-ng voice, speed (words per minute) and pitch (0-99) per language.
VOICES: dict[str, tuple[str, int, int]] = {
    "en": ("en-us", 150, 50),
    "vi": ("vi", 140, 50),
    "es": ("es", 150, 50),
    "fr": ("fr-fr", 150, 50),
    "nl": ("nl", 150, 50),
}

_LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")


def _levels(word: str, names: tuple[str, ...]) -> dict[str, str]:
    return {f"level_{key}": f"{word} {name}" for key, name in zip(_LEVELS, names, strict=True)}


TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "u": "Oo!", "chiu": "Chew!", "meri": "Merry!",
        "trump_spades": "Spades are trumps", "trump_hearts": "Hearts are trumps",
        "trump_clubs": "Clubs are trumps", "trump_diamonds": "Diamonds are trumps",
        "no_trump": "No trumps",
        **_levels("Level", ("two", "three", "four", "five", "six", "seven", "eight", "nine",
                            "ten", "jack", "queen", "king", "ace")),
    },
    "vi": {
        "u": "Ù!", "chiu": "Chíu!", "meri": "Mê ri!",
        "trump_spades": "Chủ bích", "trump_hearts": "Chủ cơ", "trump_clubs": "Chủ nhép",
        "trump_diamonds": "Chủ rô", "no_trump": "Không chủ",
        **_levels("Cấp", ("hai", "ba", "bốn", "năm", "sáu", "bảy", "tám", "chín", "mười",
                          "bồi", "đầm", "già", "át")),
    },
    "es": {
        "u": "¡Ú!", "chiu": "¡Chíu!", "meri": "¡Meri!",
        "trump_spades": "Triunfo, picas", "trump_hearts": "Triunfo, corazones",
        "trump_clubs": "Triunfo, tréboles", "trump_diamonds": "Triunfo, diamantes",
        "no_trump": "Sin triunfo",
        **_levels("Nivel", ("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve",
                            "diez", "jota", "reina", "rey", "as")),
    },
    "fr": {
        "u": "Ou !", "chiu": "Tchiou !", "meri": "Méri !",
        "trump_spades": "Atout pique", "trump_hearts": "Atout cœur",
        "trump_clubs": "Atout trèfle", "trump_diamonds": "Atout carreau",
        "no_trump": "Sans atout",
        **_levels("Niveau", ("deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
                             "dix", "valet", "dame", "roi", "as")),
    },
    "nl": {
        "u": "Oe!", "chiu": "Tsjiew!", "meri": "Meerie!",
        "trump_spades": "Schoppen is troef", "trump_hearts": "Harten is troef",
        "trump_clubs": "Klaveren is troef", "trump_diamonds": "Ruiten is troef",
        "no_trump": "Geen troef",
        **_levels("Niveau", ("twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen",
                             "tien", "boer", "vrouw", "heer", "aas")),
    },
}
