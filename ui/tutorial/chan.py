"""Chắn's guided deal: the dealer's opening discard, pairs (Chắn and Cạ), capture or pass,
the draw from the stock, discards that never break a pair, Ù and the main cước."""

from __future__ import annotations

from ui.i18n import N_
from ui.tutorial.lesson import Lesson, Step
from ui.tutorial.records import load

LESSON = Lesson(
    game="chan",
    record=load("chan"),
    steps=(
        Step(0, ("discard CC",),
             N_("The aim: ten pairs. A Chắn is two identical cards; a Cạ, two of the same rank in other suits. You deal: 20 cards, and you open by discarding one into your gate. Discard the outlined Chi chi, which pairs with nothing."),  # noqa: E501
             ("CC",), ("C-6", "C-7", "C-13", "W-2")),
        Step(8, ("pass",),
             N_("The open card is in the previous player's gate. A Cạ may not break a pair, and your two cards of that rank are a pair: you cannot take it. Pass."),  # noqa: E501
             (), ("C-10", "C-16")),
        Step(9, ("capture 2C",),
             N_("After passing you draw: the top stock card lies open in your own gate. You hold the same card: capture it as a Chắn (with an identical card it must be a Chắn)."),  # noqa: E501
             ("2C",), ("C-11", "C-6", "C-15")),
        Step(10, ("discard 3S",),
             N_("After a capture you discard. A card held exactly twice may not be discarded: it would break a pair. You hold three of the outlined card: one may go."),  # noqa: E501
             ("3S",), ("X-1", "C-12")),
        Step(19, ("capture 7M",),
             N_("The open card has your rank in another suit: capture it with the outlined card as a Cạ. Capture when it makes a pair; otherwise pass."),  # noqa: E501
             ("7M",), ("C-6", "C-10", "C-16")),
        Step(20, ("discard 2M",),
             N_("Discard a lone card that makes no pair in your hand: the outlined one."),
             ("2M",), ("X-1", "X-3")),
        Step(27, ("pass",),
             N_("You cannot use this card: pass, and draw again from the stock."),
             (), ("C-10", "C-11")),
        Step(28, ("win",),
             N_("The card you drew completes ten pairs: say Ù and win! Won on your own draw: Ù chì. With a Tôm (3 Vạn, 3 Sách and 7 Văn) and Bạch thủ (six Chắn), the score is the top cước's main value plus 1 dịch for each other cước."),  # noqa: E501
             (), ("W-1", "W-2", "S-2", "S-3")),
    ),
    follow=N_("Do the outlined move: {move}."),
    closing=N_("Ù! Each of the three other players pays you the score. Well played: that is Chắn!"),  # noqa: E501
    rules=("C-6", "C-7", "C-10", "C-11", "C-12", "C-13", "C-15", "C-16", "W-1", "W-2", "X-1",
           "X-3", "S-2", "S-3", "S-5"),
)
