"""Cards named for people, values in a beginner's words (issue 35, point 3), without widgets.

`ui.card_names` is the one owner of a card's name: Tractor `K♥` and the jokers translated,
Meri's suits and ranks by name, Chắn's cards in Vietnamese or by rank and suit. Each text that
used to carry a record code is checked here for each game: Tractor's declaration buttons, bids
and selection feedback, Meri's side cards and native Robai prompt, Chắn's buttons and events,
the summaries' lines, Why?'s candidates ("gives up about 3 points", never "−2.6"), the coach's
sentence (rounded to the game's step) and its threshold (quiet under one Meri point), a lesson's
"follow" line and the phone's deck, buttons and prompts.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from engine.ai.coach import moment_of
from engine.ai.why import SEARCH, Why
from ui import card_names
from ui.card_names import CODE_PATTERNS, has_code
from ui.i18n import LANGUAGES, Translator, translator

RECORDS = Path(__file__).parents[1] / "engine" / "records" / "coach"


@pytest.fixture(autouse=True)
def english() -> Any:
    translator.set_language("en")
    yield
    translator.set_language("en")


def record(game: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{game}.json").read_text(encoding="utf-8"))


def state_at(game: str, index: int) -> Any:
    """The state of the game's coach record before its action `index`."""
    from ui.table.coach_words import state_before

    return state_before(record(game), index)


def registry_format(game: str, action: Any) -> str:
    from engine import registry

    return registry.get(game).format_action(action)


# -- the names ----------------------------------------------------------------------------------
def test_each_game_names_its_cards_in_the_players_language() -> None:
    from engine.chan.cards import parse_card as chan_card
    from engine.meri.cards import parse_card as meri_card
    from engine.tractor.cards import parse_card as tractor_card

    assert card_names.card_name("tractor", tractor_card("KH")) == "K♥"
    assert card_names.card_name("tractor", tractor_card("10S")) == "10♠"
    assert card_names.card_name("tractor", tractor_card("RJ")) == "Red joker"
    assert card_names.card_name("tractor", tractor_card("BJ"), Translator("fr")) == "Joker noir"
    assert card_names.card_name("meri", meri_card("KSu")) == "Koppu Sun"
    assert card_names.codes_text("meri", "O5 K4 ORe") == "Ouru 5, Koppu 4, Ouru Rei"
    assert card_names.card_name("chan", chan_card("7C")) == "7 Văn"
    assert card_names.card_name("chan", chan_card("7C"), Translator("vi")) == "Thất văn"
    assert card_names.card_name("chan", chan_card("CC")) == "Chi chi"
    assert card_names.codes_text("chan", "CC·CC   9S·9C") == "Chi chi + Chi chi, 9 Sách + 9 Văn"


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_no_name_reads_as_a_code_in_any_language(game: str) -> None:
    """Every card of every deck, in every language: a name, never a code of any game."""
    count = {"meri": 75, "tractor": 54, "chan": 25}[game]
    for lang in LANGUAGES:
        words = Translator(lang)
        names = [card_names.card_name(game, c, words) for c in range(count)]
        assert [n for n in names if has_code(n)] == [], (lang, names)
        assert len(set(names)) == count


def test_the_code_patterns_find_the_codes_of_issue_35() -> None:
    for game, text in (("tractor", "Hearts: 2H"), ("tractor", "3S: about −2.6 points"),
                       ("tractor", "a single 7S instead of a single 10S"),
                       ("meri", "Side cards: O5 K4 ORe"), ("chan", "Capture with 7C"),
                       ("tractor", "KH")):
        assert CODE_PATTERNS[game].search(text), text
    assert not has_code("Hearts: 2♥ · OK · Koppu Sun · 7 Văn · Red joker")


# -- Tractor --------------------------------------------------------------------------------
def test_tractor_declarations_bids_and_plays_by_name() -> None:
    from engine.tractor.cards import parse_card
    from engine.tractor.state import DECLARE
    from ui.table import tractor_view as view

    two_h = parse_card("2H")
    assert view.declaration_label((DECLARE, two_h)) == "Hearts: 2♥"
    assert view.declaration_label((DECLARE, two_h, two_h)) == "Hearts: pair 2♥ 2♥"
    assert view.bid_status((DECLARE, two_h)) == "declared 2♥"
    state = state_at("tractor", record("tractor")["expect"]["index"])
    ctx = state.observation(0).trump_context()
    assert view.play_name(ctx, (parse_card("7S"),)) == "a single 7♠"
    assert view.cards_text([parse_card("QC")] * 2) == "Q♣ Q♣"


def test_tractor_summary_names_its_point_cards_and_kitty() -> None:
    from ui.table.base import CARD_FIELDS

    assert {"cards", "card", "w", "y", "pairs"} <= CARD_FIELDS
    assert card_names.codes_text("tractor", "KH 10S 5D") == "K♥ 10♠ 5♦"


# -- Meri -----------------------------------------------------------------------------------
def test_meri_lines_by_name() -> None:
    from engine.meri.cards import parse_card
    from ui.table.action_words import action_words

    state = state_at("meri", record("meri")["expect"]["index"])
    side = state.observation(0).side  # what the table's "Side cards" line shows
    assert side
    assert card_names.cards_text("meri", side) == ", ".join(
        card_names.card_name("meri", c) for c in side)
    assert not has_code(card_names.cards_text("meri", side))
    card = parse_card("ISu")
    assert action_words("meri", state, state.to_act, card, True) == "Isu Sun"


