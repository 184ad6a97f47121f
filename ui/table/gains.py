"""How much a move wins or gives up, in words a beginner reads (no widgets here).

The search weighs moves in each game's points (`engine.ai.search.Weighed`): Meri's team points
ahead, Tractor's card points ahead, Chắn's settlement. Why? and the coach say a difference
between two moves the way a person would, rounded to the game's own step — "gives up about 3
points", "wins about 10 points more" — never as a signed decimal ("−2.6").

`step(game)` is the rounding per game (`UiGame.gain_step`), by the game's point scale: Meri and Chắn count whole points
(a Meri trick moves the teams' difference by 2, a Chắn win scores at least 2), Tractor's point
cards are fives, tens and kings, so its differences are said in fives. A difference that rounds
to nothing is "about as good": a beginner should not weigh it. The coach's own threshold (when
a moment is worth telling at all) is `engine.ai.coach.MIN_GAIN`, in the same units.
"""

from __future__ import annotations

from ui.games import get
from ui.i18n import N_, tr, trf

AS_GOOD = N_("about as good")
GIVES_UP = (N_("gives up about 1 point"), N_("gives up about {n} points"))
WINS_MORE = (N_("wins about 1 point more"), N_("wins about {n} points more"))


def step(game_name: str) -> int:
    """The game's step (`UiGame.gain_step`): 1 for Meri and Chắn, 5 for Tractor."""
    return get(game_name).gain_step


def rounded(game_name: str, value: float) -> int:
    """`value` (≥ 0) rounded to the game's step (half up): 2.6 Meri points -> 3, 7 Tractor -> 5."""
    return int(value / step(game_name) + 0.5) * step(game_name)


def difference_words(game_name: str, difference: float) -> str:
    """A move's value minus another's in words: "wins about 2 points more" when positive,
    "gives up about 3 points" when negative, "about as good" when it rounds to nothing."""
    n = rounded(game_name, abs(difference))
    if n == 0:
        return tr(AS_GOOD)
    one, many = WINS_MORE if difference > 0 else GIVES_UP
    return tr(one) if n == 1 else trf(many, n=n)
