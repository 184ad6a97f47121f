"""Hachinin Meri's UI descriptor: its table, Unsun karuta deck, card names, phone and lesson."""

from __future__ import annotations

from types import MappingProxyType

from ui.games import UiGame
from ui.i18n import N_

GAME = UiGame(
    name="meri",
    table="ui.table.meri:MeriTableScreen",
    table_kv="table/meri.kv",
    deck_art="ui.cards.karuta",
    card_namer="ui.card_names:meri_name",
    card_face="ui.card_names:meri_face",
    card_parser="engine.meri.cards:parse_card",
    card_separator=", ",
    code_pattern=r"\b[PIKOG](?:Su|Un|Re|Ka|So|Ro|[1-9])\b",
    summary_card_dp=74.0,
    summary_hand_dp=74.0,
    draws=False,
    facedown_plays=True,
    coach_heading=N_("Trick {n} of 9"),
    coach_card_play="ui.table.coach_words:meri_card_play",
    gain_step=1,
    why_unit=N_("Points: their team's score minus the other team's at the end of the deal."),
    pick_buttons=MappingProxyType({"discard": N_("Discard"), "play": N_("Play")}),
    action_words="ui.table.action_words:meri_words",
    own_end="",
    own_end_match="",
    phone_picks=MappingProxyType({"declare": None, "discard": ("", 1, 1), "play": ("", 1, 1)}),
    phone_phrases=MappingProxyType({
        "discard": N_("You took the Okie: choose a card to discard face down (not a trump)."),
        "play": N_("Your turn: choose a card and play it.")}),
    phone_prompt="ui.remote.decisions:meri_prompt",
    phone_view="ui.remote.views:meri_view",
    phone_deck="ui.remote.views:meri_deck",
    tutorial="ui.tutorial.meri:LESSON",
    rules_page="rules/meri.json",
)