# -- Chắn -----------------------------------------------------------------------------------
def test_chan_buttons_and_refusals_by_name() -> None:
    from engine.chan.cards import parse_card
    from engine.chan.legal import DISCARD_BASE
    from ui.table import chan_view as view

    seven = parse_card("7C")
    assert view.action_label(seven) == "Capture with 7 Văn"
    assert view.action_label(DISCARD_BASE + parse_card("8M")) == "Discard 8 Vạn"
    translator.set_language("vi")
    assert view.action_label(seven).endswith("Thất văn")


# -- Why? -----------------------------------------------------------------------------------
def test_why_says_each_move_against_the_one_played_in_words() -> None:
    from engine.tractor.cards import parse_card
    from ui.table.why import panel_lines

    state = state_at("tractor", record("tractor")["expect"]["index"])
    ctx = state.observation(0).trump_context()
    from ui.table.tractor_view import play_name

    seven, ten, king = (parse_card(c) for c in ("7S", "10S", "KS"))
    why = Why(SEARCH, (seven,), (((seven,), 4.1, 1.0), ((king,), 3.0, 1.0),
                                 ((ten,), -12.6, 2.0)), worlds=40, playouts=400, weighed=3)
    _title, lines, note = panel_lines("tractor", 1, why, lambda a: play_name(ctx, a))
    text = "\n".join(lines)
    assert "a single 7♠  — the one it played" in text
    assert "a single K♠: about as good" in text  # 1.1 card points: nothing to weigh
    assert "a single 10♠: gives up about 15 points" in text  # 16.7, in Tractor's fives
    assert not has_code(text) and "−" not in text and "-" not in text
    assert "40 sampled deals" in note


@pytest.mark.parametrize("game,difference,words", [
    ("meri", -2.6, "gives up about 3 points"), ("meri", 0.4, "about as good"),
    ("meri", 1.2, "wins about 1 point more"), ("chan", -0.7, "gives up about 1 point"),
    ("tractor", 7.0, "wins about 5 points more"), ("tractor", -2.0, "about as good")])
def test_differences_in_a_beginners_words(game: str, difference: float, words: str) -> None:
    from ui.table.gains import difference_words

    assert difference_words(game, difference) == words


# -- the coach ------------------------------------------------------------------------------
def test_the_coach_sentence_names_the_cards_and_rounds_to_the_games_step() -> None:
    from ui.table.coach_words import sentence, state_before

    data = record("tractor")
    index = data["expect"]["index"]
    before = state_before(data, index)
    moment = {"kind": "coach", "index": index, "seat": 0, "phase": "play", "played": "10S",
              "best": "7S", "gain": 13.6, "worlds": 32}
    text = sentence("tractor", moment, before)
    assert text == ("Playing a single 7♠ instead of a single 10♠ would have won your side "
                    "about 15 more points.")
    data = record("meri")
    index = data["expect"]["index"]
    before = state_before(data, index)
    best = next(a for a in before.legal_actions() if a != before.legal_actions()[0])
    meri = dict(moment, index=index, played=registry_format("meri", before.legal_actions()[0]),
                best=registry_format("meri", best), gain=1.4)
    meri_text = sentence("meri", meri, before)
    assert meri_text.endswith("would have won your side about 1 more point.")
    assert not has_code(meri_text)


def test_the_coach_is_quiet_under_one_meri_point() -> None:
    """0.6 Meri points (what it flagged before issue 35) is no moment; 1.2 is one."""
    def weighing(gain: float) -> Any:
        rows = [SimpleNamespace(action="best", value=gain, spread=0.05),
                SimpleNamespace(action="played", value=0.0, spread=0.05)]
        return SimpleNamespace(chosen="best", candidates=rows,
                               value_of=lambda a: gain if a == "best" else 0.0)

    assert moment_of("meri", weighing(0.6), "played") is None
    assert moment_of("meri", weighing(1.2), "played") is not None


# -- the phone ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_the_phone_tiles_show_names_not_codes(game: str) -> None:
    from ui.remote.views import deck

    for lang in LANGUAGES:
        for card in deck(game, lang):
            shown = " ".join((card["label"], card["big"], card["sub"]))
            assert not has_code(shown) and card["code"] not in shown.split(), (lang, card)
    tiles = {card["code"]: card for card in deck("tractor")}
    assert (tiles["KH"]["big"], tiles["KH"]["label"]) == ("K♥", "K♥")


def test_the_phone_buttons_and_prompts_name_the_cards() -> None:
    from engine.session import Session
    from ui.remote.decisions import _label, chan_prompt
    from ui.remote.strings import words

    def label(game: str, action: str, lang: str) -> str:
        session = Session.new(game, 1)
        return _label(session.game, session.state, 0, action, words(lang))

    assert label("tractor", "declare 2H 2H", "en") == "Hearts: pair 2♥ 2♥"  # the kiosk's button
    assert label("chan", "capture 7C", "vi").endswith("Thất văn")
    assert label("chan", "discard 8M", "en") == "Discard 8 Vạn"
    obs = SimpleNamespace(open_card=1, open_owner=1, seat=0)
    text = chan_prompt("win_offer", obs, words("en"), lambda s: f"AI {s}")
    assert text.startswith("9 Vạn was just revealed") and not has_code(text)


# -- the rules pages --------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_the_rules_pages_name_cards_in_their_text(game: str) -> None:
    """A rules page's words name cards (its `cards` lists are drawn as pictures)."""
    pages = json.loads((Path(__file__).parents[2] / "ui" / "rules" / f"{game}.json")
                       .read_text(encoding="utf-8"))
    texts = [value for sections in pages.values() for section in sections
             for key, value in section.items() if key != "cards" and isinstance(value, str)]
    assert texts and [t for t in texts if CODE_PATTERNS[game].search(t)] == []
