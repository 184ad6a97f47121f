"""Tractor's guided deal: the level and the trump declaration, the dealer and the kitty,
trump order, tractors, pairs and singles, following, trumping when void, point cards and the
last trick."""

from __future__ import annotations

from ui.i18n import N_
from ui.tutorial.lesson import Lesson, Step
from ui.tutorial.records import load

BURY = "bury AS 5S 2S 4H 6D 4D 3D 2D"

LESSON = Lesson(
    game="tractor",
    record=load("tractor"),
    steps=(
        Step(0, ("declare 2C",),
             N_("Both teams start at level 2, so the 2s are this deal's level cards. Declare with your 2 of clubs: clubs become trumps, and the first to declare becomes the dealer."),  # noqa: E501
             ("2C",), ("T-2", "T-7", "T-8", "T-11")),
        Step(4, (BURY,),
             N_("As dealer you picked up the kitty (8 more cards). Bury 8 cards face down as the new kitty: the outlined ones. Points buried there, like this 5 of spades, go to the attackers, doubled, if they win the last trick: you will want to win it."),  # noqa: E501
             tuple(BURY.split()[1:]), ("T-3", "T-15", "T-26")),
        Step(5, ("QC QC JC JC",),
             N_("Trumps, high to low: the jokers, the level 2s, then clubs. Lead a tractor: consecutive pairs of one suit, here queens and jacks of clubs. Others must answer with pairs if they can."),  # noqa: E501
             ("QC", "QC", "JC", "JC"), ("T-13", "T-16", "T-17", "T-20")),
        Step(9, ("3S",),
             N_("You won the trick, so you lead again. A lead may also be a single card: lead the 3 of spades."),  # noqa: E501
             ("3S",), ("T-16", "T-24")),
        Step(15, ("5H",),
             N_("Hearts were led: follow the led suit as far as you can. Fives are worth 5 points, tens and kings 10."),  # noqa: E501
             ("5H",), ("T-19", "T-25")),
        Step(20, ("10S 7S 4S 6D",),
             N_("A tractor of four cards was led: play four cards too. You hold only three spades: play them all, then any card."),  # noqa: E501
             ("10S", "7S", "4S", "6D"), ("T-18", "T-19", "T-21")),
        Step(28, ("KC",),
             N_("You have no spades left: you may play any card, and a trump can win. Trump with the king of clubs: it wins the trick and keeps its 10 points from the attackers."),  # noqa: E501
             ("KC",), ("T-21", "T-22", "T-25")),
        Step(38, ("10H 10D",),
             N_("A pair of diamonds was led and you hold one diamond: play it, and add any card to make two."),  # noqa: E501
             ("10H", "10D"), ("T-18", "T-19", "T-20")),
        Step(49, ("BJ BJ",),
             N_("Lead a pair: two identical cards. Your two black jokers are high trumps; only a pair of red jokers beats them."),  # noqa: E501
             ("BJ", "BJ"), ("T-13", "T-16", "T-22")),
        Step(69, ("RJ",),
             N_("The last trick: lead the red joker, the highest card. Winning it keeps the kitty's points away from the attackers."),  # noqa: E501
             ("RJ",), ("T-13", "T-26")),
    ),
    follow=N_("Play the outlined card(s): {move}."),
    closing=N_("The attackers took fewer than 80 points, so your team, the defenders, goes up a level. Well played: that is Tractor!"),  # noqa: E501
    rules=("T-2", "T-3", "T-7", "T-8", "T-11", "T-13", "T-15", "T-16", "T-17", "T-18", "T-19",
           "T-20", "T-21", "T-22", "T-24", "T-25", "T-26", "T-27"),
)
