"""Hachinin Meri's guided deal: trumps and the Okie, the declaration and discard, the first
lead, face-down trumps, a Meri and Monchi, the winner of a trick and combinations."""

from __future__ import annotations

from ui.i18n import N_
from ui.tutorial.lesson import Lesson, Step
from ui.tutorial.records import load

LESSON = Lesson(
    game="meri",
    record=load("meri"),
    steps=(
        Step(1, ("declare",),
             N_("Trumps are the suit of the turned-up Okie: Ouru. You hold its Robai, the native Robai ({card}): declare it, and the Okie comes into your hand."),  # noqa: E501
             ("ORo",), ("H-9", "H-11", "H-12", "H-13"), {"card": "Ouru Robai"}),
        Step(2, ("IRo",),
             N_("You now hold 10 cards: discard one face down. It must not be a trump: the {card} is a lone card you can spare."),  # noqa: E501
             ("IRo",), ("H-14",), {"card": "Isu Robai"}),
        Step(3, ("G4",),
             N_("You lead the first trick. Nobody may lead a trump in trick 1: lead a plain card, the {card}."),  # noqa: E501
             ("G4",), ("H-20", "H-22"), {"card": "Guru 4"}),
        Step(13, ("ORo",),
             N_("Nobody has led a trump yet, so you need not follow suit. A trump played to a plain lead goes face down: the others only see that it is a trump. Play the {card}."),  # noqa: E501
             ("ORo",), ("H-23", "H-24"), {"card": "Ouru Robai"}),
        Step(20, ("O2",),
             N_("Your Robai lost to Tenka, the Pao Robai, which is always a trump and ranks above it. Trump again, face down, with the {card}: the highest trump wins."),  # noqa: E501
             ("O2",), ("H-10", "H-16", "H-28"), {"card": "Ouru 2"}),
        Step(34, ("K8",),
             N_("Still no Meri: any card may answer a plain lead. Keep your trumps and throw away the {card}."),  # noqa: E501
             ("K8",), ("H-23",), {"card": "Koppu 8"}),
        Step(40, ("O9",),
             N_("A trump was led: this trick is a Meri. You hold trumps, so you must play one, face up. Play the {card}."),  # noqa: E501
             ("O9",), ("H-21", "H-25"), {"card": "Ouru 9"}),
        Step(48, ("K7",),
             N_("Monchi: after the first Meri, answer a plain lead with its suit or a trump. Follow Koppu with the {card}."),  # noqa: E501
             ("K7",), ("H-27",), {"card": "Koppu 7"}),
        Step(55, ("I7",),
             N_("You hold no Pao: a player void in the led suit may play any card, even after a Meri. Play the {card}."),  # noqa: E501
             ("I7",), ("H-27", "H-19"), {"card": "Isu 7"}),
        Step(61, ("OKa",),
             N_("Trump the Isu lead with the {card}: the only trump, it wins. Combinations: when a winning trump beats an opponent's trump next to it (Sun–Un, Un–Sota, Sota–Robai, Robai–Rei), 2 points move to the winners."),  # noqa: E501
             ("OKa",), ("H-28", "H-31", "H-32"), {"card": "Ouru Kaba"}),
    ),
    follow=N_("Play the outlined card: {move}."),
    closing=N_("Trick 9 plays itself: the last cards are turned up at once, and a combination there moves 5 points. Each trick won is worth 1 point. Well played: that is Hachinin Meri!"),  # noqa: E501
    rules=("H-9", "H-10", "H-11", "H-12", "H-13", "H-14", "H-16", "H-19", "H-20", "H-21",
           "H-22", "H-23", "H-24", "H-25", "H-27", "H-28", "H-29", "H-30", "H-31", "H-32"),
)
