"""Tractor's UI descriptor: its table, French deck with two jokers, card names, phone and lesson."""

from __future__ import annotations

from types import MappingProxyType

from ui.games import UiGame
from ui.i18n import N_

GAME = UiGame(
    name="tractor",
    table="ui.table.tractor:TractorTableScreen",
    table_kv="table/tractor.kv",
    deck_art="ui.cards.french",
    card_namer="ui.card_names:tractor_name",
    card_face="ui.card_names:tractor_face",
    card_parser="engine.tractor.cards:parse_card",
    card_separator=" ",
    code_pattern=r"\b(?:(?:10|[2-9JQKA])[SHCD]|RJ|BJ)\b",
    summary_card_dp=66.0,
    summary_hand_dp=66.0,
    draws=False,
    facedown_plays=False,
    coach_heading=N_("Trick {n} of 25"),
    coach_card_play="ui.table.coach_words:tractor_card_play",
    gain_step=5,
    why_unit=N_("Points: card points won over the other team; a level counts as 20."),
    pick_buttons=MappingProxyType({"bury": N_("Bury"), "play": N_("Play")}),
    action_words="ui.table.action_words:tractor_words",
    own_end=N_("To Ace"),
    own_end_match=N_("Match: to Ace"),
    phone_picks=MappingProxyType({"declare": None, "bury": ("bury", 8, 8), "play": ("", 1, 0)}),
    phone_phrases=MappingProxyType({
        "declare": N_("Declare trump with the cards shown, or pass."),
        "bury": N_("You picked up the kitty (outlined). Choose 8 cards to bury.")}),
    phone_prompt="ui.remote.decisions:tractor_prompt",
    phone_view="ui.remote.views:tractor_view",
    phone_deck="ui.remote.views:tractor_deck",
    tutorial="ui.tutorial.tractor:LESSON",
    rules_page="rules/tractor.json",
)
