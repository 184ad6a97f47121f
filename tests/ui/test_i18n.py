"""Languages (issue 6 item 6): five gettext catalogs, complete and compiled; runtime switching;
the rules pages in every language; Vietnamese diacritics present in the shipped font."""

from __future__ import annotations

import gettext
import json
import re
import string
import struct
from pathlib import Path

import pytest

from ui import i18n, locale_build
from ui.screens.rules import RULES_DIR, load_rules


def test_catalogs_are_complete_and_compiled() -> None:
    """Every msgid used in ui/ is translated in vi/es/fr/nl and every .mo matches its .po."""
    assert locale_build.problems() == []


def test_mo_compiler_round_trips_through_gettext(tmp_path: Path) -> None:
    entries = {"Play": "Chơi", "Trick {n} of 9": "Lượt {n}/9", "Untranslated": ""}
    path = tmp_path / "t.mo"
    path.write_bytes(locale_build.compile_mo("vi", entries))
    with path.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    assert catalog.gettext("Play") == "Chơi"
    assert catalog.gettext("Trick {n} of 9") == "Lượt {n}/9"
    assert catalog.gettext("Untranslated") == "Untranslated"


def test_switching_languages_and_unknown_language() -> None:
    translator = i18n.Translator()
    assert translator.gettext("Settings") == "Settings"
    expected = {"vi": "Cài đặt", "es": "Ajustes", "fr": "Réglages", "nl": "Instellingen"}
    for lang, text in expected.items():
        translator.set_language(lang)
        assert translator.gettext("Settings") == text
    with pytest.raises(ValueError, match="unknown language 'de'"):
        translator.set_language("de")
    assert translator.language == "nl"  # a refused switch changes nothing


def test_game_terms_stay_in_their_own_language() -> None:
    translator = i18n.Translator()
    for lang in ("vi", "es", "fr", "nl"):
        translator.set_language(lang)
        assert "Okie" in translator.gettext("took the Okie")
        assert "Robai" in translator.gettext("Only the holder of the native Robai may declare.")
        assert translator.gettext("Hachinin Meri") == "Hachinin Meri"


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_rules_pages_exist_in_every_language_with_valid_card_images(game: str) -> None:
    from ui.cards import CODES

    pages = load_rules(game)
    assert set(pages) == set(i18n.LANGUAGES)
    lengths = {lang: len(sections) for lang, sections in pages.items()}
    assert len(set(lengths.values())) == 1, lengths  # same sections in every language
    for sections in pages.values():
        for section in sections:
            assert section["title"] and len(section["body"]) > 40
            for code in section.get("cards", []):
                assert code in CODES[game], code
    assert (RULES_DIR / f"{game}.json").is_file()


def _cmap(path: Path) -> set[int]:
    """Code points of a TrueType font's Unicode cmap (formats 4 and 12)."""
    data = path.read_bytes()
    num_tables = struct.unpack(">H", data[4:6])[0]
    tables = {}
    for i in range(num_tables):
        tag, _sum, offset, _length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        tables[tag] = offset
    base = tables[b"cmap"]
    count = struct.unpack(">H", data[base + 2 : base + 4])[0]
    points: set[int] = set()
    for i in range(count):
        _pid, _eid, sub = struct.unpack(">HHI", data[base + 4 + 8 * i : base + 12 + 8 * i])
        at = base + sub
        fmt = struct.unpack(">H", data[at : at + 2])[0]
        if fmt == 4:
            segs = struct.unpack(">H", data[at + 6 : at + 8])[0] // 2
            ends = struct.unpack(f">{segs}H", data[at + 14 : at + 14 + 2 * segs])
            starts_at = at + 16 + 2 * segs
            starts = struct.unpack(f">{segs}H", data[starts_at : starts_at + 2 * segs])
            for start, end in zip(starts, ends, strict=True):
                points.update(range(start, end + 1))
        elif fmt == 12:
            groups = struct.unpack(">I", data[at + 12 : at + 16])[0]
            for g in range(groups):
                start, end, _glyph = struct.unpack(">III", data[at + 16 + 12 * g : at + 28 + 12 * g])
                points.update(range(start, end + 1))
    return points


