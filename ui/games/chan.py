"""Chắn's UI descriptor: its table, Tổ Tôm deck, card names, phone and lesson."""

from __future__ import annotations

from types import MappingProxyType

from ui.games import UiGame
from ui.i18n import N_

GAME = UiGame(
    name="chan",
    table="ui.table.chan:ChanTableScreen",
    table_kv="table/chan.kv",
    deck_art="ui.cards.chan",
    card_namer="ui.card_names:chan_name",
    card_face="ui.card_names:chan_face",
    card_parser="engine.chan.cards:parse_card",
    card_separator=", ",
    code_pattern=r"\b(?:[2-9][MSC]|CC)\b",
    summary_card_dp=92.0,
    summary_hand_dp=108.0,  # a whole hand (a group with sub-groups) a little larger
    draws=True,
    facedown_plays=False,
    coach_heading=N_("Cards drawn: {n}"),
    coach_card_play="ui.table.coach_words:no_card_play",
    gain_step=1,
    why_unit=N_("Points: their settlement, estimated one round ahead."),
    pick_buttons=MappingProxyType({"capture": N_("Capture"), "discard": N_("Discard")}),
    action_words="ui.table.action_words:chan_words",
    own_end="",
    own_end_match="",
    phone_picks=MappingProxyType({
        "heavenly": None, "discard": ("discard", 1, 1), "respond": ("capture", 1, 1),
        "own_card": ("capture", 1, 1), "win_offer": None, "chiu_offer": None}),
    phone_phrases=MappingProxyType({
        "heavenly": N_("Thiên ù: your twenty dealt cards already win. Win now?"),
        "discard": N_("Choose a card to discard into your gate.")}),
    phone_prompt="ui.remote.decisions:chan_prompt",
    phone_view="ui.remote.views:chan_view",
    phone_deck="ui.remote.views:chan_deck",
    tutorial="ui.tutorial.chan:LESSON",
    rules_page="rules/chan.json",
)