def test_the_default_font_has_every_character_of_every_catalog_and_rules_page() -> None:
    """Vietnamese needs its diacritics (ắ, ệ, ữ …): Kivy's Roboto must have each glyph used."""
    import kivy

    font = Path(kivy.kivy_data_dir) / "fonts" / "Roboto-Regular.ttf"
    available = _cmap(font)
    text = ""
    text += "".join(locale_build.msgids())  # the English msgids
    for lang in i18n.LANGUAGES:
        po, _mo = locale_build.paths(lang)
        text += "".join(locale_build.read_po(po).values())
    for game in ("meri", "tractor", "chan"):
        text += json.dumps(load_rules(game), ensure_ascii=False)
    text += "".join(i18n.LANGUAGES.values())
    missing = sorted({c for c in text if ord(c) > 32 and ord(c) not in available})
    assert missing == [], f"glyphs missing from {font.name}: {missing}"


def _engine_texts() -> set[str]:
    """Every `Line` text the engines produced over whole matches played by heuristic bots
    (deal results, each side's lines, match standings), a few per game."""
    from engine import registry
    from engine.ai.bots import make_bot

    texts: set[str] = set()
    for name in ("meri", "tractor", "chan"):
        game = registry.get(name)
        for seed in range(4):
            match = game.new_match(seed, deals=4) if name == "chan" else game.new_match(seed)
            bots = [make_bot(name, "heuristic", seed * 10 + s) for s in range(game.players)]
            for _deal in range(60):  # a Tractor match ends well before
                if match.is_over:
                    break
                state = match.next_deal()
                while not state.is_over:
                    seat = state.to_act
                    state.apply(bots[seat].choose(state.observation(seat), state.legal_actions()))
                results = [game.deal_result(state)]
                match.finish_deal(state)
                results.append(match.result())
                for result in results:
                    lines = list(result.lines) + [x for side in result.sides for x in side.lines]
                    texts.update(line.text for line in lines)
    return texts


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_every_result_line_the_engines_produce_is_translated() -> None:
    """The summaries show the engine's `Line`s: each text a finished deal or match can carry
    is in the catalogs (found from the source, `locale_build.engine_msgids`, which covers what
    real matches produce) and translated in every language with the same {fields}."""
    produced = _engine_texts()
    known = set(locale_build.engine_msgids())
    assert len(produced) > 25 and produced <= known, sorted(produced - known)
    for lang in i18n.LANGUAGES:
        if lang == "en":
            continue
        entries = locale_build.read_po(locale_build.paths(lang)[0])
        for text in known:
            assert entries.get(text), (lang, text)
            assert _fields(entries[text]) == _fields(text), (lang, text, entries[text])



# A literal handed to a translation call the catalogs' extractor does not read (`tr`, `trf`,
# `N_` only): it would never reach a catalog, and every language would show it in English.
HIDDEN_MSGID = re.compile(r"""\b(\w*(?:gettext|trf))\(\s*(?:[\w.]+\s*,\s*)?["']""")


def test_every_literal_given_to_a_translation_call_is_extracted() -> None:
    """A string translated through a helper (`_trf(words, "a single {cards}")`) or straight
    through `gettext` is marked `N_(...)`, so the catalogs hold it (they had lost Tractor's play
    and declaration names this way: Spanish showed "a single 7♠")."""
    found = []
    for path in sorted(locale_build.UI_DIR.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in HIDDEN_MSGID.finditer(line):
                if match.group(1) not in ("tr", "trf"):
                    found.append(f"{path.relative_to(locale_build.UI_DIR)}:{number}: {line.strip()}")
    assert not found, "mark these msgids N_(...):\n" + "\n".join(found)


def test_tractor_plays_are_named_in_every_language() -> None:
    from engine.tractor.cards import context
    from ui.table.tractor_view import play_name

    ctx = context(0, 0)
    english = play_name(ctx, [5], i18n.Translator("en"))
    for lang in ("es", "fr", "nl", "vi"):
        assert play_name(ctx, [5], i18n.Translator(lang)) != english, lang
